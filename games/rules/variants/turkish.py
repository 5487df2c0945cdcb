"""Cady's Turkish backgammon (Cady 1895, *Turkish Backgammon*), in the reading
``docs/rules.md`` explains: both sides march the same way round from opposite corners;
two men start on the first point and the rest enter one point beyond the die; no
covering a point while entering; no point made in the entering table until all are in,
nor beyond the twelfth until the twelfth is made; complementary doublets only by
agreement. Otherwise "much as he would in the Russian variation"."""

from __future__ import annotations

from .base import (
    COMPLEMENTARY_DOUBLETS,
    NO_CUBE,
    UNENTERED,
    Complementary,
    Direction,
    Doublets,
    HouseOption,
    Variant,
)
from .russian import HOUSE_CUBE

CADY_TURKISH = "Cady 1895, Backgammon: Turkish Backgammon"

TURKISH = Variant(
    key="turkish",
    name="Turkish backgammon (Cady)",
    sources=(CADY_TURKISH, "Cady 1895, Backgammon: Russian Backgammon"),
    summary=(
        "Two men on the first point, the rest entered one point beyond the die without "
        "covering a point; no point beyond the twelfth until it is made."
    ),
    checkers=15,
    start={24: 2, UNENTERED: 13},
    direction=Direction.SAME_FROM_OPPOSITE_CORNERS,
    doublets=Doublets(complementary=Complementary.BY_AGREEMENT),
    bar_before_unentered=False,
    turkish_entering=True,
    match=NO_CUBE,
    options=(
        HouseOption(
            COMPLEMENTARY_DOUBLETS,
            False,
            "Doublets are followed by the complementary doublets (off: players "
            '"agree often to use (count) only the face value").',
            CADY_TURKISH,
        ),
        HOUSE_CUBE,
    ),
)
