"""Master points: versioned formulas that turn an event's results into points.

The first formula is the USBGF's of 2019, as the issue quotes it:

- **match wins**: each match won earns ``EventWeight x DivWeight x sqrt(length) / 3``;
- **placement**: ``EventWeight x DivWeight x 0.6 x log2(players) x RankFactor``, where
  RankFactor is 1.0 for first, 0.7 for second and ``1 / (R - 1)`` for rank R from third.
  Players tied over ranks R..R+k-1 (two semi-final losers) each get the average of
  those ranks' factors ("ties spread").

Formulas are versioned: a club's table names the version it awarded with, so points
already awarded never change when a later formula is added. Points are Decimals
rounded half-up to 0.01 at the end of each award (never floats).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext

from core.errors import N_, RuleViolation

Person = Hashable
HUNDREDTH = Decimal("0.01")


@dataclass(frozen=True)
class Weights:
    """The event's weight and its division's weight (1 for a club's ordinary event)."""

    event: Decimal = Decimal(1)
    division: Decimal = Decimal(1)


def _check(weights: Weights) -> None:
    for name, value in (("event_weight", weights.event), ("division_weight", weights.division)):
        if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
            raise RuleViolation("invalid_weight", N_("A weight is a decimal number from 0."), name)


def _log2(n: int) -> Decimal:
    with localcontext() as context:
        context.prec = 40
        return Decimal(n).ln() / Decimal(2).ln()


def usbgf_2019_match_win(weights: Weights, length: int) -> Decimal:
    """Points for one match won at ``length`` points."""
    _check(weights)
    if length < 1:
        raise RuleViolation("invalid_length", N_("A match is at least 1 point long."), "length")
    with localcontext() as context:
        context.prec = 40
        value = weights.event * weights.division * Decimal(length).sqrt() / 3
    return value.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


def usbgf_2019_rank_factor(rank: int) -> Decimal:
    if rank < 1:
        raise RuleViolation("invalid_rank", N_("Ranks count from 1."), "rank")
    if rank == 1:
        return Decimal(1)
    if rank == 2:
        return Decimal("0.7")
    with localcontext() as context:
        context.prec = 40
        return Decimal(1) / Decimal(rank - 1)


def usbgf_2019_placement(
    weights: Weights, players: int, places: Sequence[Sequence[Person]]
) -> dict[Person, Decimal]:
    """Placement points for every placed person (``places`` best first, ties grouped)."""
    _check(weights)
    if players < 2:
        raise RuleViolation("too_few_players", N_("Placement points need two players."), "players")
    with localcontext() as context:
        context.prec = 40
        base = weights.event * weights.division * Decimal("0.6") * _log2(players)
        points: dict[Person, Decimal] = {}
        rank = 1
        for place in places:
            group = list(place)
            if not group:
                continue
            factors = [usbgf_2019_rank_factor(r) for r in range(rank, rank + len(group))]
            share = base * sum(factors, Decimal(0)) / len(group)
            for person in group:
                if person in points:
                    raise RuleViolation(
                        "place_listed_twice",
                        N_("%(person)r holds two places.", person=person),
                        "places",
                    )
                points[person] = share.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)
            rank += len(group)
    return points


@dataclass(frozen=True)
class Formula:
    """One version of the master-point formula."""

    version: str
    match_win: Callable[[Weights, int], Decimal]
    placement: Callable[[Weights, int, Sequence[Sequence[Person]]], dict[Person, Decimal]]


FORMULAS: dict[str, Formula] = {
    "usbgf-2019": Formula("usbgf-2019", usbgf_2019_match_win, usbgf_2019_placement),
}
"""Every formula by version; a new version is added, never an old one changed."""


def award(
    version: str,
    weights: Weights,
    *,
    players: int,
    places: Sequence[Sequence[Person]],
    match_wins: Sequence[tuple[Person, int]],
) -> dict[Person, Decimal]:
    """Each person's points for one event: placement plus every match won (by length)."""
    formula = FORMULAS.get(version)
    if formula is None:
        raise RuleViolation(
            "unknown_formula",
            N_(
                "Unknown formula %(version)r: use %(join)s.",
                version=version,
                join=", ".join(FORMULAS),
            ),
            "formula",
        )
    totals = dict(formula.placement(weights, players, places))
    for person, length in match_wins:
        totals[person] = totals.get(person, Decimal(0)) + formula.match_win(weights, length)
    return totals
