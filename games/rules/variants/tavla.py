"""Turkish tavla: the English game's board and moves; a gammon (mars) counts 2, there is
no backgammon and no cube."""

from __future__ import annotations

from ..types import Level
from .base import NO_CUBE, Variant
from .standard import ENGLISH_START

TAVLA = Variant(
    key="tavla",
    name="Tavla",
    sources=("The encyclopedia article Tavla, section Rules",),
    summary="The English game's moves; 1 point, 2 for a gammon (mars); no backgammon, no cube.",
    checkers=15,
    start=ENGLISH_START,
    levels={Level.SINGLE: 1, Level.GAMMON: 2},
    match=NO_CUBE,
)
