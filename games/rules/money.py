"""Money-play rule sets and the value of a money game.

Sources: ``rules/backgammon-rules-cube-crawford.txt`` (the Jacoby rule, beavers,
raccoons, automatic doubles), ``rules/thorne-1930-backgammon-in-20-minutes-chouette.txt``
(the Philadelphia method: only doubles made in play count, gammons and backgammons
count single), ``rules/hoyle-modernized-backgammon.txt`` (backgammon counts three or
four, as agreed). Used by unlimited sessions and by the chouette (per member's cube).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleViolation
from .types import LEVEL_MULTIPLIER, Ending, Level, is_power_of_two


@dataclass(frozen=True, slots=True)
class MoneyRules:
    """The options a table agrees before money play. Defaults are the modern common game."""

    jacoby: bool = True
    beavers: bool = True
    raccoons: bool = False
    automatic_doubles: bool = False
    automatic_double_limit: int = 1  # how many automatic doubles at most (cube 2**limit)
    philadelphia: bool = False
    backgammon_value: int = 3  # 3, or 4 by agreement
    cube_limit: int | None = None  # highest cube value allowed, None = no limit

    def __post_init__(self) -> None:
        if self.backgammon_value not in (3, 4):
            raise RuleViolation(
                "backgammon_value", "A backgammon counts 3 or 4.", field="backgammon_value"
            )
        if self.cube_limit is not None and not is_power_of_two(self.cube_limit):
            raise RuleViolation(
                "cube_limit_not_power_of_two",
                "The cube limit must be a power of two (1, 2, 4, 8, ...).",
                field="cube_limit",
            )
        if self.automatic_double_limit < 0:
            raise RuleViolation(
                "automatic_double_limit",
                "The automatic double limit cannot be negative.",
                field="automatic_double_limit",
            )
        if self.raccoons and not self.beavers:
            raise RuleViolation(
                "raccoon_without_beaver",
                "A raccoon answers a beaver: raccoons need beavers allowed.",
                field="raccoons",
            )


def level_multiplier(level: Level, rules: MoneyRules, *, cube_turned: bool) -> int:
    """How many times the cube a game at ``level`` is worth under ``rules``.

    The Jacoby rule and the Philadelphia method both make gammons and backgammons
    count single: Jacoby only while the cube has not been turned, Philadelphia always.
    """
    level = Level(level)
    if rules.philadelphia:
        return 1
    if rules.jacoby and not cube_turned:
        return 1
    if level is Level.BACKGAMMON:
        return rules.backgammon_value
    return LEVEL_MULTIPLIER[level]


def check_cube(cube: int, rules: MoneyRules, *, field: str = "cube") -> None:
    """Refuse a cube that is not a power of two or above the agreed limit."""
    if not is_power_of_two(cube):
        raise RuleViolation(
            "cube_not_power_of_two",
            f"The cube value {cube} is not a power of two (1, 2, 4, 8, ...).",
            field=field,
        )
    if rules.cube_limit is not None and cube > rules.cube_limit:
        raise RuleViolation(
            "cube_above_limit",
            f"The cube value {cube} is above the agreed limit of {rules.cube_limit}.",
            field=field,
        )


def money_game_value(
    *,
    level: Level,
    cube: int,
    ending: Ending,
    rules: MoneyRules,
    cube_turned: bool | None = None,
) -> int:
    """Points a money game is worth to its winner.

    ``cube`` is the cube the game was played for (for a drop, the value before the
    refused double). ``cube_turned`` says whether a double was made in play; by default
    a cube above 1 counts as turned. Automatic doubles raise the cube without turning
    it, so a caller with automatic doubles passes ``cube_turned`` explicitly.
    """
    check_cube(cube, rules)
    level = Level(level)
    ending = Ending(ending)
    if ending is Ending.DROPPED:
        if level is not Level.SINGLE:
            raise RuleViolation(
                "dropped_game_is_single",
                "A dropped double always scores single: the doubler wins the cube value.",
                field="level",
            )
        return cube
    turned = cube > 1 if cube_turned is None else cube_turned
    return cube * level_multiplier(level, rules, cube_turned=turned)
