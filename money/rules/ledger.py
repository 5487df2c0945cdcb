"""The event's ledger: every fee, pool, payout, share and rake, and who pays whom.

Every line moves money between a party (a person, or :data:`HOUSE`, the club) and a
pool: ``amount`` is what the party receives (negative: what it puts in). A pool's
lines therefore sum to zero exactly when it balances: *money in equals money out plus
rake*. The house takes the rake, any rounding remainder the pool keeps, registration
fees (which go into no pool) and holds a pool not yet paid (the event is still on);
it puts in the added money. :func:`check_balanced` runs on every ledger built (the
services build one on every write) and refuses one that does not balance.

**Settlement.** Each party's balance is its net across the lines plus what it has
already paid (cash or transfer, marked from the registration page); the balances sum
to zero, and the fewest transfers that square them come from
:func:`core.settlement.minimum_transfers` (the chouette's, shared).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from core.errors import N_, RuleViolation
from core.settlement import minimum_transfers

from .calcutta import Sale, lot_places
from .payouts import Distribution, Remainder, distribute
from .pools import PoolSpec, check_pool, rake
from .pools import pool_places as places_of_pool

Person = Hashable


class _House:
    """The club: takes the rake and registration fees, puts in added money."""

    def __repr__(self) -> str:
        return "HOUSE"

    def __reduce__(self) -> str:
        return "HOUSE"


HOUSE = _House()

CALCUTTA = "calcutta"


@dataclass(frozen=True)
class Line:
    """``party`` receives ``amount`` cents from ``pool`` (negative: pays it in)."""

    party: Person
    amount: int
    kind: str  # fee, buy_back, registration, added, rake, payout, remainder, held, bid, winnings
    pool: str
    note: str = ""


@dataclass(frozen=True)
class CalcuttaSpec:
    """The auction: lots (key -> players), sales, rake and payout table."""

    lots: Mapping[str, Sequence[Person]]
    sales: Sequence[Sale]
    table: tuple[Decimal, ...]
    rake_percent: Fraction = Fraction(0)
    rake_fixed: int = 0
    unit: int = 1
    remainder: Remainder = Remainder.FIRST


@dataclass(frozen=True)
class EventLedger:
    lines: tuple[Line, ...]
    distributions: Mapping[str, Distribution] = field(default_factory=dict)

    def net(self) -> dict[Person, int]:
        """Each party's net across every pool (positive: the event owes it)."""
        totals: dict[Person, int] = {}
        for line in self.lines:
            totals[line.party] = totals.get(line.party, 0) + line.amount
        return totals

    def pool_totals(self, pool: str) -> dict[str, int]:
        """Money in, paid out, rake (with the remainder kept) and held, for one pool."""
        kinds: dict[str, int] = {}
        for line in self.lines:
            if line.pool == pool:
                kinds[line.kind] = kinds.get(line.kind, 0) + line.amount
        return kinds

    @property
    def pools(self) -> list[str]:
        return list(dict.fromkeys(line.pool for line in self.lines))


def check_balanced(ledger: EventLedger) -> None:
    """Every pool's lines sum to zero: money in equals money out plus rake."""
    for pool in ledger.pools:
        total = sum(line.amount for line in ledger.lines if line.pool == pool)
        if total != 0:
            raise RuleViolation(
                "ledger_not_balanced",
                N_(
                    "Pool %(pool)r is %(total)s cents out: money in must equal money out "
                    "plus rake.",
                    pool=pool,
                    total=total,
                ),
                "ledger",
            )


def _pool_lines(
    pool: PoolSpec, places: Sequence[Sequence[Person]] | None
) -> tuple[list[Line], Distribution | None]:
    check_pool(pool)
    lines = [Line(p, -pool.fee, "fee", pool.key) for p in pool.entrants if pool.fee]
    lines += [Line(p, -amount, "buy_back", pool.key) for p, amount in pool.buy_ins if amount]
    if pool.added:
        lines.append(Line(HOUSE, -pool.added, "added", pool.key))
    if pool.rake:
        lines.append(Line(HOUSE, pool.rake, "rake", pool.key))
    if places is None:
        if pool.net:
            lines.append(Line(HOUSE, pool.net, "held", pool.key, "paid out when the event ends"))
        return lines, None
    result = distribute(
        pool.net,
        places_of_pool(pool, places),
        pool.table,
        unit=pool.unit,
        remainder=pool.remainder,
        splits=pool.splits,
    )
    lines += [
        Line(p.person, p.amount, "payout", pool.key, str(p.position))
        for p in result.payments
        if p.amount
    ]
    if result.house_remainder:
        lines.append(Line(HOUSE, result.house_remainder, "remainder", pool.key, "rounding"))
    return lines, result


def _calcutta_lines(
    calcutta: CalcuttaSpec, places: Sequence[Sequence[Person]] | None
) -> tuple[list[Line], Distribution | None]:
    lines: list[Line] = []
    sales = {sale.lot: sale for sale in calcutta.sales}
    for sale in calcutta.sales:
        for person, amount in sale.contributions().items():
            if amount:
                lines.append(Line(person, -amount, "bid", CALCUTTA, sale.lot))
    gross = sum(sale.price for sale in calcutta.sales)
    taken = rake(gross, calcutta.rake_percent, calcutta.rake_fixed)
    if taken:
        lines.append(Line(HOUSE, taken, "rake", CALCUTTA))
    net = gross - taken
    if places is None:
        if net:
            lines.append(Line(HOUSE, net, "held", CALCUTTA, "paid out when the event ends"))
        return lines, None
    ordered = lot_places(calcutta.lots, places, set(sales))
    result = distribute(
        net, ordered, calcutta.table, unit=calcutta.unit, remainder=calcutta.remainder
    )
    for payment in result.payments:
        lot = payment.person  # the Calcutta's places are lots, named by their keys
        assert isinstance(lot, str)
        for person, amount in sales[lot].winnings(payment.amount).items():
            if amount:
                lines.append(Line(person, amount, "winnings", CALCUTTA, str(payment.person)))
    if result.house_remainder:
        lines.append(Line(HOUSE, result.house_remainder, "remainder", CALCUTTA, "rounding"))
    return lines, result


def event_ledger(
    *,
    pools: Sequence[PoolSpec],
    places: Sequence[Sequence[Person]] | None,
    registration: Mapping[Person, int] | None = None,
    calcutta: CalcuttaSpec | None = None,
    pool_places: Mapping[str, Sequence[Sequence[Person]]] | None = None,
) -> EventLedger:
    """The whole event's ledger; ``places`` is None while the event is still on.

    ``pool_places`` gives a pool other places than the event's (a consolation pool is
    paid by the consolation's places); the Calcutta always goes by the event's.
    """
    keys = [pool.key for pool in pools]
    if len(set(keys)) != len(keys) or CALCUTTA in keys or "registration" in keys:
        raise RuleViolation("pool_key_taken", N_("Each pool has its own name."), "pools")
    lines: list[Line] = []
    distributions: dict[str, Distribution] = {}
    for person, amount in (registration or {}).items():
        if amount:
            lines.append(Line(person, -amount, "registration", "registration"))
            lines.append(Line(HOUSE, amount, "registration", "registration"))
    for pool in pools:
        own = places
        if places is not None and pool_places and pool.key in pool_places:
            own = pool_places[pool.key]
        pool_lines, result = _pool_lines(pool, own)
        lines += pool_lines
        if result is not None:
            distributions[pool.key] = result
    if calcutta is not None and calcutta.sales:
        pool_lines, result = _calcutta_lines(calcutta, places)
        lines += pool_lines
        if result is not None:
            distributions[CALCUTTA] = result
    ledger = EventLedger(lines=tuple(lines), distributions=distributions)
    check_balanced(ledger)
    return ledger


def settlement_balances(
    ledger: EventLedger, paid: Mapping[Person, int] | None = None
) -> dict[Person, int]:
    """Each party's balance to settle: its net plus what it already paid the house.

    A person who paid their 50.00 fee in cash has a net of -50.00 and paid 50.00: they
    are square; the house holds the cash (its balance goes down by what it received).
    """
    balances = ledger.net()
    for person, amount in (paid or {}).items():
        if amount:
            balances[person] = balances.get(person, 0) + amount
            balances[HOUSE] = balances.get(HOUSE, 0) - amount
    return {p: b for p, b in balances.items() if b}


def settle(
    ledger: EventLedger, paid: Mapping[Person, int] | None = None
) -> list[tuple[Person, Person, int]]:
    """The fewest transfers ``(payer, payee, cents)`` that square the event."""
    return minimum_transfers(settlement_balances(ledger, paid))
