"""A match carries its variant (docs/api.md, "Variants"): created through the API,
shown in the match, and score entry follows it: only the levels it scores, no cube
where it has none, the Crawford game only where the rule applies."""

from __future__ import annotations

import pytest

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
