"""The chouette answers against the schema that types them (issue #30): an evening from
the opening rolls to the settlement, a correction and an undo, each real answer
validated against its declared schema closed to undeclared keys
(``tests.openapi_answers``), so ``chouette.api.shapes`` and the functions that render
the sheet cannot drift apart."""

from __future__ import annotations

import pytest

from tests.chouette.helpers import client, make_table, member, sessions_url
from tests.openapi_answers import check_answer, closed_live_schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema():
    return closed_live_schema()


def test_an_evening_answers_as_declared(schema, director, club):
    table = make_table(club, count=5, accounts=2)
    ann, ben, cat, dan, eve = (table[n] for n in ("Ann", "Ben", "Cat", "Dan", "Eve"))
    api, anyone = client(director), client(None)
    rolls = {str(ann.pk): 6, str(ben.pk): 4, str(cat.pk): [3, 5], str(dan.pk): [3, 2]}
    created = api.post(
        sessions_url(),
        {"club": club.slug, "stake": "0.50", "rolls": rolls},
        format="json",
    )
    session = check_answer(schema, created)
    sid = session["id"]
    assert session["opening_rolls"] == rolls and session["last_game"] is None
    assert session["rules"]["profile"] == "modern"

    game = check_answer(
        schema,
        api.post(
            sessions_url(sid, "games/"),
            {"winner": "box", "members": [member(ben), member(cat), member(dan)]},
            format="json",
        ),
    )
    assert game["game"]["number"] == 1 and game["next"]["number"] == 2
    api.post(
        sessions_url(sid, "games/"),
        {"winner": "box", "members": [member(cat), member(dan), member(ben)]},
        format="json",
    )
    joined = check_answer(
        schema, api.post(sessions_url(sid, "join/"), {"player": eve.pk}, format="json")
    )
    assert joined["seats"][-1]["name"] == "Eve" and joined["last_game"]["number"] == 2

    fixed = check_answer(
        schema,
        api.patch(sessions_url(sid, "games/2/"), {"level": "gammon"}, format="json"),
    )
    assert fixed["game"]["level"] == "gammon"
    undone = check_answer(schema, api.delete(sessions_url(sid, "games/2/")))
    assert undone["game"] is None and undone["next"]["number"] == 2

    for tail in ("", "games/", "games/1/", "ledger/", "settlement/"):
        check_answer(schema, anyone.get(sessions_url(sid, tail)))
    left = check_answer(
        schema, api.post(sessions_url(sid, "leave/"), {"player": dan.pk}, format="json")
    )
    assert next(s for s in left["seats"] if s["name"] == "Dan")["left_at"] is not None
    closed_session = check_answer(schema, api.post(sessions_url(sid, "close/")))
    assert closed_session["status"] == "closed"
    settlement = check_answer(schema, anyone.get(sessions_url(sid, "settlement/")))
    assert settlement["transfers"]
    rows = check_answer(schema, anyone.get(sessions_url(), {"club": club.slug}))
    assert [row["id"] for row in rows] == [sid]
