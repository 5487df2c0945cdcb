"""Shared vocabulary of the chouette rules: players and the two sides of the board.

Sources: Thorne 1930, *Backgammon in 20 Minutes*, *Chouette* ("the man in the box, who
plays against all the others"; the Captain and his team) and ``docs/rules.md``, "The
chouette".
"""

from __future__ import annotations

from collections.abc import Hashable
from enum import StrEnum
from typing import TypeAlias

#: A player is whatever the caller identifies players by (a primary key, a name):
#: the rules only compare players for equality and keep them in order.
Player: TypeAlias = Hashable


class Side(StrEnum):
    """The two sides of a chouette board: the box alone against the team."""

    BOX = "box"
    TEAM = "team"

    @property
    def other(self) -> Side:
        return Side.TEAM if self is Side.BOX else Side.BOX
