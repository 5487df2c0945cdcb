"""``winning_chances`` in the match API (docs/chances.md): the FIBS probability before
the first game, the club's table at the score (shifted by the rating gap), 1/0 once
decided; the club's choice of table; the list costs the same for many matches."""

from __future__ import annotations

import json

import pytest

from games.met_tables import load_table
from games.rules.fibs import win_probabilities
from games.rules.match_chances import match_winning_chance
from tests.factories import RatingFactory, RatingListFactory

pytestmark = pytest.mark.django_db


def post_game(client, match, winner, **body):
    return client.post(
        f"/api/v1/matches/{match.pk}/games/", {"winner": winner.pk, **body}, format="json"
    )


def rate(club, ratings):
    """Ratings on the club's list (as rated matches would have left them)."""
    rating_list = RatingListFactory.create(club=club)
    for player, value in ratings.items():
        RatingFactory.create(rating_list=rating_list, player=player, rating=value)


def chances(client, match):
    return client.get(f"/api/v1/matches/{match.pk}/").json()["winning_chances"]


def test_before_the_first_game_it_is_the_fibs_probability(client_for, club, make_match, alice, bob):
    match = make_match(7)
    assert chances(client_for(None), match) == [0.5, 0.5]  # both at the club's start
    rate(club, {alice: 1700.0, bob: 1550.0})
    p1, p2 = chances(client_for(None), match)
    fibs = win_probabilities(1700.0, 1550.0, 7)[0]
    assert p1 == pytest.approx(fibs, abs=1e-6) and p1 > 0.5
    assert p1 + p2 == pytest.approx(1.0, abs=1e-9)


def test_equal_players_read_the_kazaross_table_game_after_game(
    client_for, director, make_match, alice, bob
):
    client = client_for(director)
    match = make_match(5)
    table = load_table("Kazaross-XG2")
    body = post_game(client, match, alice, cube=2, cube_owner="player2").json()  # 2-0
    assert body["winning_chances"][0] == pytest.approx(table.win_chance(3, 5), abs=1e-6)
    body = post_game(client, match, alice, cube=2, cube_owner="player2").json()  # 4-0: Crawford
    assert body["next_game_is_crawford"] is True
    assert body["winning_chances"][0] == pytest.approx(table.win_chance(1, 5), abs=1e-6)
    body = post_game(client, match, bob).json()  # 4-1 after the Crawford game
    assert body["post_crawford"] is True
    assert body["winning_chances"][0] == pytest.approx(
        table.win_chance(1, 4, post_crawford=True), abs=1e-6
    )
    # The list says the same as the detail, without reading the games.
    listed = client_for(None).get("/api/v1/matches/").json()["results"]
    assert listed[0]["winning_chances"] == body["winning_chances"]
    final = post_game(client, match, alice).json()
    assert final["status"] == "finished" and final["winning_chances"] == [1.0, 0.0]


def test_the_stronger_player_is_likelier_at_the_same_score(
    client_for, director, club, make_match, alice, bob
):
    rate(club, {alice: 1500.0, bob: 1800.0})
    match = make_match(7)
    body = post_game(client_for(director), match, alice, cube=2, cube_owner="player2").json()
    expected = match_winning_chance(
        load_table("Kazaross-XG2"),
        length=7,
        score_a=2,
        score_b=0,
        crawford_game=False,
        post_crawford=False,
        rating_a=1500.0,
        rating_b=1800.0,
    )
    assert body["winning_chances"][0] == pytest.approx(expected, abs=1e-6)
    assert body["winning_chances"][0] < load_table("Kazaross-XG2").win_chance(5, 7)


def test_a_club_may_choose_another_table(client_for, director, club, make_match, alice, bob):
    match = make_match(5)
    post_game(client_for(director), match, alice)  # 1-0
    kazaross = chances(client_for(None), match)[0]
    changed = client_for(director).patch(
        f"/api/v1/clubs/{club.slug}/", {"match_equity_table": "woolsey"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["match_equity_table"] == "woolsey"
    woolsey = chances(client_for(None), match)[0]
    assert woolsey == pytest.approx(load_table("woolsey").win_chance(4, 5), abs=1e-6)
    assert woolsey != kazaross
    refused = client_for(director).patch(
        f"/api/v1/clubs/{club.slug}/", {"match_equity_table": "jac050"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["field"] == "match_equity_table"


def test_a_new_club_starts_with_kazaross_xg2(client_for, director):
    created = client_for(director).post("/api/v1/clubs/", {"name": "Fresh"}, format="json")
    assert created.status_code == 201
    assert created.json()["match_equity_table"] == "Kazaross-XG2"


def test_void_and_unlimited_matches_have_no_chances(client_for, director, make_match):
    session = make_match(0)
    assert chances(client_for(None), session) is None
    voided = make_match(3)
    client_for(director).post(f"/api/v1/matches/{voided.pk}/void/", {}, format="json")
    assert chances(client_for(None), voided) is None


def test_a_match_longer_than_the_table_has_chances_only_before_it_starts(
    client_for, director, make_match, alice
):
    match = make_match(31)
    assert chances(client_for(None), match) == [0.5, 0.5]
    post_game(client_for(director), match, alice)
    assert chances(client_for(None), match) is None


def test_the_list_costs_the_same_for_twelve_matches_as_for_two(
    client_for, director, club, make_match, alice, bob, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    rate(club, {alice: 1600.0})

    def grow(count):
        for i in range(count):
            match = make_match(3 + i % 3)
            for _ in range(i % 4):
                post_game(client_for(director), match, alice if i % 2 else bob)

    at_match_point = make_match(3)  # 2-0: the Crawford question is asked from the start
    post_game(client_for(director), at_match_point, alice)
    post_game(client_for(director), at_match_point, alice)
    make_match(5)
    with CaptureQueriesContext(connection) as few:
        client_for(None).get("/api/v1/matches/")
    few_queries = len(few.captured_queries)  # read now: each request resets the log
    grow(10)
    with django_assert_max_num_queries(few_queries):
        listed = client_for(None).get("/api/v1/matches/").json()["results"]
    assert len(listed) == 12
    assert sum(m["winning_chances"] not in ([1.0, 0.0], [0.0, 1.0]) for m in listed) > 6
    assert all(
        m["winning_chances"] is None or sum(m["winning_chances"]) == pytest.approx(1)
        for m in listed
    )


def test_the_schema_documents_winning_chances(client_for):
    response = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    for name in ("MatchDetail", "MatchSummary"):
        field = schema["components"]["schemas"][name]["properties"]["winning_chances"]
        assert field["type"] == "array" and field["nullable"] is True
        assert field["items"]["minimum"] == 0 and field["items"]["maximum"] == 1
        assert "Kazaross-XG2" in field["description"]
    club = schema["components"]["schemas"]["Club"]["properties"]
    assert "match_equity_table" in club


def test_the_club_service_refuses_a_table_no_club_may_choose(club):
    from games.rules.errors import RuleViolation
    from games.services import clubs as club_services

    for key in ("ortega", "jac100", "mec", "nope"):
        with pytest.raises(RuleViolation) as caught:
            club_services.update_club(club=club, match_equity_table=key)
        assert (caught.value.code, caught.value.field) == (
            "match_equity_table_unknown",
            "match_equity_table",
        )
    club.refresh_from_db()
    assert club.match_equity_table == "Kazaross-XG2"
