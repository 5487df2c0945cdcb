"""The card's drop convention: a dropped double is entered as the cube *offered*.

Match entry takes the cube offered ("a dropped 2 scores 1"), and so does the chouette
card: a table reads the cube it was handed, not the value before it. The ledger keeps
what the rules score, the member's cube *before* the refused double (the API's
``cube`` for a drop, unchanged), so the card halves what it is given. Asking for the
value before the double on the card charged a member who dropped a 2 two points, the
cube's full offered value, which is what issue #27 found at a real table.
"""

from __future__ import annotations

from core.errors import N_
from games.rules.errors import RuleViolation

DROPS = frozenset({"dropped", "box_dropped"})
"""The member actions whose stored cube is the value *before* the refused double."""


def cube_offered(cube: int, action: str) -> int:
    """The cube as the card and the sheet show it: for a drop, the cube offered (twice
    the stored value before the double); otherwise the cube as stored."""
    return cube * 2 if action in DROPS else cube


def cube_before_drop(offered: int, *, field: str) -> int:
    """The member's cube before the refused double, from the cube that was offered.

    A double always offers at least 2 and always a power of two, so an offered 1 (the
    card's untouched default) is a drop nobody described: refused, naming the field,
    rather than guessed.
    """
    if offered < 2 or offered & (offered - 1):
        raise RuleViolation(
            "drop_needs_cube_offered",
            N_(
                "For a drop, choose the cube that was offered (2 for a first double); "
                "%(offered)s was chosen.",
                offered=offered,
            ),
            field=field,
        )
    return offered // 2
