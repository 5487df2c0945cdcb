"""What a variant changes in recording a game of a match: the levels it has, whether the
cube (and so a drop) exists, whether the Crawford rule applies.

:mod:`games.rules.scoring` asks this module for a match's variant (``MatchRules.variant``,
``standard`` by default, which changes nothing).
"""

from __future__ import annotations

from core.errors import N_

from ..errors import RuleViolation
from ..types import Ending, Level
from .base import Variant


def check_game(
    variant: Variant,
    *,
    level: Level,
    cube: int,
    cube_owner: object,
    ending: Ending,
    at: str,
) -> None:
    """Refuse a game ``variant`` cannot produce, naming the field: a level it does not
    score (a backgammon in tavli or tavla), a turned cube or a dropped double where it
    has no cube."""
    prefix = f"{at}." if at else ""
    if level not in variant.levels:
        raise RuleViolation(
            "level_not_in_variant",
            N_(
                "%(variant)s scores no %(level)s: its levels are %(levels)s.",
                variant=variant.name,
                level=level.value,
                levels=", ".join(lv.value for lv in variant.levels),
            ),
            f"{prefix}level",
        )
    if variant.cube:
        return
    if cube != 1 or cube_owner is not None:
        raise RuleViolation(
            "no_cube_in_variant",
            N_("%(variant)s is played without the doubling cube.", variant=variant.name),
            f"{prefix}cube" if cube != 1 else f"{prefix}cube_owner",
        )
    if ending is Ending.DROPPED:
        raise RuleViolation(
            "no_cube_in_variant",
            N_(
                "%(variant)s is played without the doubling cube: no double can be dropped.",
                variant=variant.name,
            ),
            f"{prefix}ending",
        )
