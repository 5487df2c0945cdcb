"""Nackgammon: Nick "Nack" Ballard's start (two more back men), otherwise the English
game, cube, Crawford and Jacoby included."""

from __future__ import annotations

from .base import Variant

NACKGAMMON = Variant(
    key="nackgammon",
    name="Nackgammon",
    sources=(
        "The encyclopedia article Backgammon, section Variants (Nackgammon)",
        "GNU Backgammon manual, Variations (set variation nackgammon)",
    ),
    summary="The English game from a start with two men on each of the 24 and 23 points.",
    checkers=15,
    start={24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    gnubg_variation="NackGammon",
    engine_analysis=True,
)
