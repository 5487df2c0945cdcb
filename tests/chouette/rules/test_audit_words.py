"""The chouette's audit describer: one sentence per kind of session change, names not ids."""

from __future__ import annotations

import pytest

from chouette.rules.audit_words import ChouetteChange, describe

ANN, BOB = 1, 2
NAMES = {ANN: "Ann", BOB: "Bob", 3: "Cat", 4: "Dan"}


def chouette(kind, before=None, after=None, action="changed", **kw):
    return ChouetteChange(
        kind=kind,
        action=action,
        who=kw.pop("who", "director"),
        before=before or {},
        after=after or {},
        names=NAMES,
        labels={"box_points": "box points"},
        **kw,
    )


SESSION = {"opening_order": [1, 2, 3, 4], "stake": "1.00", "currency": "EUR", "status": "open"}
CGAME = {
    "winner": "box",
    "level": "gammon",
    "box": ANN,
    "partner": None,
    "captain": BOB,
    "box_points": 4,
    "ending": "played",
}


@pytest.mark.parametrize(
    ("record", "sentence"),
    [
        (
            chouette("session", after=SESSION, action="created"),
            "director opened the session: Ann, Bob, Cat, Dan; 1.00 EUR a point",
        ),
        (
            chouette("session", SESSION, {**SESSION, "status": "closed"}),
            "director closed the session",
        ),
        (
            chouette("seat", after={"joined_at": "x"}, action="created", context={"player": 4}),
            "Dan took a seat (director)",
        ),
        (
            chouette("seat", {"left_at": None}, {"left_at": "t"}, context={"player": 3}),
            "Cat left the table (director)",
        ),
        (
            chouette(
                "chouette_game",
                after=CGAME,
                action="created",
                number=3,
                who="Bob",
                context={"members": [{"player": 3, "action": "dropped", "cube": 2}]},
            ),
            "Bob recorded game 3: box Ann won a gammon against captain Bob (box +4); "
            "Cat refused a double to 4",
        ),
        (
            chouette(
                "chouette_game", CGAME, {**CGAME, "winner": "team", "box_points": -4}, number=3
            ),
            "director corrected game 3: winner box → team, box points 4 → -4",
        ),
        (
            chouette("chouette_game", CGAME, action="deleted", number=3),
            "director undid game 3, which said box Ann won a gammon against captain Bob (box +4)",
        ),
        (
            chouette(
                "member",
                after={"cube": 2, "action": "played", "points": -2},
                action="created",
                number=3,
                context={"player": 3},
            ),
            "game 3: Cat played a 2-cube (-2)",
        ),
    ],
)
def test_each_chouette_change_in_words(record, sentence):
    assert describe(record) == sentence
