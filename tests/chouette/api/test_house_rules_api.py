"""Every house rule of docs/rules.md ("The chouette") through the API, and Thorne's 1930 profile."""

from __future__ import annotations

import pytest

from tests.chouette.helpers import client, make_table, member, sessions_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club):
    return make_table(club, count=6, accounts=0)


@pytest.fixture
def play(director, table):
    """Open a session (Ann box, Ben captain, ...) and post games to it."""

    def open_session(rules=None, order=("Ann", "Ben", "Cat"), profile=None):
        body = {
            "club": "test-club",
            "stake": "1.00",
            "players": [table[n].pk for n in order],
            "rules": {**(rules or {}), **({"profile": profile} if profile else {})},
        }
        response = client(director).post(sessions_url(), body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    def post(session, game):
        return client(director).post(sessions_url(session["id"], "games/"), game, format="json")

    return open_session, post


def _payouts(response):
    assert response.status_code == 201, response.json()
    return {p["name"]: p["points"] for p in response.json()["game"]["payouts"]}


def _refused(response):
    assert response.status_code == 400, response.json()
    return response.json()["code"], response.json()["field"]


def test_jacoby_gammon_on_a_centred_cube_counts_single(play, table):
    open_session, post = play
    session = open_session()
    game = {
        "winner": "team",
        "level": "gammon",
        "members": [member(table["Ben"]), member(table["Cat"], 2)],
    }
    assert _payouts(post(session, game)) == {"Ann": -5, "Ben": 1, "Cat": 4}


def test_without_jacoby_a_gammon_on_a_centred_cube_counts_double(play, table):
    open_session, post = play
    session = open_session({"jacoby": False})
    game = {
        "winner": "team",
        "level": "gammon",
        "members": [member(table["Ben"]), member(table["Cat"])],
    }
    assert _payouts(post(session, game)) == {"Ann": -4, "Ben": 2, "Cat": 2}


def test_raccoon_when_agreed_and_refused_when_not(play, table):
    open_session, post = play
    game = {
        "winner": "box",
        "members": [
            member(table["Ben"], 8, "beavered", raccoon=True, owner="box"),
            member(table["Cat"]),
        ],
    }
    assert _payouts(post(open_session({"raccoons": True}), game)) == {
        "Ann": 9,
        "Ben": -8,
        "Cat": -1,
    }
    assert _refused(post(open_session(), game)) == ("raccoons_not_agreed", "members[0].raccoon")


def test_box_beavers_a_members_double(play, table):
    open_session, post = play
    game = {
        "winner": "box",
        "members": [member(table["Ben"], 4, "box_beavered", owner="box"), member(table["Cat"])],
    }
    assert _payouts(post(open_session(), game)) == {"Ann": 5, "Ben": -4, "Cat": -1}


def test_automatic_doubles_raise_the_cubes_without_turning_them(play, table):
    open_session, post = play
    session = open_session({"automatic_doubles": True, "automatic_double_limit": 1})
    game = {
        "winner": "team",
        "level": "gammon",
        "automatic_doubles": 1,
        "members": [member(table["Ben"], cube_turned=False), member(table["Cat"], 4)],
    }
    # Ben's cube stays at 2 from the opening tie: Jacoby, single x 2; Cat doubled to 4
    assert _payouts(post(session, game)) == {"Ann": -10, "Ben": 2, "Cat": 8}
    too_many = {
        **game,
        "automatic_doubles": 2,
        "members": [member(table["Cat"], 4), member(table["Ben"], 4)],
    }
    assert _refused(post(session, too_many)) == (
        "automatic_doubles_above_limit",
        "automatic_doubles",
    )
    off = open_session()
    assert _refused(post(off, game)) == ("automatic_doubles_not_agreed", "automatic_doubles")


def test_philadelphia_counts_only_doubles_made_in_play(play, table):
    open_session, post = play
    session = open_session({"philadelphia": True, "jacoby": False})
    game = {
        "winner": "box",
        "level": "gammon",
        "members": [member(table["Ben"], 4), member(table["Cat"])],
    }
    assert _payouts(post(session, game)) == {"Ann": 5, "Ben": -4, "Cat": -1}


def test_backgammon_counts_four_when_agreed(play, table):
    open_session, post = play
    game = {
        "winner": "box",
        "level": "backgammon",
        "members": [member(table["Ben"], 2), member(table["Cat"], 2)],
    }
    assert _payouts(post(open_session({"backgammon_value": 4}), game)) == {
        "Ann": 16,
        "Ben": -8,
        "Cat": -8,
    }
    assert _payouts(post(open_session(), game)) == {"Ann": 12, "Ben": -6, "Cat": -6}


def test_cube_limit(play, table):
    open_session, post = play
    session = open_session({"cube_limit": 4})
    game = {"winner": "box", "members": [member(table["Ben"], 8), member(table["Cat"])]}
    assert _refused(post(session, game)) == ("cube_above_limit", "members[0].cube")


def test_partner_at_the_bottom_shares_the_box_result(play, table):
    open_session, post = play
    session = open_session({"partner_threshold": 4}, order=("Ann", "Ben", "Cat", "Dan"))
    assert session["partner"]["name"] == "Dan"
    ben, cat, dan = table["Ben"], table["Cat"], table["Dan"]
    with_partner = {"winner": "box", "members": [member(ben, 2), member(cat)], "partner": dan.pk}
    response = post(session, with_partner)
    # box side wins 3: split evenly, the odd point to the box
    assert _payouts(response) == {"Ann": 2, "Dan": 1, "Ben": -2, "Cat": -1}
    assert response.json()["game"]["partner"] == dan.pk
    # the partner keeps a place in line; the beaten captain now sits at the bottom
    nxt = response.json()["next"]
    assert [p["name"] for p in nxt["team"]] == ["Cat", "Dan", "Ben"]
    assert nxt["partner"]["name"] == "Ben"
    again = {"winner": "box", "members": [member(cat), member(dan), member(ben)]}
    assert _refused(post(session, again)) == ("partner_as_member", "members[2].player")


def test_partner_named_each_game_when_the_house_says(play, table):
    open_session, post = play
    session = open_session(
        {"partner_threshold": 4, "partner_choice": "given"}, order=("Ann", "Ben", "Cat", "Dan")
    )
    assert session["next"]["partner_to_name"] is True
    members = [member(table["Ben"]), member(table["Dan"])]
    assert _refused(post(session, {"winner": "box", "members": members})) == (
        "partner_missing",
        "partner",
    )
    named = post(session, {"winner": "team", "members": members, "partner": table["Cat"].pk})
    assert _payouts(named) == {"Ann": -1, "Cat": -1, "Ben": 1, "Dan": 1}


def test_no_partner_below_the_threshold(play, table):
    open_session, post = play
    session = open_session({"partner_threshold": 5}, order=("Ann", "Ben", "Cat", "Dan"))
    assert session["partner"] is None
    game = {
        "winner": "box",
        "members": [member(table["Ben"]), member(table["Cat"])],
        "partner": table["Dan"].pk,
    }
    assert _refused(post(session, game)) == ("partner_not_allowed", "partner")


def test_captain_takes_over_a_dropped_position_at_the_doubled_stake(play, table):
    open_session, post = play
    ben, cat = table["Ben"], table["Cat"]
    game = {"winner": "team", "members": [member(ben), member(cat, 1, "dropped", taken_over=True)]}
    assert _payouts(post(open_session({"captain_takeover": True}), game)) == {
        "Ann": -2,
        "Ben": 3,
        "Cat": -1,
    }
    assert _refused(post(open_session(), game)) == (
        "captain_takeover_not_allowed",
        "members[1].taken_over",
    )


@pytest.mark.parametrize(
    ("retention", "next_order"),
    [("beat_captain", ["Ann", "Cat", "Ben"]), ("net_win", ["Cat", "Ben", "Ann"])],
)
def test_box_retention_rule(play, table, retention, next_order):
    open_session, post = play
    session = open_session({"box_retention": retention})
    # the box beats the captain on the board but refused Cat's double at 2: net -1
    game = {
        "winner": "box",
        "members": [member(table["Ben"]), member(table["Cat"], 2, "box_dropped")],
    }
    response = post(session, game)
    assert _payouts(response) == {"Ann": -1, "Ben": -1, "Cat": 2}
    nxt = response.json()["next"]
    assert [nxt["box"]["name"], *[p["name"] for p in nxt["team"]]] == next_order


def test_starting_cube_plays_for_double_stakes_when_agreed(play, table):
    open_session, post = play
    game = {
        "winner": "box",
        "members": [member(table["Ben"], stake=2), member(table["Cat"], stake=4)],
    }
    assert _payouts(post(open_session({"allow_starting_cube": True}), game)) == {
        "Ann": 6,
        "Ben": -2,
        "Cat": -4,
    }
    assert _refused(post(open_session(), game)) == ("starting_cube_not_allowed", "members[0].stake")


def test_consultation_is_recorded_not_enforced(play):
    open_session, _ = play
    session = open_session({"consultation": "none"})
    assert session["rules"]["consultation"] == "none"


def test_thorne_1930_profile_one_cube_no_jacoby(play, table):
    open_session, post = play
    session = open_session(profile="thorne_1930", order=("Ann", "Ben", "Cat", "Dan"))
    rules = session["rules"]
    assert (rules["cubes"], rules["jacoby"], rules["beavers"], rules["captain_takeover"]) == (
        "single",
        False,
        False,
        True,
    )
    assert rules["consultation"] == "free"
    ben, cat, dan = table["Ben"], table["Cat"], table["Dan"]
    differ = {"winner": "box", "members": [member(ben, 2), member(cat, 4), member(dan, 2)]}
    assert _refused(post(session, differ))[0] == "single_cube_differs"
    # Dan refuses the box's double at 2 and pays 2; Ben takes over his position at 4;
    # the box wins a gammon on the one cube at 4: no Jacoby in 1930
    game = {
        "winner": "box",
        "level": "gammon",
        "members": [member(ben, 4), member(cat, 4), member(dan, 2, "dropped", taken_over=True)],
    }
    assert _payouts(post(session, game)) == {"Ann": 26, "Ben": -16, "Cat": -8, "Dan": -2}


def test_thorne_1930_philadelphia_method(play, table):
    open_session, post = play
    session = open_session({"philadelphia": True}, profile="thorne_1930")
    game = {
        "winner": "box",
        "level": "backgammon",
        "members": [member(table["Ben"], 8), member(table["Cat"], 8)],
    }
    assert _payouts(post(session, game)) == {"Ann": 16, "Ben": -8, "Cat": -8}
