"""An N lives Swiss through the API: out after N losses, the last life cashes but does
not reach the playoff, the playoff's winner wins; its odds; its refusals."""

from __future__ import annotations

import random

import pytest

from games.services import clubs as club_services
from tests.tournaments.api.test_tournaments_api import (
    API,
    bracket,
    create_event,
    play,
    ready_pairings,
    register_all,
)
from tournaments.models import Tournament
from tournaments.services import odds as odds_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def entrants(club):
    def make(n: int):
        return [
            club_services.create_player(display_name=f"L{i + 1:02d}", clubs=[club])
            for i in range(n)
        ]

    return make


@pytest.fixture
def next_round(django_capture_on_commit_callbacks):
    def ask(client, slug):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"{API}{slug}/rounds/next/", {}, format="json")
        assert response.status_code == 202, response.data
        return client.get(response["Location"]).data

    return ask


def records(data):
    """Losses per entry in the Swiss stage, and each Swiss round's entries."""
    losses: dict[int, int] = {}
    rounds: list[list[int]] = []
    swiss = next(s for s in data["stages"] if s["kind"] == "swiss")
    for r in swiss["rounds"]:
        seen = []
        for p in r["pairings"]:
            for side in (p["player1"], p["player2"]):
                if side:
                    seen.append(side["entry"])
                    losses.setdefault(side["entry"], 0)
            if p["winner"] is not None and not p["bye"]:
                loser = p["player2"] if p["winner"] == p["player1"]["entry"] else p["player1"]
                losses[loser["entry"]] += 1
        rounds.append(seen)
    return losses, rounds


def test_a_three_lives_swiss_of_eleven_ends_in_a_playoff_of_the_contenders(
    client_for, director, club, entrants, next_round
):
    client = client_for(director)
    event = create_event(
        client, club, format="n_lives", max_losses=3, playoff_qualifiers=4, seeding="rating"
    )
    assert event["format"] == "n_lives"
    slug = event["slug"]
    register_all(client, slug, entrants(11))
    assert client.post(f"{API}{slug}/start/").status_code == 200
    rng = random.Random(5)
    rounds_asked = 0
    while True:
        ready = ready_pairings(bracket(client, slug))
        if ready:
            for pairing in ready:
                play(client, pairing, rng.randrange(2))
            continue
        job = next_round(client, slug)
        if job["status"] == "failed":
            assert job["error"]["code"] == "playoff_running"
            break
        assert job["status"] == "succeeded", job
        rounds_asked += 1
        assert rounds_asked < 40
        if job["result"]["round"] and not ready_pairings(bracket(client, slug)):
            break  # nothing left to play
    data = bracket(client, slug)
    losses, rounds = records(data)
    # nobody plays a Swiss round after their third loss; nobody twice in a round
    out_after: dict[int, int] = {}
    for number, seen in enumerate(rounds, start=1):
        assert len(seen) == len(set(seen))
        for entry in seen:
            assert entry not in out_after, f"{entry} was out after round {out_after.get(entry)}"
        partial, _ = records({"stages": [_first_rounds(data, number)]})
        for entry, count in partial.items():
            if count >= 3:
                out_after.setdefault(entry, number)
    playoff = next(s for s in data["stages"] if s["kind"] == "playoff")
    field = {
        side["entry"]
        for p in playoff["rounds"][0]["pairings"]
        for side in (p["player1"], p["player2"])
        if side
    }
    # the playoff: 2 to 4 players, none of them on their last life or out
    assert 2 <= len(field) <= 4
    assert all(losses[entry] < 2 for entry in field)
    assert sum(1 for count in losses.values() if count < 2) == len(field)
    finished = client.post(f"{API}{slug}/finish/")
    assert finished.status_code == 200, finished.data
    standings = client.get(f"{API}{slug}/standings/").json()
    assert standings["winner"]["entry"] == data["champion"]
    assert data["champion"] in field
    assert len(standings["standings"]) == 11


def _first_rounds(data, number):
    swiss = next(s for s in data["stages"] if s["kind"] == "swiss")
    return {**swiss, "rounds": swiss["rounds"][:number]}


def test_the_odds_of_an_n_lives_swiss_are_computed_after_each_round(
    client_for, director, club, entrants, settings
):
    settings.ODDS_MIN_SIMULATIONS = 400
    client = client_for(director)
    slug = create_event(client, club, format="n_lives", max_losses=2, playoff_qualifiers=2)["slug"]
    register_all(client, slug, entrants(6))
    assert client.post(f"{API}{slug}/start/").status_code == 200
    tournament = Tournament.objects.get(slug=slug)
    assert odds_services.odds_supported(tournament) is None
    snapshot = odds_services.compute_odds(tournament_id=tournament.pk, simulations=400)
    assert snapshot is not None and snapshot.method == "monte_carlo"
    assert snapshot.simulations == 400
    response = client.get(f"{API}{slug}/odds/")
    assert response.status_code == 200, response.content
    win = [row["win"] for row in response.json()["entries"]]
    assert len(win) == 6 and sum(win) == pytest.approx(1.0, abs=0.01)


@pytest.mark.parametrize(
    ("config", "code", "field"),
    [
        ({"max_losses": 1, "playoff_qualifiers": 4}, "lives_too_few", "max_losses"),
        ({"playoff_qualifiers": 4}, "lives_too_few", "max_losses"),
        ({"max_losses": 3}, "playoff_too_small", "playoff_qualifiers"),
        (
            {"max_losses": 3, "playoff_qualifiers": 4, "bye_is_win": False},
            "bye_is_a_win",
            "bye_is_win",
        ),
    ],
)
def test_an_n_lives_swiss_without_lives_or_playoff_is_refused_naming_the_field(
    client_for, director, club, config, code, field
):
    client = client_for(director)
    body = {"club": club.slug, "name": "Lives", "format": "n_lives", **config}
    response = client.post(API, body, format="json")
    assert response.status_code == 400
    assert (response.data["code"], response.data["field"]) == (code, field)
