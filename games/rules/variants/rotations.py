"""Games played in rotation: a match or event whose games change variant one by one.

Greek tavli is played as portes, plakoto and fevga in turn (the encyclopedia article
Tavli: "the three games are played in succession"): game 1 is portes, game 2 plakoto,
game 3 fevga, game 4 portes again, and so on. A rotation is not a variant of the
registry (it has no start and no legal plays of its own); it is a name a match, an
event or a rating list may carry, whose games each resolve to a registered variant.
The games of one rotation score alike (their levels and match rules agree, which the
tests check), so a match of the rotation is scored with its first game's rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import N_

from ..errors import RuleViolation
from .base import Variant
from .tavli import FEVGA, PLAKOTO, PORTES


@dataclass(frozen=True, slots=True)
class Rotation:
    key: str
    name: str
    games: tuple[Variant, ...]

    def game(self, number: int) -> Variant:
        """The variant of game ``number`` (1, 2, ...) of a match."""
        return self.games[(number - 1) % len(self.games)]


TAVLI = Rotation(key="tavli", name="Tavli (portes, plakoto, fevga)", games=(PORTES, PLAKOTO, FEVGA))

ROTATIONS: dict[str, Rotation] = {TAVLI.key: TAVLI}


def check_alike(rotation: Rotation) -> None:
    """The games of a rotation must score alike: one set of levels, one cube rule."""
    first = rotation.games[0]
    for other in rotation.games[1:]:
        if dict(other.levels) != dict(first.levels) or other.match != first.match:
            raise RuleViolation(
                "rotation_scores_differ",
                N_("The games of %(name)s do not score alike.", name=rotation.name),
                "variant",
            )


for _rotation in ROTATIONS.values():
    check_alike(_rotation)
