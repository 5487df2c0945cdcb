"""The audit describer: one sentence per kind of change, names not ids, never "None"."""

from __future__ import annotations

import pytest

from games.rules.audit_words import ChangeRecord, describe

ANN, BOB = 1, 2
NAMES = {ANN: "Ann", BOB: "Bob", 3: "Cat", 4: "Dan"}
MATCH = {
    "player1": ANN,
    "player2": BOB,
    "length": 7,
    "rated": True,
    "status": "in_progress",
    "score1": 2,
    "score2": 1,
    "winner": None,
    "confirmation": "pending",
    "awaiting": BOB,
    "final_score_only": False,
    "version": 3,
}
GAME = {
    "number": 3,
    "winner": ANN,
    "cube": 2,
    "cube_owner": "player2",
    "ending": "played",
    "level": "gammon",
    "points": 4,
    "crawford": False,
    "confirmed": False,
}


def match(before=None, after=None, action="changed", **kw):
    return ChangeRecord(
        kind="match",
        action=action,
        who=kw.pop("who", "director"),
        before=before if before is not None else MATCH,
        after={**MATCH, **(after or {})} if action != "deleted" else {},
        names=NAMES,
        context={"players": (ANN, BOB), **kw.pop("context", {})},
        **kw,
    )


def game(before=None, after=None, action="changed", **kw):
    return ChangeRecord(
        kind="game",
        action=action,
        who=kw.pop("who", "Ann"),
        number=3,
        before=before if before is not None else GAME,
        after={**GAME, **(after or {})} if action != "deleted" else {},
        names=NAMES,
        labels={"cube_owner": "cube owner"},
        context={"players": (ANN, BOB), **kw.pop("context", {})},
        **kw,
    )


@pytest.mark.parametrize(
    ("record", "sentence"),
    [
        (
            game(before={}, action="created"),
            "Ann entered game 3: Ann won a gammon on a 2-cube (4 points)",
        ),
        (
            game(
                before={},
                after={"crawford": True, "cube": 1, "level": "single", "points": 1},
                action="created",
            ),
            "Ann entered game 3: Ann won a single game (1 point, the Crawford game)",
        ),
        (
            game(before={}, after={"ending": "dropped", "level": "single"}, action="created"),
            "Ann entered game 3: Ann won: the 2-cube was dropped (4 points)",
        ),
        (
            game(after={"winner": BOB, "cube": 4}, who="the director"),
            "the director corrected game 3: winner Ann → Bob, cube 2 → 4",
        ),
        (
            game(action="deleted", context={"last": True}),
            "Ann undid game 3, which said Ann won a gammon on a 2-cube (4 points)",
        ),
        (
            game(action="deleted", who="director", context={"last": False}),
            "director removed game 3, which said Ann won a gammon on a 2-cube (4 points);"
            " later games renumbered",
        ),
        (game(after={"number": 10003}), "game 3 set aside while later games are renumbered"),
        (
            game(before={**GAME, "number": 10004}, after={"number": 3}),
            "game 4 is now game 3 (an earlier game was removed)",
        ),
        (
            game(after={"points": 2, "crawford": True}),
            "game 3 re-derived after a correction: Crawford game no → yes, points 4 → 2",
        ),
        (
            match(before={}, action="created"),
            "director created the match: Ann v Bob, 7-point match, rated",
        ),
        (
            match(after={"score1": 4, "version": 4}),
            "score now Ann 4 – Bob 1",
        ),
        (
            match(
                before={**MATCH, "awaiting": None, "confirmation": "none"},
                after={"score1": 7, "status": "finished", "winner": ANN},
            ),
            "Ann won the match (Ann 7 – Bob 1); waiting for Bob to confirm",
        ),
        (
            match(
                before={**MATCH, "score1": 0, "score2": 0, "awaiting": None},
                after={"score1": 7, "score2": 3, "final_score_only": True, "awaiting": BOB},
                who="Ann",
            ),
            "Ann entered the final score: Ann 7 – Bob 3; waiting for Bob to confirm",
        ),
        (
            match(
                before={**MATCH, "final_score_only": True},
                after={"final_score_only": True, "score1": 7, "score2": 5},
            ),
            "director corrected the final score: Ann 2 – Bob 1 → Ann 7 – Bob 5",
        ),
        (
            match(after={"confirmation": "confirmed", "awaiting": None}, who=None),
            "Bob confirmed the entries (Ann 2 – Bob 1)",
        ),
        (
            match(
                after={"confirmation": "disputed", "awaiting": None},
                who="bob",
                context={"disputed_by": "Bob", "dispute_reason": "I won game 3"},
            ),
            "Bob disputed: I won game 3",
        ),
        (
            match(
                before={**MATCH, "confirmation": "disputed", "awaiting": None},
                after={"confirmation": "confirmed", "awaiting": None},
                context={"resolution": "kept as entered", "decision": "keep"},
            ),
            "director ruled: kept Ann 2 – Bob 1 (kept as entered)",
        ),
        (
            match(  # a ruling that changed nothing else (issue 41): not "saved unchanged"
                before={**MATCH, "confirmation": "confirmed"},
                after={"confirmation": "confirmed"},
                context={"resolution": "the sheet says so", "decision": "keep"},
            ),
            "director ruled: kept Ann 2 – Bob 1 (the sheet says so)",
        ),
        (
            match(
                before={**MATCH, "confirmation": "disputed"},
                after={"status": "void", "confirmation": "confirmed"},
                context={"resolution": "no score sheet", "decision": "void"},
            ),
            "director ruled: voided the match (no score sheet)",
        ),
        (match(after={"status": "void"}), "director voided the match"),
        (
            match(
                after={"status": "void"},
                who=None,
                reason="automatic: the players of its bracket slot changed",
            ),
            "the system voided the match because the players of its bracket slot changed",
        ),
        (
            match(after={"status": "forfeit", "winner": BOB}),
            "director awarded the match to Bob by forfeit",
        ),
        (
            match(
                before={**MATCH, "status": "void"},
                reason="reopened (was void): wrong match",
            ),
            "director reopened the match (was void): wrong match",
        ),
        (match(after={"table": 4}), "director set the table: 4"),
        (
            match(after={"table": 4}, who=None, reason="automatic: table 4, drawn from the room"),
            "the system set the table: 4",
        ),
        (
            match(before={**MATCH, "label": ""}, after={"label": "Final"}),
            "director changed the match: label none → Final",
        ),
    ],
)
def test_each_match_change_in_words(record, sentence):
    assert describe(record) == sentence


def test_an_unknown_field_falls_back_to_its_readable_name_and_never_says_none():
    record = ChangeRecord(
        kind="match",
        action="changed",
        who="director",
        before={"played_on": None, "cube_limit": 8},
        after={"played_on": "2026-11-20", "cube_limit": None},
        labels={"played_on": "played on", "cube_limit": "cube limit"},
    )
    text = describe(record)
    assert text == "director changed the match: played on none → 2026-11-20, cube limit 8 → none"
    assert "None" not in text


def test_an_unknown_player_id_is_said_as_a_player_not_a_bare_number():
    record = game(after={"winner": 99})
    assert describe(record) == "Ann corrected game 3: winner Ann → player 99"
