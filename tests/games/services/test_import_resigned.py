"""Importing a resigned match (issue 12, item 7), through ``manage.py import_mat`` and
``POST /api/v1/matches/import/``.

The file is BackgammonGalaxy's shape of a match the loser resigned: at 2-1 in a
5-point match, with the cube at 1, the last game says ``Wins 4 point and the match``
(more than a backgammon). It is stored as a finished, rated match won by the ``Wins``
column, 2-5: its last game has the ending ``match_resigned`` and is worth the 4 points
the winner needed; the 4 the file wrote is kept in the game's last move entry and the
transcript. Ratings count it like any finished match.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from games.models import Game, Match, RatingChange
from games.rules import fibs
from games.services import ratings as rating_services
from tests.games.rules.test_resigned_matches import ONE_MOVE, galaxy_at_2_1

pytestmark = pytest.mark.django_db

URL = "/api/v1/matches/import/"


def write(tmp_path: Path, text: str, name: str = "resigned.mat") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str) -> str:
    out = StringIO()
    call_command("import_mat", *args, stdout=out)
    return out.getvalue()


def assert_stored_as_resigned(match: Match, *, n: int) -> None:
    assert (match.status, match.source, match.rated, match.length) == (
        "finished",
        "imported",
        True,
        5,
    )
    assert (match.score1, match.score2) == (2, 5)
    assert (match.player1.display_name, match.player2.display_name) == ("lasse", "mglough")
    assert match.winner == match.player2 and match.finished_at is not None
    games = list(match.games.order_by("number"))
    assert [g.ending for g in games] == ["resigned", "resigned", "resigned", "match_resigned"]
    last = games[-1]
    assert (last.winner_id, last.points, last.cube, last.level, last.cube_owner) == (
        match.player2_id,
        4,
        1,
        "single",
        "centre",
    )
    assert (last.score1_before, last.score2_before) == (2, 1)
    assert last.moves[-1] == {
        "player": 2,
        "action": "wins",
        "level": "single",
        "ending": "match_resigned",
        "declared_points": n,
    }


@pytest.mark.parametrize("n", [4, 5])
def test_import_mat_stores_a_finished_match_with_the_winner_and_final_score(
    club, tmp_path, django_capture_on_commit_callbacks, n
) -> None:
    path = write(tmp_path, galaxy_at_2_1(n))
    with django_capture_on_commit_callbacks(execute=True):
        run(str(path), "--club", club.slug)
    match = Match.objects.get()
    assert_stored_as_resigned(match, n=n)
    assert match.transcript == galaxy_at_2_1(n)
    # ratings: a normal finished 5-point match won by mglough, in both lists
    assert rating_services.is_rated(match)
    expected = fibs.rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=5
    )
    for rating_list in (rating_services.club_list(club), rating_services.site_list()):
        changes = {
            c.player_id: c
            for c in RatingChange.objects.filter(rating_list=rating_list, match=match)
        }
        assert set(changes) == {match.player1_id, match.player2_id}
        assert changes[match.player2_id].won and not changes[match.player1_id].won
        assert changes[match.player2_id].change == pytest.approx(expected.winner_delta)
        assert changes[match.player1_id].change == pytest.approx(expected.loser_delta)


def test_check_json_reports_the_resigned_match(tmp_path) -> None:
    path = write(tmp_path, ONE_MOVE, "one-move.mat")
    [line] = run(str(path), "--check", "--json").splitlines()
    report = json.loads(line)
    assert report["errors"] == []
    assert (report["winner"], report["final_score"], report["length"]) == (2, [0, 5], 5)
    assert report["games"][0]["ending"] == "match_resigned" and report["games"][0]["points"] == 5
    assert Match.objects.count() == 0


def test_a_game_claiming_more_than_a_backgammon_before_the_end_is_refused(club, tmp_path) -> None:
    text = ONE_MOVE + (
        "\n Game 2\n lasse : 0                       mglough : 5\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "      Wins 1 point\n"
    )
    path = write(tmp_path, text, "not-last.mat")
    with pytest.raises(CommandError, match="1 of 1 file"):
        run(str(path), "--club", club.slug)
    assert Match.objects.count() == 0 and Game.objects.count() == 0


def upload(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode())


def test_api_import_then_download_round_trips(
    client_for, club, director, django_capture_on_commit_callbacks
) -> None:
    client = client_for(director)
    text = galaxy_at_2_1(5)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            URL, {"files": [upload("resigned.mat", text)], "club": club.slug}, format="multipart"
        )
    assert response.status_code == 201, response.json()
    [report] = response.json()["files"]
    assert (report["status"], report["winner"], report["final_score"]) == ("imported", 2, [2, 5])
    assert report["errors"] == []
    assert [w["code"] for w in report["warnings"]] == ["match_resigned"]
    match = Match.objects.get(pk=report["match"])
    assert_stored_as_resigned(match, n=5)
    assert RatingChange.objects.filter(match=match).count() == 4  # club and site lists
    detail = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert detail["score"] == [2, 5] and detail["games"][-1]["ending"] == "match_resigned"
    page = client.get(match.get_absolute_url())
    assert page.status_code == 200 and "Match resigned" in page.content.decode()
    # the transcript download gives the file back, which imports as the same match
    downloaded = client_for(None).get(f"/api/v1/matches/{match.pk}/transcript.mat")
    assert downloaded.content.decode() == text
    again = client.post(
        URL,
        {"files": [upload("again.mat", downloaded.content.decode())], "club": club.slug},
        format="multipart",
    )
    assert again.json()["files"][0]["status"] == "duplicate"


def test_api_refuses_a_non_final_game_above_a_backgammon(client_for, club, director) -> None:
    text = galaxy_at_2_1(4) + (
        "\n Game 5\n lasse : 2                       mglough : 5\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "      Wins 1 point\n"
    )
    response = client_for(director).post(
        URL, {"files": [upload("extra.mat", text)], "club": club.slug}, format="multipart"
    )
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["field"]) == ("transcript_refused", "files")
    assert {e["code"] for e in body["files"][0]["errors"]} >= {"score_mismatch"}
    assert Match.objects.count() == 0


def test_score_entry_does_not_offer_a_match_resignation(client_for, director, match, alice):
    """Only transcripts record one; a director awards an unfinished match by forfeit."""
    response = client_for(director).post(
        f"/api/v1/matches/{match.pk}/games/",
        {"winner": alice.pk, "ending": "match_resigned"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"].endswith("ending")
    assert not Game.objects.filter(match=match).exists()
