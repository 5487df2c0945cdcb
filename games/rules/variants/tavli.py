"""Greek tavli: portes, plakoto and fevga, played in rotation. No cube; a game is worth
1 point, 2 if the loser has borne off nothing (no backgammon)."""

from __future__ import annotations

from dataclasses import replace

from ..types import Level
from .base import NO_CUBE, Contact, Direction, Variant
from .standard import ENGLISH_START

TAVLI = "The encyclopedia article Tavli, sections Portes, Plakoto and Fevga"

PORTES = Variant(
    key="portes",
    name="Portes (tavli)",
    sources=(TAVLI,),
    summary="The English game's moves and start; 1 point, or 2 for a gammon; no cube.",
    checkers=15,
    start=ENGLISH_START,
    levels={Level.SINGLE: 1, Level.GAMMON: 2},
    match=NO_CUBE,
)

PLAKOTO = replace(
    PORTES,
    key="plakoto",
    name="Plakoto (tavli)",
    summary=(
        "All fifteen start on the 24; a lone man is pinned, not hit; pinning the "
        "opponent's last man on his start (the mother) wins 2 points."
    ),
    start={24: 15},
    contact=Contact.PIN,
    mother_ends_game=True,
)

FEVGA = replace(
    PORTES,
    key="fevga",
    name="Fevga (tavli)",
    summary=(
        "All fifteen start on the 24, the sides in opposite corners moving the same way "
        "round; a single man holds a point; no hitting."
    ),
    start={24: 15},
    direction=Direction.SAME_FROM_OPPOSITE_CORNERS,
    contact=Contact.BLOCKED,
    fevga_first_runner=True,
    no_prime_unless_passed=True,
)
