"""Building positions for the variant tests, and a random game to draw positions from."""

from __future__ import annotations

import random

from games.rules.variants.base import BAR, OFF, SLOTS, UNENTERED, Variant
from games.rules.variants.engine import stage_plays
from games.rules.variants.position import VariantPosition


def side(
    points: dict[int, int], *, bar: int = 0, unentered: int = 0, n: int = 15
) -> tuple[int, ...]:
    """27 counts from ``{point: men}``; the men not placed are borne off."""
    counts = [0] * SLOTS
    for p, k in points.items():
        counts[p] = k
    counts[BAR] = bar
    counts[UNENTERED] = unentered
    counts[OFF] = n - sum(counts)
    assert counts[OFF] >= 0
    return tuple(counts)


def pos(
    me: tuple[int, ...],
    opp: tuple[int, ...],
    me_pinned: set[int] | None = None,
    opp_pinned: set[int] | None = None,
) -> VariantPosition:
    return VariantPosition(me, opp, frozenset(me_pinned or ()), frozenset(opp_pinned or ()))


def roll(rng: random.Random) -> tuple[int, ...]:
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    return (d1,) * 4 if d1 == d2 else (d1, d2)


def random_position(variant: Variant, rng: random.Random, turns: int) -> VariantPosition:
    """The position after ``turns`` random plays from the start (each side in turn),
    stopping early when a game ends."""
    position = VariantPosition.start(variant)
    for _ in range(turns):
        plays = stage_plays(variant, position, roll(rng))
        after = rng.choice(plays).after
        if after.me[OFF] == variant.checkers or (
            variant.mother_ends_game and (24 in after.me_pinned or 24 in after.opp_pinned)
        ):
            return position
        position = after.flip()
    return position
