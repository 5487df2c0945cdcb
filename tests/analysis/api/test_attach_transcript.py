"""``POST /api/v1/matches/{id}/transcript/``: a transcript for a match entered game by
game, checked against the recorded games, then analysed."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from analysis import services
from analysis.models import MatchAnalysis
from games.models import Match, MatchSource
from games.services.actors import actor_for_user
from games.services.transcripts import import_transcript

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[3] / "data" / "mat"
GALAXY = CORPUS / "galaxy" / "Llabba_match1280660.mat"
OTHER = CORPUS / "boxcars" / "boxcars_crawford_7p.mat"


@pytest.fixture
def entered(club, director) -> Match:
    """A match whose games are recorded but which has no transcript (as if entered)."""
    services.update_settings(user=director, club=club, automatic=False, plies=0)
    outcome = import_transcript(
        actor=actor_for_user(director), club=club, text=GALAXY.read_text(), name=GALAXY.name
    )
    Match.objects.filter(pk=outcome.match_id).update(
        transcript="", transcript_hash="", source=MatchSource.ENTERED
    )
    return Match.objects.get(pk=outcome.match_id)


def post(client, match, path: Path):
    return client.post(
        f"/api/v1/matches/{match.pk}/transcript/",
        {"file": SimpleUploadedFile(path.name, path.read_bytes())},
        format="multipart",
    )


def test_a_transcript_that_agrees_is_attached_and_analysed(
    client_for, entered, club, director, django_capture_on_commit_callbacks
):
    services.update_settings(user=director, club=club, automatic=True)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client_for(director), entered, GALAXY)
    assert response.status_code == 200, response.content
    entered.refresh_from_db()
    assert entered.transcript.startswith("; [Site")
    assert MatchAnalysis.objects.filter(match=entered, plies=0).exists()


def test_a_transcript_of_other_players_is_refused_naming_what_disagrees(
    client_for, entered, director
):
    response = post(client_for(director), entered, OTHER)
    body = response.json()
    assert response.status_code == 400
    assert body["code"] == "players_disagree"
    assert "7-point" in body["detail"]  # the length too
    entered.refresh_from_db()
    assert entered.transcript == ""


def test_a_game_recorded_otherwise_is_refused(client_for, entered, director):
    game = entered.games.order_by("number").first()
    game.points += 1
    game.save()
    response = post(client_for(director), entered, GALAXY)
    assert response.status_code == 400
    assert f"Game {game.number}" in response.json()["detail"]


def test_only_directors_attach(client_for, entered, make_user):
    assert post(client_for(make_user()), entered, GALAXY).status_code == 403
    response = client_for(make_user()).post(
        f"/api/v1/matches/{entered.pk}/transcript/", {}, format="json"
    )
    assert response.status_code in (400, 403)
