"""A match carries its variant (docs/api.md, "Variants"): created through the API,
shown in the match, and score entry follows it: only the levels it scores, no cube
where it has none, the Crawford game only where the rule applies."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Match

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
