"""The chouette API: a whole evening, validation, permissions, versions, corrections."""

from __future__ import annotations

from decimal import Decimal

import pytest

from chouette.models import ChouetteGame, MemberResult, Session
from tests.chouette.helpers import client, make_table, member, sessions_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club):
    return make_table(club, count=5, accounts=2)


def _open(director, table, order=("Ann", "Ben", "Cat"), **body):
    payload = {
        "club": "test-club",
        "stake": "1.00",
        "players": [table[name].pk for name in order],
        **body,
    }
    response = client(director).post(sessions_url(), payload, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _post_game(user, session_id, body, **headers):
    return client(user).post(sessions_url(session_id, "games/"), body, format="json", **headers)


def _names(entries):
    return {entry["name"]: entry["points"] for entry in entries}


def test_a_whole_evening_from_opening_rolls_to_settlement(director, table):
    ann, ben, cat, dan, eve = (table[n] for n in ("Ann", "Ben", "Cat", "Dan", "Eve"))
    api = client(director)
    # Given the opening rolls: Ann 6 is box, Ben 4 captains; Cat and Dan tied on 3
    # and re-rolled (5 beats 2), so Cat is above Dan.
    created = api.post(
        sessions_url(),
        {
            "club": "test-club",
            "stake": "0.50",
            "currency": "USD",
            "rolls": {str(ann.pk): 6, str(ben.pk): 4, str(cat.pk): [3, 5], str(dan.pk): [3, 2]},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    session = created.json()
    sid = session["id"]
    assert session["box"]["name"] == "Ann"
    assert session["captain"]["name"] == "Ben"
    assert session["team"] == [ben.pk, cat.pk, dan.pk]
    assert created["ETag"] == '"1"'

    # Game 1: the box wins single against three centred cubes; Ben goes to the bottom.
    g1 = _post_game(
        director, sid, {"winner": "box", "members": [member(ben), member(cat), member(dan)]}
    )
    assert g1.status_code == 201, g1.json()
    body = g1.json()
    assert _names(body["game"]["payouts"]) == {"Ann": 3, "Ben": -1, "Cat": -1, "Dan": -1}
    assert [p["name"] for p in body["next"]["team"]] == ["Cat", "Dan", "Ben"]
    assert body["next"]["box"]["name"] == "Ann"

    # Game 2: Cat (captain) wins a gammon on a cube of 2; Dan's centred cube is single
    # (Jacoby); Ben refused the box's double and pays the cube before it.
    g2 = _post_game(
        director,
        sid,
        {
            "winner": "team",
            "level": "gammon",
            "members": [
                member(cat, 2, cube_turned=True),
                member(dan),
                member(ben, 1, "dropped"),
            ],
        },
    )
    assert g2.status_code == 201, g2.json()
    assert _names(g2.json()["game"]["payouts"]) == {"Ann": -4, "Cat": 4, "Dan": 1, "Ben": -1}
    assert g2.json()["next"]["box"]["name"] == "Cat"

    # Eve arrives: she sits at the bottom of the team.
    joined = api.post(sessions_url(sid, "join/"), {"player": eve.pk}, format="json")
    assert joined.status_code == 200, joined.json()
    assert joined.json()["team"] == [dan.pk, ben.pk, ann.pk, eve.pk]

    # Game 3: box Cat wins a backgammon against four cubes at 2.
    g3 = _post_game(
        director,
        sid,
        {
            "winner": "box",
            "level": "backgammon",
            "members": [member(p, 2, owner="team") for p in (dan, ben, ann, eve)],
        },
    )
    assert _names(g3.json()["game"]["payouts"]) == {
        "Cat": 24,
        "Dan": -6,
        "Ben": -6,
        "Ann": -6,
        "Eve": -6,
    }

    # Ben goes home; he keeps his total.
    left = api.post(sessions_url(sid, "leave/"), {"player": ben.pk}, format="json")
    assert left.json()["team"] == [ann.pk, eve.pk, dan.pk]

    # Game 4: Ann beavers the box's double (cube 4) and wins; the box refused Dan's double.
    g4 = _post_game(
        director,
        sid,
        {
            "winner": "team",
            "members": [member(ann, 4, "beavered"), member(eve), member(dan, 1, "box_dropped")],
        },
    )
    assert g4.status_code == 201, g4.json()
    assert _names(g4.json()["game"]["payouts"]) == {"Cat": -6, "Ann": 4, "Eve": 1, "Dan": 1}
    assert g4.json()["next"]["box"]["name"] == "Ann"

    ledger = api.get(sessions_url(sid, "ledger/")).json()
    assert [sum(e["points"] for e in g["payouts"]) for g in ledger["games"]] == [0, 0, 0, 0]
    totals = {t["name"]: (t["points"], t["money"]) for t in ledger["totals"]}
    assert totals == {
        "Ann": (-3, "-1.50"),
        "Ben": (-8, "-4.00"),
        "Cat": (21, "10.50"),
        "Dan": (-5, "-2.50"),
        "Eve": (-5, "-2.50"),
    }

    closed = api.post(sessions_url(sid, "close/"))
    assert closed.json()["status"] == "closed"
    settlement = client(None).get(sessions_url(sid, "settlement/")).json()
    transfers = {(t["payer_name"], t["payee_name"]): t["amount"] for t in settlement["transfers"]}
    assert transfers == {
        ("Ben", "Cat"): "4.00",
        ("Dan", "Cat"): "2.50",
        ("Eve", "Cat"): "2.50",
        ("Ann", "Cat"): "1.50",
    }
    balance = dict.fromkeys(totals, Decimal(0))
    for t in settlement["transfers"]:
        balance[t["payer_name"]] += Decimal(t["amount"])
        balance[t["payee_name"]] -= Decimal(t["amount"])
    assert {name: -value for name, value in balance.items()} == {
        name: Decimal(money) for name, (_, money) in totals.items()
    }
    # a closed session takes no more games
    late = _post_game(director, sid, {"winner": "box", "members": [member(eve), member(dan)]})
    assert (late.status_code, late.json()["code"]) == (409, "session_closed")


def test_session_read_is_public_and_shows_the_lineup(director, table):
    session = _open(director, table)
    response = client(None).get(sessions_url(session["id"]))
    assert response.status_code == 200
    data = response.json()
    assert (data["box"]["name"], data["captain"]["name"]) == ("Ann", "Ben")
    assert data["rules"]["jacoby"] is True and data["rules"]["cubes"] == "multiple"
    assert response["ETag"] == '"1"'
    listed = client(None).get(sessions_url(), {"club": "test-club", "status": "open"}).json()
    assert [s["id"] for s in listed] == [session["id"]]


# --- validation: each refusal names its rule ---------------------------------------------


@pytest.mark.parametrize(
    ("members", "extra", "code", "field"),
    [
        (lambda t: [member(t["Ben"]), member(t["Ben"])], {}, "member_twice", "members[1].player"),
        (
            lambda t: [member(t["Ben"], 3), member(t["Cat"])],
            {},
            "cube_not_power_of_two",
            "members[0].cube",
        ),
        (
            lambda t: [member(t["Ben"], 1, "dropped"), member(t["Cat"], 1, "dropped")],
            {"winner": "team"},
            "drop_by_winning_side",
            "winner",
        ),
        (
            lambda t: [member(t["Ben"]), member(t["Dan"])],
            {},
            "not_on_team",
            "members[1].player",
        ),
        (
            lambda t: [member(t["Ben"]), {"player": 999999}],
            {},
            "unknown_player",
            "members[1].player",
        ),
        (lambda t: [member(t["Ben"])], {}, "member_missing", "members"),
        (
            lambda t: [member(t["Ben"], 1, cube_turned=True), member(t["Cat"])],
            {},
            "cube_turned_mismatch",
            "members[0].cube_turned",
        ),
    ],
)
def test_bad_games_are_refused_naming_the_rule(director, table, members, extra, code, field):
    session = _open(director, table)
    body = {"winner": "box", "members": members(table), **extra}
    response = _post_game(director, session["id"], body)
    assert response.status_code == 400, response.json()
    assert (response.json()["code"], response.json()["field"]) == (code, field)
    assert not ChouetteGame.objects.exists()
    assert Session.objects.get(pk=session["id"]).version == 1


def test_beaver_refused_when_beavers_are_off(director, table):
    session = _open(director, table, rules={"beavers": False})
    response = _post_game(
        director,
        session["id"],
        {"winner": "box", "members": [member(table["Ben"], 4, "beavered"), member(table["Cat"])]},
    )
    assert (response.status_code, response.json()["code"]) == (400, "beavers_not_agreed")
    assert response.json()["field"] == "members[0].beaver"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"players": "twice"}, "player_seated_twice", "players[1]"),
        ({"stake": "0.001"}, "stake_below_cent", "stake"),
        ({"stake": "-1"}, "invalid_stake", "stake"),
        ({"stake": "١"}, "invalid_stake", "stake"),  # Arabic-Indic one (issue #25)
        ({"rules": {"partner_threshold": 3}}, "partner_threshold", "rules.partner_threshold"),
        ({"rules": {"backgammon_value": 5}}, "backgammon_value", "rules.backgammon_value"),
        ({"rules": {"dice": 3}}, "invalid", "rules.dice"),
        ({"players": "two"}, "too_few_players", "players"),
        ({"rolls": "tie"}, "unresolved_tie", "rolls"),
    ],
)
def test_bad_sessions_are_refused_naming_the_rule(director, table, body, code, field):
    ids = [table[n].pk for n in ("Ann", "Ben", "Cat")]
    payload = {"club": "test-club", "stake": "1.00", "players": ids}
    if body.get("players") == "twice":
        body = {"players": [ids[0], ids[0], ids[1]]}
    elif body.get("players") == "two":
        body = {"players": ids[:2]}
    elif body.get("rolls") == "tie":
        payload.pop("players")
        body = {"rolls": {str(ids[0]): 6, str(ids[1]): 6, str(ids[2]): 1}}
    payload.update(body)
    response = client(director).post(sessions_url(), payload, format="json")
    assert response.status_code == 400, response.json()
    assert (response.json()["code"], response.json()["field"]) == (code, field)
    assert not Session.objects.exists()


def test_a_player_from_another_club_cannot_sit(director, table, make_user):
    from games.services import clubs as club_services

    other = club_services.create_club(created_by=make_user("elsewhere"), name="Other", slug="other")
    stranger = club_services.create_player(display_name="Stranger", clubs=[other])
    ids = [table["Ann"].pk, table["Ben"].pk, stranger.pk]
    response = client(director).post(
        sessions_url(), {"club": "test-club", "stake": "1", "players": ids}, format="json"
    )
    assert (response.json()["code"], response.json()["field"]) == (
        "player_not_in_club",
        "players[2]",
    )


# --- permissions ------------------------------------------------------------------------------


def test_writes_need_a_login_and_a_seat_or_the_directors_chair(director, table, make_user):
    session = _open(director, table, order=("Cat", "Dan", "Eve"))
    body = {"winner": "box", "members": [member(table["Dan"]), member(table["Eve"])]}
    assert _post_game(None, session["id"], body).status_code == 401
    ann = table["Ann"].user  # a club member with an account, not at this table
    refused = _post_game(ann, session["id"], body)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_at_the_table")
    outsider = make_user("outsider")
    assert _post_game(outsider, session["id"], body).status_code == 403
    assert client(outsider).post(sessions_url(session["id"], "close/")).status_code == 403
    assert _post_game(director, session["id"], body).status_code == 201


def test_a_seated_player_records_and_a_member_opens_their_own_table(director, table):
    ann, ben = table["Ann"], table["Ben"]
    ids = [ann.pk, ben.pk, table["Cat"].pk]
    mine = client(ann.user).post(
        sessions_url(), {"club": "test-club", "stake": "2", "players": ids}, format="json"
    )
    assert mine.status_code == 201
    not_mine = client(ann.user).post(
        sessions_url(),
        {"club": "test-club", "stake": "2", "players": [ben.pk, table["Cat"].pk, table["Dan"].pk]},
        format="json",
    )
    assert (not_mine.status_code, not_mine.json()["code"]) == (403, "directors_or_players_only")
    recorded = _post_game(
        ben.user,
        mine.json()["id"],
        {"winner": "team", "members": [member(ben), member(table["Cat"])]},
    )
    assert recorded.status_code == 201


def test_a_player_who_left_no_longer_records(director, table):
    ben = table["Ben"]
    session = _open(director, table, order=("Ann", "Ben", "Cat", "Dan"))
    client(director).post(sessions_url(session["id"], "leave/"), {"player": ben.pk}, format="json")
    body = {"winner": "box", "members": [member(table["Cat"]), member(table["Dan"])]}
    assert _post_game(ben.user, session["id"], body).status_code == 403


# --- versions, idempotency, races by number -----------------------------------------------------


def _plain_game(table):
    return {"winner": "box", "members": [member(table["Ben"]), member(table["Cat"])]}


def test_if_match_with_a_stale_version_is_412(director, table):
    session = _open(director, table)
    sid = session["id"]
    first = _post_game(director, sid, _plain_game(table), HTTP_IF_MATCH='"1"')
    assert first.status_code == 201 and first["ETag"] == '"2"'
    body = {"winner": "box", "members": [member(table["Cat"]), member(table["Ben"])]}
    stale = _post_game(director, sid, body, HTTP_IF_MATCH='"1"')
    assert (stale.status_code, stale.json()["code"]) == (412, "stale_version")
    assert ChouetteGame.objects.count() == 1


def test_a_retried_post_with_the_same_key_records_once(director, table):
    session = _open(director, table)
    first = _post_game(director, session["id"], _plain_game(table), HTTP_IDEMPOTENCY_KEY="k-1")
    again = _post_game(director, session["id"], _plain_game(table), HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert ChouetteGame.objects.count() == 1


def test_a_game_number_already_recorded_is_409(director, table):
    session = _open(director, table)
    assert (
        _post_game(director, session["id"], {**_plain_game(table), "number": 1}).status_code == 201
    )
    body = {"winner": "box", "members": [member(table["Cat"]), member(table["Ben"])], "number": 1}
    late = _post_game(director, session["id"], body)
    assert (late.status_code, late.json()["code"]) == (409, "game_already_recorded")


# --- corrections and undo ---------------------------------------------------------------------


def test_a_correction_re_derives_the_ledger_and_the_rotation(director, table):
    ann, ben, cat = table["Ann"], table["Ben"], table["Cat"]
    session = _open(director, table)
    sid = session["id"]
    _post_game(director, sid, _plain_game(table))  # box Ann wins: team becomes Cat, Ben
    _post_game(director, sid, {"winner": "box", "members": [member(cat), member(ben)]})
    assert client(None).get(sessions_url(sid)).json()["box"]["name"] == "Ann"
    # game 2 corrected: Cat won a gammon on a cube of 2, so Cat becomes box
    url = sessions_url(sid, "games/2/")
    fixed = client(director).patch(
        url,
        {"winner": "team", "level": "gammon", "members": [member(cat, 2), member(ben, 2)]},
        format="json",
        HTTP_IF_MATCH='"3"',
    )
    assert fixed.status_code == 200, fixed.json()
    assert _names(fixed.json()["game"]["payouts"]) == {"Ann": -8, "Cat": 4, "Ben": 4}
    assert fixed.json()["next"]["box"]["name"] == "Cat"
    totals = _names(fixed.json()["ledger"]["totals"])
    assert totals == {"Ann": 2 - 8, "Ben": -1 + 4, "Cat": -1 + 4}
    assert sum(totals.values()) == 0
    assert Session.objects.get(pk=sid).lineup == [cat.pk, ben.pk, ann.pk]
    # the audit keeps the game as it was before the correction
    history = ChouetteGame.history.filter(number=2).order_by("history_date")
    assert history.first().box_points == 2 and history.last().box_points == -8


def test_a_correction_that_breaks_a_later_game_is_refused_whole(director, table):
    ben, cat = table["Ben"], table["Cat"]
    session = _open(director, table)
    sid = session["id"]
    _post_game(director, sid, _plain_game(table))
    _post_game(director, sid, {"winner": "box", "members": [member(cat), member(ben)]})
    # if the team had won game 1, Ben would be box in game 2: game 2's members lie
    response = client(director).patch(
        sessions_url(sid, "games/1/"), {"winner": "team"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "box_as_member"
    assert response.json()["field"].startswith("events[1].")
    assert ChouetteGame.objects.get(session_id=sid, number=1).winner == "box"
    assert Session.objects.get(pk=sid).version == 3


def test_undo_takes_back_only_the_last_game(director, table):
    ann, ben, cat = table["Ann"], table["Ben"], table["Cat"]
    session = _open(director, table)
    sid = session["id"]
    _post_game(director, sid, _plain_game(table))
    _post_game(director, sid, {"winner": "team", "members": [member(cat), member(ben)]})
    refused = client(director).delete(sessions_url(sid, "games/1/"))
    assert (refused.status_code, refused.json()["code"]) == (409, "only_last_game_undone")
    undone = client(director).delete(sessions_url(sid, "games/2/"))
    assert undone.status_code == 200
    assert [g["number"] for g in undone.json()["ledger"]["games"]] == [1]
    assert undone.json()["next"]["box"]["name"] == "Ann"
    assert Session.objects.get(pk=sid).lineup == [ann.pk, cat.pk, ben.pk]
    assert MemberResult.objects.filter(game__session_id=sid).count() == 2


# --- the audit trail --------------------------------------------------------------------------


def _audit(user, session_id):
    return client(user).get(sessions_url(session_id, "audit/"))


def test_the_audit_says_who_changed_what_before_and_after(director, table):
    ann, ben, cat = table["Ann"], table["Ben"], table["Cat"]
    sid = _open(director, table)["id"]
    _post_game(ben.user, sid, _plain_game(table))  # Ben (seated) records game 1
    fixed = client(director).patch(
        sessions_url(sid, "games/1/"),
        {"winner": "team", "members": [member(ben, 2), member(cat)]},
        format="json",
    )
    assert fixed.status_code == 200, fixed.json()
    client(director).post(sessions_url(sid, "leave/"), {"player": cat.pk}, format="json")

    response = _audit(director, sid)
    assert response.status_code == 200
    entries = response.json()
    assert entries == sorted(entries, key=lambda e: e["at"])
    opened = entries[0]
    assert (opened["who"], opened["what"], opened["subject"]) == ("director", "created", "session")
    assert opened["changes"]["opening_order"]["after"] == ["Ann", "Ben", "Cat"]
    seats = [
        e["subject"] for e in entries if e["subject"].startswith("seat") and e["what"] == "created"
    ]
    assert seats == ["seat: Ann", "seat: Ben", "seat: Cat"]
    recorded = next(e for e in entries if e["subject"] == "game 1" and e["what"] == "created")
    assert recorded["who"] == "ben"
    assert recorded["changes"]["box"] == {"before": None, "after": "Ann"}
    assert recorded["changes"]["box_points"] == {"before": None, "after": 2}
    corrected = [e for e in entries if e["subject"] == "game 1" and e["what"] == "changed"]
    assert corrected and all(e["who"] == "director" for e in corrected)
    changes = {k: v for e in corrected for k, v in e["changes"].items()}
    assert changes["winner"] == {"before": "box", "after": "team"}
    assert changes["box_points"] == {"before": 2, "after": -3}
    # the member rows were replaced: the old ones deleted, the new ones created
    bens = [e for e in entries if e["subject"] == "game 1: Ben"]
    assert [e["what"] for e in bens] == ["created", "deleted", "created"]
    assert bens[0]["changes"]["cube"]["after"] == 1 and bens[2]["changes"]["cube"]["after"] == 2
    left = next(e for e in entries if e["subject"] == "seat: Cat" and e["what"] == "changed")
    assert left["changes"]["left_at"]["before"] is None and left["changes"]["left_at"]["after"]
    assert not any(e["what"] == "changed" and not e["changes"] for e in entries)
    assert ann  # Ann's account is not involved: she was box all along


def test_an_undone_game_stays_in_the_audit(director, table):
    sid = _open(director, table)["id"]
    _post_game(director, sid, _plain_game(table))
    assert client(director).delete(sessions_url(sid, "games/1/")).status_code == 200
    entries = _audit(director, sid).json()
    assert [e["what"] for e in entries if e["subject"] == "game 1"] == ["created", "deleted"]
    deleted = next(e for e in entries if e["subject"] == "game 1" and e["what"] == "deleted")
    assert deleted["changes"]["box"] == {"before": "Ann", "after": None}


def test_the_audit_is_for_the_table_and_the_directors(director, table, make_user):
    sid = _open(director, table, order=("Ann", "Ben", "Cat", "Dan"))["id"]
    ben = table["Ben"]
    assert _audit(None, sid).status_code == 401
    outsider = _audit(make_user("outsider"), sid)
    assert (outsider.status_code, outsider.json()["code"]) == (403, "audit_for_the_table")
    assert _audit(ben.user, sid).status_code == 200
    client(director).post(sessions_url(sid, "leave/"), {"player": ben.pk}, format="json")
    assert _audit(ben.user, sid).status_code == 200  # who sat keeps reading it
    not_seated = _open(director, table, order=("Cat", "Dan", "Eve"))["id"]
    assert _audit(ben.user, not_seated).status_code == 403
    assert client(None).get(sessions_url(999999, "audit/")).status_code == 404


def test_the_audit_costs_the_same_queries_whatever_its_length(
    director, table, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sid = _open(director, table)["id"]
    _post_game(director, sid, _plain_game(table))
    with CaptureQueriesContext(connection) as few:
        assert _audit(director, sid).status_code == 200
    few_queries = len(few.captured_queries)  # read now: each request resets the log
    for _ in range(8):
        lineup = Session.objects.get(pk=sid).lineup
        body = {"winner": "box", "members": [{"player": pk} for pk in lineup[1:]]}
        assert _post_game(director, sid, body).status_code == 201
    with django_assert_max_num_queries(few_queries):
        assert len(_audit(director, sid).json()) > 30
