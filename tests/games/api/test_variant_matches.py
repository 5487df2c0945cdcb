"""A match carries its variant (docs/api.md, "Variants"): created through the API,
shown in the match, and score entry follows it: only the levels it scores, no cube
where it has none, the Crawford game only where the rule applies."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Match, MatchSource

pytestmark = pytest.mark.django_db


def create(client, club, alice, bob, **extra):
    return client.post(
        "/api/v1/matches/",
        {"club": club.slug, "player1": alice.pk, "player2": bob.pk, "length": 5, **extra},
        format="json",
    )


def post_game(client, match_id, winner, **body):
    return client.post(
        f"/api/v1/matches/{match_id}/games/", {"winner": winner.pk, **body}, format="json"
    )


def test_a_match_is_standard_unless_told(client_for, director, club, alice, bob):
    created = create(client_for(director), club, alice, bob)
    assert created.status_code == 201, created.content
    assert created.json()["variant"] == "standard"
    assert Match.objects.get(pk=created.json()["id"]).variant == "standard"


def test_a_tavla_match_scores_no_backgammon_and_no_cube(client_for, director, club, alice, bob):
    client = client_for(director)
    created = create(client, club, alice, bob, variant="tavla")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    assert client.get(f"/api/v1/matches/{match_id}/").json()["variant"] == "tavla"

    backgammon = post_game(client, match_id, alice, level="backgammon")
    assert backgammon.status_code == 400
    assert (backgammon.json()["code"], backgammon.json()["field"]) == (
        "level_not_in_variant",
        "games[0].level",
    )
    cube = post_game(client, match_id, alice, cube=2)
    assert cube.status_code == 400 and cube.json()["code"] == "no_cube_in_variant"

    gammon = post_game(client, match_id, alice, level="gammon")
    assert gammon.status_code == 201, gammon.content
    assert gammon.json()["score"] == [2, 0]
    assert Match.objects.get(pk=match_id).games.count() == 1  # nothing half-written


def test_no_crawford_game_without_the_rule(client_for, director, club, alice, bob):
    client = client_for(director)
    tavla = create(client, club, alice, bob, variant="tavla").json()["id"]
    hyper = create(client, club, alice, bob, variant="hypergammon-3").json()["id"]
    for match_id in (tavla, hyper):
        post_game(client, match_id, alice, level="gammon")
        post_game(client, match_id, alice, level="gammon")
    assert client.get(f"/api/v1/matches/{tavla}/").json()["next_game_is_crawford"] is False
    assert client.get(f"/api/v1/matches/{hyper}/").json()["next_game_is_crawford"] is True


def test_an_unknown_variant_is_refused(client_for, director, club, alice, bob):
    refused = create(client_for(director), club, alice, bob, variant="chess")
    assert refused.status_code == 400
    assert refused.json()["field"] == "variant"


NACK_GAME = (
    " 1 point match\n\n Game 1\n alice : 0                       bob : 0\n"
    "  1) 31: 23/20 6/5                 Doubles => 2\n"
    "  2)  Drops\n"
    "                                 Wins 1 point\n"
)


def import_mat(client, club, name, text):
    upload = SimpleUploadedFile(name, text.encode())
    return client.post(
        "/api/v1/matches/import/", {"files": [upload], "club": club.slug}, format="multipart"
    )


def test_a_nackgammon_transcript_imports_as_nackgammon_and_exports_its_tag(
    client_for, director, club
):
    client = client_for(director)
    text = '; [Variation "NackGammon"]\n\n' + NACK_GAME
    response = import_mat(client, club, "nack.mat", text)
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["files"][0]["match"])
    assert match.variant == "nackgammon" and (match.score1, match.score2) == (0, 1)
    exported = client.get(f"/api/v1/matches/{match.pk}/transcript.mat")
    assert '; [Variation "NackGammon"]' in exported.content.decode()


def test_a_nackgammon_game_played_as_standard_is_refused_at_its_move(client_for, director, club):
    response = import_mat(client_for(director), club, "standard.mat", NACK_GAME)
    assert response.status_code == 400
    [result] = response.json()["files"]
    assert [(e["game"], e["move"], e["code"]) for e in result["errors"]] == [(1, 1, "illegal_move")]
    assert Match.objects.count() == 0


def test_an_entered_variant_match_exports_its_variation(client_for, director, club, alice, bob):
    client = client_for(director)
    match_id = create(client, club, alice, bob, variant="tavla").json()["id"]
    post_game(client, match_id, alice, level="gammon")
    exported = client.get(f"/api/v1/matches/{match_id}/transcript.mat").content.decode()
    assert '; [Variation "Boxcars tavla"]' in exported


GNUBG_HYPER = (
    Path(__file__).parents[1] / "rules" / "variants" / "data" / "gnubg-hypergammon-3.mat"
).read_text(encoding="utf-8")


def test_a_gnubg_hypergammon_transcript_imports_and_exports_as_written(client_for, director, club):
    """GNU Backgammon's own export (tests/games/rules/variants/gnubg_hypergammon.py says
    how it was made): four games of hypergammon-3, every move checked."""
    client = client_for(director)
    response = import_mat(client, club, "gnubg-hypergammon-3.mat", GNUBG_HYPER)
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["files"][0]["match"])
    assert match.variant == "hypergammon-3" and (match.score1, match.score2) == (4, 6)
    assert match.games.count() == 4
    exported = client.get(f"/api/v1/matches/{match.pk}/transcript.mat").content.decode()
    assert exported == GNUBG_HYPER and '; [Variation "HyperGammon (3)"]' in exported


def test_a_standard_move_in_a_hypergammon_transcript_is_refused_at_its_move(
    client_for, director, club
):
    text = GNUBG_HYPER.replace("  1) 52: 23/21 24/19 ", "  1) 52: 13/8 13/11  ", 1)
    assert text != GNUBG_HYPER
    response = import_mat(client_for(director), club, "hyper.mat", text)
    assert response.status_code == 400
    [result] = response.json()["files"]
    first = result["errors"][0]
    assert (first["game"], first["move"], first["code"]) == (1, 1, "illegal_move")
    assert "13/8 13/11 is not a legal play of 52" in first["message"]
    assert Match.objects.count() == 0


def entered_from_gnubg_hyper(client, club, **changes) -> int:
    """The gnubg match imported, then stripped of its transcript as if entered by hand."""
    response = import_mat(client, club, "gnubg-hypergammon-3.mat", GNUBG_HYPER)
    match_id = response.json()["files"][0]["match"]
    Match.objects.filter(pk=match_id).update(
        transcript="", transcript_hash="", source=MatchSource.ENTERED, **changes
    )
    return match_id


def test_an_untagged_transcript_attached_to_a_hypergammon_match_is_read_as_hypergammon(
    client_for, director, club
):
    client = client_for(director)
    match_id = entered_from_gnubg_hyper(client, club)
    untagged = GNUBG_HYPER.replace('; [Variation "HyperGammon (3)"]\n', "")
    assert "Variation" not in untagged
    response = client.post(
        f"/api/v1/matches/{match_id}/transcript/", {"text": untagged}, format="json"
    )
    assert response.status_code == 200, response.content
    exported = client.get(f"/api/v1/matches/{match_id}/transcript.mat").content.decode()
    assert exported.startswith('; [Variation "HyperGammon (3)"]\n')


def test_a_hypergammon_transcript_attached_to_a_standard_match_is_refused(
    client_for, director, club
):
    client = client_for(director)
    match_id = entered_from_gnubg_hyper(client, club, variant="standard")
    response = client.post(
        f"/api/v1/matches/{match_id}/transcript/", {"text": GNUBG_HYPER}, format="json"
    )
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == ("variant_disagrees", "variant")
    assert "Hypergammon (3)" in response.json()["detail"]
    assert Match.objects.get(pk=match_id).transcript == ""
