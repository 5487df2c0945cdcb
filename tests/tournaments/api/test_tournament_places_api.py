"""Standings of elimination events by finishing place, and the prize order (issue 13)."""

from __future__ import annotations

import pytest

from games.models import Match
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def start_event(client, club, n: int, **config) -> str:
    body = {"club": club.slug, "name": "Places", "seeding": "manual", **config}
    response = client.post(API, body, format="json")
    assert response.status_code == 201, response.data
    slug = response.data["slug"]
    for i in range(n):
        player = club_services.create_player(display_name=f"S{i + 1:02d}", clubs=[club])
        assert client.post(f"{API}{slug}/entries/", {"player": player.pk}).status_code == 201
    assert client.post(f"{API}{slug}/start/").status_code == 200
    return slug


def play_out(client, slug) -> None:
    """Enter every match through the match API; the better seed always wins."""
    while True:
        data = client.get(f"{API}{slug}/bracket/").json()
        ready = [
            p
            for stage in data["stages"]
            for r in stage["rounds"]
            for p in r["pairings"]
            if p["status"] == "ready" and p["match"] and not p["stale"]
        ]
        if not ready:
            return
        for p in ready:
            winner = min((p["player1"], p["player2"]), key=lambda e: e["seed"])
            match = Match.objects.get(pk=p["match"])
            length = p["length"]
            score = [length, 0] if match.player1_id == winner["id"] else [0, length]
            response = client.post(
                f"/api/v1/matches/{match.pk}/result/", {"score": score}, format="json"
            )
            assert response.status_code == 200, response.data


def test_consolation_winner_stands_below_the_main_places(client_for, director, club):
    client = client_for(director)
    slug = start_event(client, club, 8, format="single_elimination", consolation_from=[1])
    play_out(client, slug)
    assert client.post(f"{API}{slug}/finish/").status_code == 200
    data = client.get(f"{API}{slug}/standings/").json()
    rows = data["standings"]
    assert [r["place"] for r in rows] == [
        "1",
        "2",
        "3–4",
        "3–4",
        "Consolation 1",
        "Consolation 2",
        "Consolation 3–4",
        "Consolation 3–4",
    ]
    assert [r["player"]["seed"] for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r["rank"] for r in rows] == [1, 2, 3, 3, 5, 6, 7, 7]
    assert rows[4]["wins"] > rows[2]["wins"]  # more match wins, lower place
    assert {"tie_breaks", "wins", "losses", "played", "byes"} <= set(rows[0])
    assert data["winner"]["seed"] == 1
    assert [p["place"] for p in data["places"]][:5] == [
        "1",
        "2",
        "3–4",
        "Consolation 1",
        "Consolation 2",
    ]
    assert [e["seed"] for e in data["places"][2]["players"]] == [3, 4]

    # the director moves the consolation winner's prize ahead of the semi-finalists
    response = client.patch(
        f"{API}{slug}/", {"prize_order": ["main:2", "consolation:1", "main"]}, format="json"
    )
    assert response.status_code == 200, response.data
    assert response.data["prize_order"] == ["main:2", "consolation:1", "main"]
    rows = client.get(f"{API}{slug}/standings/").json()["standings"]
    assert [r["place"] for r in rows][:4] == ["1", "2", "Consolation 1", "3–4"]


@pytest.mark.parametrize(
    "prize_order",
    [["champions"], ["main", "main"], ["consolation:0"], ["last_chance:two"], "main", [7]],
)
def test_a_bad_prize_order_names_the_field(client_for, director, club, prize_order):
    client = client_for(director)
    response = client.post(
        API,
        {
            "club": club.slug,
            "name": "X",
            "format": "single_elimination",
            "prize_order": prize_order,
        },
        format="json",
    )
    assert response.status_code == 400, response.data
    assert response.data["field"] == "prize_order"


def test_swiss_keeps_its_tie_breaks_and_names_the_winner_when_finished(client_for, director, club):
    from games.services.actors import actor_for_user
    from tournaments.models import Tournament
    from tournaments.services.rounds import pair_next_round

    client = client_for(director)
    slug = start_event(client, club, 4, format="swiss", swiss_rounds=2)
    play_out(client, slug)
    data = client.get(f"{API}{slug}/standings/").json()
    assert data["places"] == [] and data["winner"] is None  # still running
    assert all(r["place"] is None for r in data["standings"])
    event = Tournament.objects.get(slug=slug)
    pair_next_round(actor=actor_for_user(director), tournament_id=event.pk)
    play_out(client, slug)  # the two 1-0 players meet; seed 1 ends alone on 2 wins
    assert client.post(f"{API}{slug}/finish/").status_code == 200
    data = client.get(f"{API}{slug}/standings/").json()
    assert data["standings"][0]["wins"] == 2 and data["standings"][1]["rank"] == 2
    assert data["winner"]["seed"] == 1 == data["standings"][0]["player"]["seed"]
    assert all(r["place"] is None for r in data["standings"])


def test_a_last_chance_nobody_can_reach_is_refused_at_the_start(client_for, director, club):
    """4 entries, consolation of the 2 first-round losers: its one loser alone is no
    last chance. The start says so, naming the option, and nothing is drawn."""
    client = client_for(director)
    body = {
        "club": club.slug,
        "name": "Tiny",
        "format": "single_elimination",
        "consolation_from": [1],
        "last_chance_from": [1],
    }
    slug = client.post(API, body, format="json").data["slug"]
    for i in range(4):
        player = club_services.create_player(display_name=f"T{i}", clubs=[club])
        client.post(f"{API}{slug}/entries/", {"player": player.pk})
    response = client.post(f"{API}{slug}/start/")
    assert response.status_code == 400, response.data
    assert response.data["code"] == "last_chance_unreachable"
    assert response.data["field"] == "last_chance_from"
    assert client.get(f"{API}{slug}/").data["status"] != "running"
    assert client.get(f"{API}{slug}/bracket/").json()["stages"] == []
