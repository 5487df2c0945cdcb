"""Squaring up at the end of a chouette: money per player and the fewest transfers.

Source: ``docs/rules.md``, "Ledger and settlement" ("Money = points x the stake per point.
At the end the settlement is the fewest transfers that square everyone").

Money is exact: points are integers and the stake per point is a Decimal with at most
two decimal places, so every amount is a whole number of cents; a finer stake is
refused rather than rounded (a rounding would leave the table a cent short).

The fewest transfers are found by :func:`core.settlement.minimum_transfers`
(shared with the event money of ``money.rules``); its docstring gives the method.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from core.errors import N_
from core.settlement import EXACT_LIMIT, check_zero_sum, minimum_transfers
from games.rules.errors import RuleViolation

from .types import Player

CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (a positive Decimal, in money, to the cent)."""

    payer: Player
    payee: Player
    amount: Decimal


def stake_in_cents(stake: Decimal) -> int:
    if isinstance(stake, bool) or not isinstance(stake, Decimal | int):
        raise RuleViolation(
            "invalid_stake", N_("The stake per point is a Decimal such as 1.00."), field="stake"
        )
    stake = Decimal(stake)
    if not stake.is_finite() or stake <= 0:
        raise RuleViolation(
            "invalid_stake", N_("The stake per point must be above zero."), field="stake"
        )
    cents = stake * 100
    if cents != cents.to_integral_value():
        raise RuleViolation(
            "stake_below_cent",
            N_("A stake of %(stake)s per point is not a whole number of cents.", stake=stake),
            field="stake",
        )
    return int(cents)


def money_totals(totals: Mapping[Player, int], stake: Decimal) -> dict[Player, Decimal]:
    """Each player's result in money: points x stake per point, exact to the cent."""
    check_zero_sum(totals.values(), field="totals")
    cents = stake_in_cents(stake)
    return {p: (Decimal(points * cents) * CENT).quantize(CENT) for p, points in totals.items()}


def settle(
    totals: Mapping[Player, int], stake: Decimal, *, exact_limit: int = EXACT_LIMIT
) -> list[Transfer]:
    """The fewest money transfers that square everyone at ``stake`` per point."""
    check_zero_sum(totals.values(), field="totals")
    cents = stake_in_cents(stake)
    transfers = minimum_transfers(
        {p: points * cents for p, points in totals.items()}, exact_limit=exact_limit
    )
    return [
        Transfer(payer, payee, (Decimal(amount) * CENT).quantize(CENT))
        for payer, payee, amount in transfers
    ]
