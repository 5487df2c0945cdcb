"""A turned cube whose owner the score sheet did not record (``UNKNOWN_OWNER``).

The owner changes no score, so the rules accept "unknown" wherever an owner would
otherwise be required (a cube above its centred value) and skip only the one check
that needs it (a dropped double must come from the owner); everywhere the cube's
place is known (an unturned cube is in the centre, the Crawford game has no cube)
"unknown" is refused like any other wrong owner.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.errors import RuleViolation
from games.rules.money import MoneyRules
from games.rules.scoring import (
    GameRecord,
    MatchRules,
    game_points,
    record_next_game,
    replay_match,
    start_match,
)
from games.rules.types import UNKNOWN_OWNER, Ending, Level

A, B = 0, 1


@pytest.mark.parametrize(
    ("record", "points"),
    [
        (GameRecord(winner=A, cube=2, cube_owner=UNKNOWN_OWNER), 2),
        (GameRecord(winner=B, cube=4, cube_owner=UNKNOWN_OWNER, level=Level.GAMMON), 8),
        (GameRecord(winner=A, cube=8, cube_owner=UNKNOWN_OWNER, level=Level.BACKGAMMON), 24),
        # a redouble from 2 to 4 dropped: the doubler wins the cube before it, 2
        (GameRecord(winner=B, cube=2, cube_owner=UNKNOWN_OWNER, ending=Ending.DROPPED), 2),
        (GameRecord(winner=A, cube=4, cube_owner=UNKNOWN_OWNER, ending=Ending.RESIGNED), 4),
    ],
)
def test_a_turned_cube_with_its_owner_unknown_scores_as_usual(
    record: GameRecord, points: int
) -> None:
    assert game_points(record) == points


@pytest.mark.parametrize(
    ("record", "code", "field"),
    [
        # an unturned cube is in the centre: its place is known, never "unknown"
        (
            GameRecord(winner=A, cube=1, cube_owner=UNKNOWN_OWNER),
            "cube_owner_invalid",
            "cube_owner",
        ),
        (
            GameRecord(winner=A, cube=1, cube_owner=UNKNOWN_OWNER, ending=Ending.DROPPED),
            "cube_owner_invalid",
            "cube_owner",
        ),
        # a turned cube in the centre is still a contradiction
        (GameRecord(winner=A, cube=2, cube_owner=None), "cube_owner_invalid", "cube_owner"),
        (GameRecord(winner=A, cube=2, cube_owner="somebody"), "cube_owner_invalid", "cube_owner"),
        # the other rules of the game still apply
        (
            GameRecord(
                winner=A,
                cube=2,
                cube_owner=UNKNOWN_OWNER,
                ending=Ending.DROPPED,
                level=Level.GAMMON,
            ),
            "dropped_game_is_single",
            "level",
        ),
        (
            GameRecord(winner=A, cube=3, cube_owner=UNKNOWN_OWNER),
            "cube_not_power_of_two",
            "cube",
        ),
    ],
)
def test_unknown_owner_is_refused_where_the_cube_place_is_known(
    record: GameRecord, code: str, field: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        game_points(record)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_the_centre_refusal_says_how_to_enter_a_drop() -> None:
    with pytest.raises(RuleViolation) as caught:
        game_points(GameRecord(winner=A, cube=2, ending=Ending.DROPPED))
    assert "unknown" in caught.value.message
    assert "value before the refused double" in caught.value.message


def test_crawford_game_refuses_a_turned_cube_whoever_owns_it() -> None:
    rules = MatchRules(length=3)
    state = record_next_game(start_match(rules), GameRecord(winner=A, level=Level.GAMMON))
    assert state.next_game_is_crawford
    with pytest.raises(RuleViolation) as caught:
        record_next_game(state, GameRecord(winner=B, cube=2, cube_owner=UNKNOWN_OWNER))
    assert caught.value.code == "double_in_crawford_game"


def test_a_cube_limit_still_bounds_an_unknown_owners_cube() -> None:
    rules = MatchRules(length=7, cube_limit=2)
    with pytest.raises(RuleViolation) as caught:
        replay_match(rules, [GameRecord(winner=A, cube=4, cube_owner=UNKNOWN_OWNER)])
    assert caught.value.code == "cube_above_limit"
    with pytest.raises(RuleViolation) as dropped:  # the refused redouble would make it 4
        replay_match(
            rules,
            [GameRecord(winner=A, cube=2, cube_owner=UNKNOWN_OWNER, ending=Ending.DROPPED)],
        )
    assert dropped.value.code == "cube_above_limit"


def test_automatic_doubles_centre_a_cube_of_two_and_unknown_needs_it_turned() -> None:
    """With one automatic double the centred cube is 2: 'centre' is right at 2, and
    'unknown' only above it (the owner exists only once someone doubled)."""
    rules = MatchRules(length=0, money=MoneyRules(automatic_doubles=True))
    centred = GameRecord(winner=A, cube=2, cube_owner=None, automatic_doubles=1)
    assert replay_match(rules, [centred]).score == (2, 0)
    with pytest.raises(RuleViolation) as caught:
        replay_match(
            rules, [GameRecord(winner=A, cube=2, cube_owner=UNKNOWN_OWNER, automatic_doubles=1)]
        )
    assert caught.value.code == "cube_owner_invalid"
    turned = GameRecord(winner=A, cube=4, cube_owner=UNKNOWN_OWNER, automatic_doubles=1)
    assert replay_match(rules, [turned]).score[0] > 0


cubes = st.sampled_from([2, 4, 8, 16, 32, 64])
levels = st.sampled_from(list(Level))
endings = st.sampled_from([Ending.PLAYED, Ending.RESIGNED, Ending.DROPPED])


@given(winner=st.sampled_from([A, B]), cube=cubes, level=levels, ending=endings)
def test_forgetting_the_owner_never_changes_the_points(
    winner: int, cube: int, level: Level, ending: Ending
) -> None:
    """Whatever the true owner was, recording it as unknown scores the same, and is
    accepted exactly when some owner would be."""
    if ending is Ending.DROPPED:
        level = Level.SINGLE
    owners = [A, B] if ending is not Ending.DROPPED else [winner]  # the doubler owns it
    known = {
        game_points(GameRecord(winner=winner, cube=cube, cube_owner=o, ending=ending, level=level))
        for o in owners
    }
    unknown = game_points(
        GameRecord(winner=winner, cube=cube, cube_owner=UNKNOWN_OWNER, ending=ending, level=level)
    )
    assert known == {unknown}
