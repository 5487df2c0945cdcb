"""Hypergammon with one, two or three men a side, on the opponent's 1, 2 and 3 points
(the mover's 24, 23, 22): the English rules otherwise, cube and Crawford included."""

from __future__ import annotations

from .base import Variant

_SOURCES = (
    "GNU Backgammon manual, Variations (set variation 1-chequer/2-chequer/3-chequer hypergammon)",
    "The encyclopedia article Backgammon, section Variants (Hypergammon)",
)


def _hypergammon(n: int) -> Variant:
    return Variant(
        key=f"hypergammon-{n}",
        name=f"Hypergammon ({n})",
        sources=_SOURCES,
        summary=f"{n} man{'s' if n > 1 else ''} a side, starting on the 24"
        + ("" if n == 1 else ", 23" if n == 2 else ", 23 and 22")
        + "; the English rules.",
        checkers=n,
        start={24 - i: 1 for i in range(n)},
        gnubg_variation=f"HyperGammon ({n})",
        engine_analysis=True,
    )


HYPERGAMMON_1 = _hypergammon(1)
HYPERGAMMON_2 = _hypergammon(2)
HYPERGAMMON_3 = _hypergammon(3)
