"""The English game as ``docs/rules.md`` describes it, the reference every other entry
varies: the engine with these declarations plays exactly what
:func:`games.rules.board.legal_plays` plays (a test compares them on random positions)."""

from __future__ import annotations

from .base import Variant

MODERN = "The modern rules: the encyclopedia article Backgammon, section Rules"
HOYLE = "Hoyle's Games Modernized, Backgammon"
CADY_ENGLISH = "Cady 1895, Backgammon: English Backgammon and its laws"

#: Own-numbered points of the English start: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6.
ENGLISH_START = {24: 2, 13: 5, 8: 3, 6: 5}

STANDARD = Variant(
    key="standard",
    name="Backgammon",
    sources=(MODERN, HOYLE, CADY_ENGLISH),
    summary="The English game: two, five, three and five men; doubles played four times.",
    checkers=15,
    start=ENGLISH_START,
    gnubg_variation="Backgammon",
    engine_analysis=True,
)
