"""A prize pool: what goes in (fees, buy-backs, added money), the rake, what is paid.

Money in: each entrant's fee, each buy-back's fee, and the added money (from the club
or a sponsor). The rake (administration fee) is taken from the fees only, never from
added money: a percentage of the fees, rounded down to the cent, plus a fixed amount,
never more than the fees. What is left, the *net*, is paid by the pool's payout table
(:mod:`money.rules.payouts`).

**Side pools** have their own fee and entrants and are paid by the same places, among
their entrants only (:func:`money.rules.payouts.places_for`). A director who decides
otherwise (a pool nobody eligible reached far) names the order to pay in
(``award_order``), which replaces the places for that pool.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from core.errors import N_, RuleViolation

from .payouts import Remainder, check_table

Person = Hashable


@dataclass(frozen=True)
class PoolSpec:
    """One pool of an event, everything in cents.

    ``entrants`` pay ``fee`` each; ``buy_ins`` are extra payments into the pool (a
    buy-back into the consolation: ``(person, amount)``); ``side`` pools pay only their
    entrants; ``award_order`` (director's decision) replaces the places.
    """

    key: str
    fee: int
    entrants: tuple[Person, ...]
    table: tuple[Decimal, ...]
    added: int = 0
    rake_percent: Fraction = Fraction(0)
    rake_fixed: int = 0
    unit: int = 1
    remainder: Remainder = Remainder.FIRST
    side: bool = False
    buy_ins: tuple[tuple[Person, int], ...] = ()
    award_order: tuple[tuple[Person, ...], ...] | None = None
    splits: tuple[tuple[Person, ...], ...] = field(default=())

    @property
    def fees(self) -> int:
        return self.fee * len(self.entrants) + sum(amount for _, amount in self.buy_ins)

    @property
    def gross(self) -> int:
        return self.fees + self.added

    @property
    def rake(self) -> int:
        return rake(self.fees, self.rake_percent, self.rake_fixed)

    @property
    def net(self) -> int:
        return self.gross - self.rake


def rake(fees: int, percent: Fraction, fixed: int) -> int:
    """The rake on ``fees`` cents: ``percent`` of them rounded down, plus ``fixed``.

    Never more than the fees themselves (a rake cannot eat the added money).
    """
    if not 0 <= percent <= 100:
        raise RuleViolation("invalid_percent", N_("A rake is between 0 and 100 %."), "rake_percent")
    if fixed < 0:
        raise RuleViolation(
            "negative_amount", N_("A fixed rake cannot be below zero."), "rake_fixed"
        )
    return min(fees, int(fees * percent / 100) + fixed)


def check_pool(pool: PoolSpec) -> None:
    """Refuse a pool whose numbers cannot work (checked before anything is stored)."""
    if pool.fee < 0 or pool.added < 0:
        raise RuleViolation(
            "negative_amount", N_("Fees and added money cannot be below zero."), "fee"
        )
    if len(set(pool.entrants)) != len(pool.entrants):
        raise RuleViolation(
            "entrant_listed_twice", N_("Each entrant pays into a pool once."), "entrants"
        )
    if pool.unit < 1:
        raise RuleViolation(
            "invalid_unit", N_("The payout unit is at least one cent."), "payout_unit"
        )
    check_table(pool.table)
    rake(pool.fees, pool.rake_percent, pool.rake_fixed)


def pool_places(pool: PoolSpec, places: Sequence[Sequence[Person]]) -> list[list[Person]]:
    """The places this pool pays by: the event's, its entrants' for a side pool, or the
    director's ``award_order``."""
    if pool.award_order is not None:
        return [list(group) for group in pool.award_order if group]
    if not pool.side:
        return [list(place) for place in places]
    eligible = set(pool.entrants) | {person for person, _ in pool.buy_ins}
    kept = [[p for p in place if p in eligible] for place in places]
    return [place for place in kept if place]
