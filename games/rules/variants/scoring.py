"""How a game of a variant ends and what it is worth before the cube.

The English levels (``docs/rules.md``, "Game value"): single, gammon when the loser has
borne off none, backgammon when he also has a man on the bar, not yet entered or in the
table where he entered (his points 19..24; in the English game that is the winner's
home table). Variants without a backgammon stop at the gammon (tavli, tavla); plakoto
also ends when a "mother" (the last man on a side's starting point) is pinned, won by
the pinner at the gammon's value.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types import Level
from .base import OFF, Variant
from .position import VariantPosition


@dataclass(frozen=True, slots=True)
class VariantResult:
    winner: str  # "mover" or "opponent"
    level: Level
    points: int
    reason: str  # "borne_off" or "mother_pinned"


def game_result(variant: Variant, position: VariantPosition) -> VariantResult | None:
    """The result if the game is over in ``position``, else ``None``."""
    n = variant.checkers
    levels = variant.levels
    if variant.mother_ends_game:
        for winner, pins in (("mover", position.opp_pinned), ("opponent", position.me_pinned)):
            if 24 in pins:
                level = Level.GAMMON if Level.GAMMON in levels else Level.SINGLE
                return VariantResult(winner, level, levels[level], "mother_pinned")
    for winner, won, lost in (
        ("mover", position.me, position.opp),
        ("opponent", position.opp, position.me),
    ):
        if won[OFF] != n:
            continue
        if lost[OFF] or Level.GAMMON not in levels:
            level = Level.SINGLE
        elif Level.BACKGAMMON in levels and any(lost[19:]):
            level = Level.BACKGAMMON
        else:
            level = Level.GAMMON
        return VariantResult(winner, level, levels[level], "borne_off")
    return None
