"""The tournaments API: a director's whole event, from registration to the last final."""

from __future__ import annotations

import random

import pytest

from games.models import Match
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


@pytest.fixture
def players(club):
    def make(n: int, prefix: str = "P"):
        return [
            club_services.create_player(display_name=f"{prefix}{i + 1:02d}", clubs=[club])
            for i in range(n)
        ]

    return make


def create_event(client, club, **config):
    body = {"club": club.slug, "name": "Friday Night", **config}
    response = client.post(API, body, format="json")
    assert response.status_code == 201, response.data
    return response.data


def register_all(client, slug, players):
    for player in players:
        response = client.post(f"{API}{slug}/entries/", {"player": player.pk}, format="json")
        assert response.status_code == 201, response.data


def bracket(client, slug):
    response = client.get(f"{API}{slug}/bracket/")
    assert response.status_code == 200
    return response.json()


def ready_pairings(data):
    return [
        p
        for stage in data["stages"]
        for r in stage["rounds"]
        for p in r["pairings"]
        if p["status"] == "ready" and p["match"] and not p["stale"]
    ]


def play(client, pairing, winner_side: int):
    """Enter the final score through the match API (as the players would)."""
    length = pairing["length"]
    match = Match.objects.get(pk=pairing["match"])
    winner_entry = pairing["player1"] if winner_side == 0 else pairing["player2"]
    forward = match.player1_id == winner_entry["id"]
    score = [length, 0] if forward else [0, length]
    response = client.post(f"/api/v1/matches/{match.pk}/result/", {"score": score}, format="json")
    assert response.status_code == 200, response.data


def test_thirteen_players_main_consolation_last_chance_from_registration_to_last_final(
    client_for, director, club, players
):
    client = client_for(director)
    event = create_event(
        client,
        club,
        format="single_elimination",
        consolation_from=[1, 2],
        last_chance_from=[1],
        match_lengths={"default": 5, "rounds": {"main": {"-2": 7, "-1": 11}}},
    )
    slug = event["slug"]
    assert client.post(f"{API}{slug}/open-registration/").status_code == 200
    field = players(13)
    register_all(client, slug, field)
    assert (
        client.post(
            f"{API}{slug}/seed/", {"method": "random", "random_seed": 7}, format="json"
        ).status_code
        == 200
    )
    started = client.post(f"{API}{slug}/start/")
    assert started.status_code == 200, started.data
    assert started.data["status"] == "running"

    data = bracket(client, slug)
    main = next(s for s in data["stages"] if s["kind"] == "main")
    first = main["rounds"][0]["pairings"]
    assert sum(p["bye"] for p in first) == 3  # 16 - 13 byes, to seeds 1-3
    assert {p["player1"]["seed"] for p in first if p["bye"]} == {1, 2, 3}
    assert [r["match_length"] for r in main["rounds"]] == [5, 5, 7, 11]

    rng = random.Random(1)
    played = {"main": 0, "consolation": 0, "last_chance": 0}
    while True:
        ready = ready_pairings(bracket(client, slug))
        if not ready:
            break
        for pairing in ready:
            play(client, pairing, rng.randrange(2))
            played[pairing["key"].split("-r")[0]] += 1

    data = bracket(client, slug)
    assert played["main"] == 12  # entries - 1: byes are not matches
    assert data["champion"] is not None
    for stage in data["stages"]:
        final = stage["rounds"][-1]["pairings"]
        assert len(final) == 1 and final[0]["winner"] is not None
        assert all(r["status"] == "complete" for r in stage["rounds"])
    # each entry plays at most once per round of a stage
    for stage in data["stages"]:
        for r in stage["rounds"]:
            seen = [x["entry"] for p in r["pairings"] for x in (p["player1"], p["player2"]) if x]
            assert len(seen) == len(set(seen))
    finished = client.post(f"{API}{slug}/finish/")
    assert finished.status_code == 200, finished.data
    assert finished.data["status"] == "finished"
    standings = client.get(f"{API}{slug}/standings/").json()["standings"]
    assert standings[0]["player"]["entry"] == data["champion"] or standings[0]["wins"] >= 4


@pytest.fixture
def next_round(django_capture_on_commit_callbacks):
    """Ask for the next round (a job, run on commit) and read the job back."""

    def ask(client, slug, number=None):
        body = {"round": number} if number else {}
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"{API}{slug}/rounds/next/", body, format="json")
        assert response.status_code == 202, response.data
        assert response["Location"] == f"/api/v1/jobs/{response.data['id']}/"
        return client.get(response["Location"]).data

    return ask


def swiss_round(data, number):
    stage = data["stages"][0]
    return stage["rounds"][number - 1]["pairings"]


def test_nine_player_swiss_of_four_rounds_with_a_withdrawal_after_round_two(
    client_for, director, club, players, next_round
):
    client = client_for(director)
    event = create_event(client, club, format="swiss", swiss_rounds=4, seeding="rating")
    slug = event["slug"]
    field = players(9)
    register_all(client, slug, field)
    assert client.post(f"{API}{slug}/start/").status_code == 200
    rng = random.Random(3)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    withdrawn_entry = None
    for number in range(1, 5):
        if number > 1:
            job = next_round(client, slug)
            assert job["status"] == "succeeded", job
            assert job["result"]["round"] == number
        pairings = swiss_round(bracket(client, slug), number)
        for p in pairings:
            if p["bye"]:
                byes.append(p["player1"]["entry"])
                continue
            pair = frozenset((p["player1"]["entry"], p["player2"]["entry"]))
            assert pair not in met, "a rematch was avoidable with 9 players and 4 rounds"
            met.add(pair)
            assert withdrawn_entry not in pair  # withdrawn players are not paired
            play(client, p, rng.randrange(2))
        if number == 2:
            standings = client.get(f"{API}{slug}/standings/").json()["standings"]
            withdrawn_entry = standings[-1]["player"]["entry"]
            response = client.post(f"{API}{slug}/entries/{withdrawn_entry}/withdraw/")
            assert response.status_code == 200, response.data
            assert response.data["status"] == "withdrawn"
    assert len(byes) == len(set(byes))  # odd field before the withdrawal: no repeated bye
    # after the withdrawal 8 players remain: rounds 3 and 4 have four pairs, no bye
    data = bracket(client, slug)
    assert [len(swiss_round(data, n)) for n in (3, 4)] == [4, 4]
    # a fifth round is refused: the Swiss has four
    job = next_round(client, slug)
    assert job["status"] == "failed" and job["error"]["code"] == "no_more_rounds"
    finished = client.post(f"{API}{slug}/finish/")
    assert finished.status_code == 200, finished.data
    table = client.get(f"{API}{slug}/standings/").json()["standings"]
    assert len(table) == 9
    assert [row["rank"] for row in table] == sorted(row["rank"] for row in table)
    withdrawn_row = next(r for r in table if r["player"]["entry"] == withdrawn_entry)
    assert withdrawn_row["withdrawn"] and withdrawn_row["played"] == 2
    assert set(table[0]["tie_breaks"]) == {
        "match_wins",
        "buchholz",
        "median_buchholz",
        "head_to_head",
        "points_difference",
    }


def test_asking_twice_for_round_two_gives_one_round_two(
    client_for, director, club, players, next_round
):
    client = client_for(director)
    slug = create_event(client, club, format="swiss", swiss_rounds=3)["slug"]
    register_all(client, slug, players(6))
    client.post(f"{API}{slug}/start/")
    for p in swiss_round(bracket(client, slug), 1):
        play(client, p, 0)
    first = next_round(client, slug, 2)
    second = next_round(client, slug, 2)
    assert first["id"] == second["id"]
    data = bracket(client, slug)
    assert len(data["stages"][0]["rounds"]) == 2
    assert len(swiss_round(data, 2)) == 3


def test_the_next_round_waits_for_the_current_one(client_for, director, club, players, next_round):
    client = client_for(director)
    slug = create_event(client, club, format="swiss", swiss_rounds=3)["slug"]
    register_all(client, slug, players(4))
    client.post(f"{API}{slug}/start/")
    job = next_round(client, slug)
    assert job["status"] == "failed"
    assert job["error"]["code"] == "round_not_complete"


# --- permissions, validation, query counts -----------------------------------------------


def test_only_the_clubs_directors_manage_and_everyone_reads(
    client_for, director, club, make_user, players
):
    stranger = client_for(make_user("stranger"))
    body = {"club": club.slug, "name": "Open", "format": "swiss", "swiss_rounds": 3}
    response = stranger.post(API, body, format="json")
    assert response.status_code == 403 and response.data["code"] == "directors_only"
    assert client_for(None).post(API, body, format="json").status_code == 401
    slug = create_event(client_for(director), club, format="swiss", swiss_rounds=3)["slug"]
    (player,) = players(1)
    response = stranger.post(f"{API}{slug}/entries/", {"player": player.pk}, format="json")
    assert response.status_code == 403
    assert stranger.post(f"{API}{slug}/start/").status_code == 403
    assert client_for(None).get(f"{API}{slug}/").status_code == 200
    assert client_for(None).get(f"{API}{slug}/bracket/").status_code == 200
    assert client_for(None).get(f"{API}{slug}/standings/").status_code == 200


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"format": "ladder"}, "format", "invalid_choice"),
        ({"format": "swiss"}, "swiss_rounds", "swiss_needs_an_end"),
        (
            {"format": "double_elimination", "consolation_from": [1]},
            "consolation_from",
            "consolation_from_needs_single_elimination",
        ),
        (
            {"format": "single_elimination", "last_chance_from": [1]},
            "last_chance_from",
            "last_chance_without_consolation",
        ),
        (
            {"format": "single_elimination", "match_lengths": {"default": 0}},
            "match_lengths.default",
            "match_length_invalid",
        ),
        (
            {"format": "single_elimination", "match_lengths": {"rounds": {"main": {"final": 7}}}},
            "match_lengths",
            "match_lengths_round",
        ),
    ],
)
def test_bad_configuration_names_the_field_and_the_rule(
    client_for, director, club, body, field, code
):
    response = client_for(director).post(
        API, {"club": club.slug, "name": "X", **body}, format="json"
    )
    assert response.status_code == 400, response.data
    assert response.data["field"] == field and response.data["code"] == code


def test_configuration_is_locked_once_the_event_runs(client_for, director, club, players):
    client = client_for(director)
    event = create_event(client, club, format="single_elimination")
    slug = event["slug"]
    response = client.patch(
        f"{API}{slug}/", {"consolation_from": [1]}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert response.status_code == 200 and response.data["consolation_from"] == [1]
    stale = client.patch(f"{API}{slug}/", {"name": "Renamed"}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412
    register_all(client, slug, players(4))
    client.post(f"{API}{slug}/start/")
    response = client.patch(f"{API}{slug}/", {"format": "swiss"}, format="json")
    assert response.status_code == 409 and response.data["code"] == "tournament_status"


def test_drop_map_preview_counts_possible_rematches(client_for, director, club, players):
    client = client_for(director)
    slug = create_event(client, club, format="single_elimination", consolation_from=[1, 2])["slug"]
    register_all(client, slug, players(16))
    response = client.get(f"{API}{slug}/drop-map/")
    assert response.status_code == 200
    drops = {d["match"]: d for d in response.data["drops"]}
    assert drops["main-r1-m1"]["to_stage"] == "consolation"
    assert drops["main-r3-m1"]["to_match"] is None  # semi-final losers are out
    assert response.data["possible_rematches"] >= 0


@pytest.mark.parametrize("size", [8, 32])
def test_bracket_and_standings_cost_a_fixed_number_of_queries(
    client_for, director, club, players, size, django_assert_max_num_queries
):
    client = client_for(director)
    slug = create_event(client, club, format="single_elimination", consolation_from=[1])["slug"]
    register_all(client, slug, players(size))
    client.post(f"{API}{slug}/start/")
    with django_assert_max_num_queries(8):
        assert client.get(f"{API}{slug}/bracket/").status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(f"{API}{slug}/standings/").status_code == 200
