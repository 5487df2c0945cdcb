"""Cady's Russian backgammon (Cady 1895, *Russian Backgammon*).

"The board is not furnished at starting"; both sides enter "in the same table" and
"the march of both sets ... is in the same direction". A player "is not obliged to enter
all his men before he plays any"; a man taken up is entered "before playing any other
already entered". Doublets are "bound" to be played with "the complimentary ones" and
"another throw", except "his first set of doublets in the game"; a deuce-ace chooses
"any doublets he likes on opposite faces of the dice" and throws again. "In other
respects, the game is similar to ordinary backgammon" (levels as the English game).
Cady's book predates the doubling cube: no cube unless the house adds one.
"""

from __future__ import annotations

from .base import (
    CUBE,
    NO_CUBE,
    OPPONENT_FINISHES,
    UNENTERED,
    Complementary,
    Direction,
    Doublets,
    HouseOption,
    Variant,
)

CADY_RUSSIAN = "Cady 1895, Backgammon: Russian Backgammon"

HOUSE_CUBE = HouseOption(
    CUBE,
    False,
    "Play with the doubling cube (the source predates it).",
    "house rule",
)

RUSSIAN = Variant(
    key="russian",
    name="Russian backgammon (Cady)",
    sources=(CADY_RUSSIAN,),
    summary=(
        "Both sides enter in the same table and march the same way; doublets bring their "
        "complementary doublets and a further throw, except a player's first doublets; "
        "deuce-ace names any doublets."
    ),
    checkers=15,
    start={UNENTERED: 15},
    direction=Direction.SAME,
    doublets=Doublets(
        complementary=Complementary.COMPULSORY,
        first_doublets_plain=True,
        extra_throw=True,
        one_two=True,
        one_two_complementary=True,
    ),
    bar_before_unentered=False,
    match=NO_CUBE,
    options=(
        HouseOption(
            OPPONENT_FINISHES,
            False,
            "When the caster cannot complete a throw, the opponent plays the rest of it "
            "with his own men (off: many players prefer to omit it).",
            CADY_RUSSIAN,
        ),
        HOUSE_CUBE,
    ),
)
