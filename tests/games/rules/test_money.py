"""Money play (docs/rules.md, "Game value" and the money-play sections): game values under
Jacoby, Philadelphia, automatic doubles, and the cube actions of a game (doubles, takes,
drops, beavers, raccoons)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.errors import RuleViolation
from games.rules.money import (
    CubeAction,
    CubeEvent,
    CubeHistory,
    MoneyRules,
    check_automatic_doubles,
    check_cube,
    check_cube_actions,
    level_multiplier,
    money_game_value,
)
from games.rules.types import Ending, Level

PLAIN = MoneyRules(jacoby=False, beavers=False)
JACOBY = MoneyRules(jacoby=True)
PHILADELPHIA = MoneyRules(jacoby=False, philadelphia=True)
AUTO = MoneyRules(jacoby=True, automatic_doubles=True, automatic_double_limit=2)
AUTO_PHILADELPHIA = MoneyRules(
    jacoby=False, philadelphia=True, automatic_doubles=True, automatic_double_limit=2
)
A, B = 0, 1
DISAGREES = "cube_turned_disagrees_with_cube"
RACCOONS = MoneyRules(raccoons=True)
LIMIT_4 = MoneyRules(cube_limit=4)


def value(rules: MoneyRules, level: Level, cube: int, **kwargs: object) -> int:
    ending = kwargs.pop("ending", Ending.PLAYED)
    return money_game_value(level=level, cube=cube, ending=ending, rules=rules, **kwargs)  # type: ignore[arg-type]


# --- game values --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "level", "cube", "points"),
    [
        (PLAIN, Level.SINGLE, 1, 1),
        (PLAIN, Level.GAMMON, 1, 2),
        (PLAIN, Level.BACKGAMMON, 1, 3),
        (PLAIN, Level.GAMMON, 4, 8),
        (MoneyRules(jacoby=False, backgammon_value=4), Level.BACKGAMMON, 2, 8),
        # Jacoby: gammons count only once the cube has been used
        (JACOBY, Level.GAMMON, 1, 1),
        (JACOBY, Level.BACKGAMMON, 1, 1),
        (JACOBY, Level.GAMMON, 2, 4),
        (JACOBY, Level.BACKGAMMON, 4, 12),
        # Philadelphia: gammons and backgammons count single, the doubles in play count
        (PHILADELPHIA, Level.GAMMON, 1, 1),
        (PHILADELPHIA, Level.BACKGAMMON, 8, 8),
    ],
)
def test_money_game_value(rules: MoneyRules, level: Level, cube: int, points: int) -> None:
    assert value(rules, level, cube) == points


def test_jacoby_gammon_counts_single_until_cube_turned() -> None:
    assert value(JACOBY, Level.GAMMON, 1) == 1
    assert value(JACOBY, Level.GAMMON, 2) == 4
    assert level_multiplier(Level.GAMMON, JACOBY, cube_turned=False) == 1
    assert level_multiplier(Level.GAMMON, JACOBY, cube_turned=True) == 2


def test_automatic_doubles_raise_the_stake_without_turning_the_cube() -> None:
    # "The doubling cube stays in the middle ... The Jacoby Rule is still in effect."
    assert value(AUTO, Level.GAMMON, 2, automatic_doubles=1) == 2
    assert value(AUTO, Level.GAMMON, 4, automatic_doubles=2) == 4
    assert value(AUTO, Level.GAMMON, 4, automatic_doubles=1) == 8  # one double in play
    # the older calling convention: cube_turned=False alone means all automatic
    assert value(AUTO, Level.GAMMON, 4, cube_turned=False) == 4
    assert value(AUTO, Level.GAMMON, 4, cube_turned=True) == 8


def test_philadelphia_counts_only_doubles_made_in_play() -> None:
    # Thorne 1930: "Only doubles made in play are counted in this method": neither the
    # gammon/backgammon multipliers nor the opening-tie automatic doubles count.
    assert value(AUTO_PHILADELPHIA, Level.SINGLE, 4, automatic_doubles=2) == 1
    assert value(AUTO_PHILADELPHIA, Level.BACKGAMMON, 8, automatic_doubles=1) == 4
    assert value(AUTO_PHILADELPHIA, Level.GAMMON, 2, cube_turned=False) == 1
    drop = {"ending": Ending.DROPPED}
    assert value(AUTO_PHILADELPHIA, Level.SINGLE, 4, automatic_doubles=1, **drop) == 2


def test_dropped_game_wins_cube_before_the_double_and_is_single() -> None:
    assert value(PLAIN, Level.SINGLE, 1, ending=Ending.DROPPED) == 1
    assert value(JACOBY, Level.SINGLE, 4, ending=Ending.DROPPED) == 4
    # the refused double was made in play: counting it as a turn is not a contradiction
    assert value(JACOBY, Level.SINGLE, 1, ending=Ending.DROPPED, cube_turned=True) == 1
    with pytest.raises(RuleViolation) as caught:
        value(PLAIN, Level.GAMMON, 2, ending=Ending.DROPPED)
    assert (caught.value.code, caught.value.field) == ("dropped_game_is_single", "level")


def test_resignation_scores_level_times_cube() -> None:
    assert value(PLAIN, Level.GAMMON, 2, ending=Ending.RESIGNED) == 4
    assert value(JACOBY, Level.GAMMON, 1, ending=Ending.RESIGNED) == 1


@pytest.mark.parametrize(
    ("rules", "kwargs", "code"),
    [
        (PLAIN, {"cube": 3}, "cube_not_power_of_two"),
        (PLAIN, {"cube": 0}, "cube_not_power_of_two"),
        (MoneyRules(cube_limit=4), {"cube": 8}, "cube_above_limit"),
        (PLAIN, {"level": "quadruple"}, "invalid_level"),
        (PLAIN, {"ending": "walked_away"}, "invalid_ending"),
        # a cube of 2 with no double in play needs an automatic double, not agreed here
        (PLAIN, {"cube": 2, "cube_turned": False}, "cube_raised_without_double"),
        (AUTO, {"cube": 8, "cube_turned": False}, "cube_raised_without_double"),
        (PLAIN, {"cube": 1, "cube_turned": True}, DISAGREES),
        (AUTO, {"cube": 2, "automatic_doubles": 1, "cube_turned": True}, DISAGREES),
        (AUTO, {"cube": 4, "automatic_doubles": 3}, "automatic_doubles_above_limit"),
        (PLAIN, {"cube": 2, "automatic_doubles": 1}, "automatic_doubles_not_agreed"),
        (AUTO, {"cube": 2, "automatic_doubles": 2}, "cube_below_automatic_doubles"),
    ],
)  # fmt: skip
def test_impossible_money_game_is_refused(
    rules: MoneyRules, kwargs: dict[str, object], code: str
) -> None:
    arguments: dict[str, object] = {"level": Level.SINGLE, "cube": 1, "ending": Ending.PLAYED}
    arguments.update(kwargs)
    with pytest.raises(RuleViolation) as caught:
        money_game_value(rules=rules, **arguments)  # type: ignore[arg-type]
    assert caught.value.code == code


def test_check_cube_reports_the_callers_field() -> None:
    with pytest.raises(RuleViolation) as caught:
        check_cube(6, PLAIN, field="cubes[2]")
    assert caught.value.field == "cubes[2]"
    check_cube(1024, PLAIN)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"backgammon_value": 5}, "backgammon_value"),
        ({"cube_limit": 12}, "cube_limit_not_power_of_two"),
        ({"automatic_double_limit": -1}, "automatic_double_limit"),
        ({"beavers": False, "raccoons": True}, "raccoon_without_beaver"),
    ],
)
def test_money_rules_are_validated(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        MoneyRules(**kwargs)  # type: ignore[arg-type]
    assert caught.value.code == code


def test_check_automatic_doubles() -> None:
    check_automatic_doubles(0, PLAIN)
    check_automatic_doubles(2, AUTO)
    for count, code in [(-1, "automatic_doubles_invalid"), (3, "automatic_doubles_above_limit")]:
        with pytest.raises(RuleViolation) as caught:
            check_automatic_doubles(count, AUTO)
        assert caught.value.code == code


@settings(max_examples=300, deadline=None)
@given(
    rules=st.builds(
        MoneyRules,
        jacoby=st.booleans(),
        philadelphia=st.booleans(),
        automatic_doubles=st.just(True),
        automatic_double_limit=st.just(3),
        backgammon_value=st.sampled_from([3, 4]),
    ),
    automatic=st.integers(min_value=0, max_value=3),
    in_play=st.integers(min_value=0, max_value=6),
    level=st.sampled_from(list(Level)),
)
def test_value_is_stake_times_level_multiplier(
    rules: MoneyRules, automatic: int, in_play: int, level: Level
) -> None:
    cube = 2 ** (automatic + in_play)
    points = value(rules, level, cube, automatic_doubles=automatic)
    turned = in_play > 0
    stake = 2**in_play if rules.philadelphia else cube
    assert points == stake * level_multiplier(level, rules, cube_turned=turned)
    assert points >= 1
    if not rules.philadelphia and not (rules.jacoby and not turned):
        full = {Level.SINGLE: 1, Level.GAMMON: 2, Level.BACKGAMMON: rules.backgammon_value}
        assert points == cube * full[level]


# --- cube actions -------------------------------------------------------------------


def events(*steps: tuple[str, int | None] | str) -> list[CubeEvent]:
    out = []
    for step in steps:
        action, player = (step, None) if isinstance(step, str) else step
        out.append(CubeEvent(CubeAction(action), player))
    return out


@pytest.mark.parametrize(
    ("rules", "steps", "expected"),
    [
        (JACOBY, [], CubeHistory()),
        (JACOBY, [("double", A), "take"], CubeHistory(cube=2, owner=B, turned=True)),
        (
            JACOBY,
            [("double", A), "take", ("double", B), ("take", A), ("double", A), "take"],
            CubeHistory(cube=8, owner=B, turned=True),
        ),
        (JACOBY, [("double", B), "drop"], CubeHistory(cube=1, dropped_by=A)),
        (
            JACOBY,
            [("double", A), "take", ("double", B), "drop"],
            CubeHistory(cube=2, owner=B, turned=True, dropped_by=A),
        ),
        # beaver: the taker redoubles at once and keeps the cube
        (JACOBY, [("double", A), ("beaver", B)], CubeHistory(cube=4, owner=B, turned=True)),
        # raccoon: the original doubler redoubles the beaver and keeps the cube
        (
            MoneyRules(raccoons=True),
            [("double", A), "beaver", ("raccoon", A)],
            CubeHistory(cube=8, owner=A, turned=True),
        ),
        (
            MoneyRules(raccoons=True),
            [("double", A), "beaver", "raccoon", ("double", A), "drop"],
            CubeHistory(cube=8, owner=A, turned=True, dropped_by=B),
        ),
        # automatic doubles leave the cube in the middle, not turned
        (AUTO, ["automatic", "automatic"], CubeHistory(cube=4, automatic_doubles=2)),
        (
            AUTO,
            ["automatic", ("double", B), "take"],
            CubeHistory(cube=4, owner=A, automatic_doubles=1, turned=True),
        ),
    ],
)
def test_cube_actions_lead_to(
    rules: MoneyRules, steps: list[tuple[str, int | None] | str], expected: CubeHistory
) -> None:
    assert check_cube_actions(events(*steps), rules) == expected


@pytest.mark.parametrize(
    ("rules", "steps", "code", "index"),
    [
        (JACOBY, [("double", A), "take", ("double", A)], "double_by_non_owner", 2),
        (JACOBY, [("double", A), ("take", A)], "answer_by_doubler", 1),
        (JACOBY, ["take"], "answer_without_double", 0),
        (JACOBY, [("double", A), ("double", A)], "double_not_answered", 1),
        (JACOBY, [("double", A)], "double_not_answered", None),
        (JACOBY, [("double", None)], "invalid_player", 0),
        (JACOBY, [("double", A), "drop", ("double", B)], "cube_action_after_drop", 2),
        (PLAIN, [("double", A), "beaver"], "beavers_not_agreed", 1),
        (JACOBY, [("double", A), "beaver", "raccoon"], "raccoons_not_agreed", 2),
        (RACCOONS, [("double", A), "take", "raccoon"], "raccoon_without_beaver", 2),
        (RACCOONS, [("double", A), "beaver", ("raccoon", B)], "raccoon_by_wrong_player", 2),
        (JACOBY, ["automatic"], "automatic_doubles_not_agreed", 0),
        (AUTO, ["automatic", "automatic", "automatic"], "automatic_doubles_above_limit", 2),
        (AUTO, [("double", A), "take", "automatic"], "automatic_double_after_play", 2),
        (AUTO, [("automatic", A)], "invalid_player", 0),
        (LIMIT_4, [("double", A), "take", ("double", B), "take", ("double", A)], "cube_above_limit",
         4),
        (MoneyRules(cube_limit=2), [("double", A), "beaver"], "cube_above_limit", 1),
    ],
)  # fmt: skip
def test_impossible_cube_actions_are_refused(
    rules: MoneyRules, steps: list[tuple[str, int | None] | str], code: str, index: int | None
) -> None:
    with pytest.raises(RuleViolation) as caught:
        check_cube_actions(events(*steps), rules, field="cube_actions")
    assert caught.value.code == code
    assert caught.value.field == ("cube_actions" if index is None else f"cube_actions[{index}]")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(CubeAction)), st.sampled_from([None, 0, 1]))))
def test_any_cube_sequence_is_accepted_consistently_or_refused_with_a_rule(
    steps: list[tuple[CubeAction, int | None]],
) -> None:
    rules = MoneyRules(raccoons=True, automatic_doubles=True, automatic_double_limit=2)
    actions = [CubeEvent(action, player) for action, player in steps]
    try:
        history = check_cube_actions(actions, rules)
    except RuleViolation as error:
        assert error.code and error.message and error.field
        return
    assert history.cube >= 2**history.automatic_doubles
    assert history.turned == (history.cube > 2**history.automatic_doubles)
    assert (history.owner is None) == (not history.turned)
    # the sequence's value agrees with money_game_value's reading of the same cube
    level = Level.SINGLE if history.dropped else Level.GAMMON
    ending = Ending.DROPPED if history.dropped else Ending.PLAYED
    points = money_game_value(
        level=level,
        cube=history.cube,
        ending=ending,
        rules=rules,
        cube_turned=history.turned,
        automatic_doubles=history.automatic_doubles,
    )
    assert points == history.cube * (1 if history.dropped or not history.turned else 2)
