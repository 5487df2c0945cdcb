"""Acey-deucey: all men start off the board and enter in the opponent's home table,
opposite directions, a man may move before all are entered; the 1-2 is played, then
the caster names any doublets, plays them and throws again. The "European" house
option makes complementary doublets compulsory."""

from __future__ import annotations

from .base import (
    COMPLEMENTARY_DOUBLETS,
    NO_CUBE,
    UNENTERED,
    Complementary,
    Doublets,
    HouseOption,
    Variant,
)
from .russian import HOUSE_CUBE

ACEY = "The encyclopedia article Acey-deucey, sections Rules and Variations"

ACEY_DEUCEY = Variant(
    key="acey-deucey",
    name="Acey-deucey",
    sources=(ACEY,),
    summary=(
        "All men start off the board; a 1-2 names any doublets, played after it, and a "
        "further throw."
    ),
    checkers=15,
    start={UNENTERED: 15},
    doublets=Doublets(complementary=Complementary.BY_AGREEMENT, one_two=True),
    match=NO_CUBE,
    options=(
        HouseOption(
            COMPLEMENTARY_DOUBLETS,
            False,
            '"European" acey-deucey: doublets are followed by the complementary doublets.',
            ACEY,
        ),
        HOUSE_CUBE,
    ),
)
