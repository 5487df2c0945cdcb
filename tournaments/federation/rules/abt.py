"""The USBGF's American Backgammon Tour: points by skill division.

As the USBGF publishes it ("How ABT Points are Calculated"): each skill division of a
main event is its own competition; its **division factor** is 1 for the highest
division (Championship, Open), 0.5 for the second (Advanced, Intermediate) and 0.25
for every lower one (Limited, Beginner, Novice); the one variable is the
**attendance**, the number of unique players in the division. The points a division
awards in all are ``factor x attendance``.

They go to the places the director designates (by default the first four: winner,
runner-up and the two semi-final losers), shared with the tour's "standardized"
factors: first is worth double second, second double a semi-final finish, and so on
down, the last awarded place worth 1. Players tied over ranks share the average of
those ranks' factors. Points are Decimals rounded half-up to 0.01 (never floats).

A Boxcars event is one division: the director says which when exporting (the project
has no divisions or flights within an event; consolation and last-chance brackets are
part of the same division's places).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext

from core.errors import N_, RuleViolation

DIVISIONS: dict[str, Decimal] = {
    "open": Decimal(1),
    "intermediate": Decimal("0.5"),
    "novice": Decimal("0.25"),
}
"""The skill divisions by rank (highest first) and their factors."""

DEFAULT_PLACES = 4
MAX_PLACES = 16
HUNDREDTH = Decimal("0.01")


def division_factor(division: str) -> Decimal:
    """The factor of ``division`` (400: a division the tour does not know)."""
    try:
        return DIVISIONS[division]
    except KeyError:
        raise RuleViolation(
            "unknown_division",
            N_("The division is one of: %(names)s.", names=", ".join(DIVISIONS)),
            "division",
        ) from None


def attendance(players: Iterable[Hashable]) -> int:
    """Unique players in the division: a player entered twice counts once."""
    return len(set(players))


def standardized_factors(places: int) -> list[int]:
    """The factor of each awarded rank, best first: the last is 1, each one above it double."""
    if not 1 <= places <= MAX_PLACES:
        raise RuleViolation(
            "invalid_places",
            N_("Points go to 1 to %(most)s places.", most=MAX_PLACES),
            "places",
        )
    return [2 ** (places - rank) for rank in range(1, places + 1)]


@dataclass(frozen=True)
class Award:
    """A placed player's ABT points: their place, label ("3-4") and points."""

    place: int
    label: str
    person: Hashable
    points: Decimal


def abt_points(
    division: str,
    players: int,
    places: Sequence[Sequence[Hashable]],
    *,
    awarded: int = DEFAULT_PLACES,
) -> list[Award]:
    """The points of every player placed within the first ``awarded`` ranks.

    ``places`` are groups of tied players, best first; ``players`` is the attendance.
    A group reaching past the last awarded rank shares the factors of its ranks within
    it (two semi-final losers, three places awarded: they split the third place's).
    """
    factor = division_factor(division)
    factors = standardized_factors(awarded)
    if players < 1:
        raise RuleViolation("too_few_players", N_("A division has at least one player."), "players")
    total = factor * players
    awards: list[Award] = []
    rank = 1
    with localcontext() as context:
        context.prec = 40
        whole = Decimal(sum(factors))
        for group in places:
            members = list(group)
            if not members:
                continue
            if rank > awarded:
                break
            last = rank + len(members) - 1
            shared = sum(factors[rank - 1 : min(last, awarded)])
            each = total * Decimal(shared) / whole / len(members)
            label = str(rank) if last == rank else f"{rank}-{last}"
            for person in members:
                awards.append(
                    Award(rank, label, person, each.quantize(HUNDREDTH, rounding=ROUND_HALF_UP))
                )
            rank = last + 1
    return awards
