"""The analysis through the API: import -> automatic analysis; ask again; read it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from analysis import selectors, services
from analysis.models import Decision, MatchAnalysis, PlayerAnalysis
from core.models import Job
from games.models import Match
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[3] / "data" / "mat"
GALAXY = CORPUS / "galaxy" / "Llabba_match1280660.mat"


def _import(client, club, path: Path, django_capture_on_commit_callbacks) -> Match:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/api/v1/matches/import/",
            {"files": [SimpleUploadedFile(path.name, path.read_bytes())], "club": club.slug},
            format="multipart",
        )
    assert response.status_code in (200, 201, 202), response.content
    return Match.objects.get()


def test_an_imported_transcript_is_analysed_automatically(
    client_for, club, director, django_capture_on_commit_callbacks
):
    services.update_settings(user=director, club=club, plies=0)
    client = client_for(director)
    match = _import(client, club, GALAXY, django_capture_on_commit_callbacks)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.plies == 0
    body = client_for(None).get(f"/api/v1/matches/{match.pk}/analysis/").json()
    assert [p["name"] for p in body["players"]] == ["llabba", "platopatax"]
    for p in body["players"]:
        # PR is half gnubg's error rate, by definition (not a 1-point match)
        assert p["pr"] == pytest.approx(p["error_rate"] / 2, abs=0.002)
        assert p["unforced_moves"] > 50
        worst = [w["loss"] for w in p["worst"]]
        assert worst == sorted(worst, reverse=True) and worst
    stored = Decision.objects.filter(analysis=analysis)
    assert stored.count() == body["decisions"]
    assert all(len(d.position_id) == 14 and d.match_id for d in stored[:50])


def test_no_automatic_analysis_when_the_club_says_on_request(
    client_for, club, director, django_capture_on_commit_callbacks
):
    services.update_settings(user=director, club=club, automatic=False, plies=0)
    match = _import(client_for(director), club, GALAXY, django_capture_on_commit_callbacks)
    assert not MatchAnalysis.objects.filter(match=match).exists()
    response = client_for(None).get(f"/api/v1/matches/{match.pk}/analysis/")
    assert response.status_code == 404


def test_asking_again_at_another_depth_replaces_the_analysis_and_keeps_history(
    client_for, club, director, make_user, django_capture_on_commit_callbacks
):
    services.update_settings(user=director, club=club, plies=0)
    client = client_for(director)
    match = _import(client, club, GALAXY, django_capture_on_commit_callbacks)
    first = dict(PlayerAnalysis.objects.filter(analysis__match=match).values_list("side", "pr"))
    first_decisions = list(
        Decision.objects.filter(analysis__match=match)
        .order_by("game", "index", "id")
        .values_list("game", "index", "kind", "position_id", "played", "best", "loss")
    )
    assert not selectors.earlier_analyses(match)  # a first analysis keeps nothing extra
    url = f"/api/v1/matches/{match.pk}/analysis/"
    assert client_for(make_user()).post(url, {"plies": 1}).status_code == 403
    assert client.post(url, {"plies": 9}, format="json").json()["field"] == "plies"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"plies": 1}, format="json")
    assert response.status_code == 202
    job = Job.objects.get(pk=response.json()["id"])
    job.refresh_from_db()
    assert job.status == "succeeded", (job.status, job.error)
    assert (job.done, job.total) == (3, 3)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.plies == 1
    assert MatchAnalysis.objects.count() == 1
    assert analysis.history.count() == 2  # the 0-ply version is kept
    second = dict(PlayerAnalysis.objects.filter(analysis__match=match).values_list("side", "pr"))
    assert second != first
    assert PlayerAnalysis.history.filter(analysis_id=analysis.pk).count() == 4
    # the replaced 0-ply decisions remain retrievable, every row as it was stored
    (earlier,) = selectors.earlier_analyses(match)
    assert (earlier.plies, earlier.decisions_count) == (0, len(first_decisions))
    kept = [
        (d["game"], d["index"], d["kind"], d["position_id"], d["played"], d["best"], d["loss"])
        for d in earlier.decisions
    ]
    assert kept == first_decisions
    assert {f["side"]: f["pr"] for f in earlier.figures} == first
    current = Decision.objects.filter(analysis=analysis).values_list("loss", flat=True)
    assert sorted(current) != sorted(d[-1] for d in first_decisions)  # 1-ply judged anew
    # the API and the page show the earlier analysis, to anyone who may read the analysis
    (answer,) = client_for(None).get(f"{url}history/").json()
    assert (answer["plies"], answer["decisions"]) == (0, len(first_decisions))
    assert {p["side"] - 1: p["pr"] for p in answer["players"]} == first
    assert [p["name"] for p in answer["players"]] == ["llabba", "platopatax"]
    assert "decision_rows" not in answer
    (full,) = client_for(None).get(f"{url}history/?decisions=true").json()
    assert len(full["decision_rows"]) == len(first_decisions)
    page = client_for(None).get(f"/matches/{match.pk}/analysis/").content.decode()
    assert "Earlier analyses" in page and "0-ply" in page


def test_a_match_without_transcript_cannot_be_analysed(client_for, club, director):
    match = MatchFactory.create(club=club)  # entered game by game: no transcript
    assert client_for(None).get(f"/api/v1/matches/{match.pk}/analysis/history/").json() == []
    assert client_for(None).get("/api/v1/matches/999999/analysis/history/").status_code == 404
    page = client_for(None).get(f"/matches/{match.pk}/analysis/").content.decode()
    assert "Earlier analyses" not in page
    response = client_for(director).post(f"/api/v1/matches/{match.pk}/analysis/", {})
    assert response.status_code == 400 and response.json()["code"] == "no_transcript"


def test_club_settings_read_by_anyone_changed_by_directors(client_for, club, director, make_user):
    url = f"/api/v1/clubs/{club.slug}/analysis-settings/"
    assert client_for(None).get(url).json() == {"automatic": True, "plies": 2, "min_decisions": 200}
    assert client_for(make_user()).patch(url, {"plies": 0}, format="json").status_code == 403
    response = client_for(director).patch(url, {"plies": 7}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "plies"
    response = client_for(director).patch(url, {"plies": 0, "automatic": False}, format="json")
    assert response.json() == {"automatic": False, "plies": 0, "min_decisions": 200}
    latest = services.settings_for(club).history.first()  # every change is kept
    assert (latest.plies, latest.automatic) == (0, False)
