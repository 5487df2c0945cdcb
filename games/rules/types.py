"""Shared vocabulary of the rules: how a game ended and at which level it was won.

Sources: the modern rules (``docs/rules.md``) (gammon, backgammon, the cube),
``docs/rules/hoyle-modernized-backgammon.txt`` (backgammon "thrice or four times, as agreed").
"""

from __future__ import annotations

from enum import StrEnum


class Level(StrEnum):
    """How much a game is won by, before the cube: 1, 2 or 3 (or 4 by agreement)."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"


class Ending(StrEnum):
    """How a game ended."""

    PLAYED = "played"  # played out to the last checker
    DROPPED = "dropped"  # a double was refused: the doubler wins the cube before the double
    RESIGNED = "resigned"  # a resignation at a level was accepted
    # The loser resigned the whole match (a match resignation, as BackgammonGalaxy
    # records it): the last game of a match, worth exactly the points the winner
    # still needed, whatever the cube; never in money play. See games.rules.scoring.
    MATCH_RESIGNED = "match_resigned"
    # Not a game: penalty points a director awards for lateness (the UKBGF rule,
    # ``tournaments.formats.late_penalty``). Recorded among the games so the score stays
    # their sum, but it never is, nor uses up, the Crawford game. See games.rules.scoring.
    LATE_PENALTY = "late_penalty"


#: A cube owner a score sheet did not record (``GameRecord.cube_owner``). Paper sheets
#: rarely note who holds a doubled cube, and the owner changes no score, so a turned
#: cube (above the centred value) may have its owner unknown; an unturned cube is in
#: the centre, which is always known.
UNKNOWN_OWNER = "unknown"

LEVEL_MULTIPLIER: dict[Level, int] = {Level.SINGLE: 1, Level.GAMMON: 2, Level.BACKGAMMON: 3}


def is_power_of_two(value: int) -> bool:
    """Cube values are 1, 2, 4, 8, ...: the cube only ever doubles."""
    return value >= 1 and value & (value - 1) == 0
