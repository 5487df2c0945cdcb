"""Squaring up at the end of a chouette: money per player and the fewest transfers.

Source: ``docs/rules.md``, "Ledger and settlement" ("Money = points x the stake per point.
At the end the settlement is the fewest transfers that square everyone").

Money is exact: points are integers and the stake per point is a Decimal with at most
two decimal places, so every amount is a whole number of cents; a finer stake is
refused rather than rounded (a rounding would leave the table a cent short).

**Fewest transfers.** With n players whose balance is not zero, any settlement uses
at least n - k transfers, where k is the largest number of groups the players can be
split into with each group summing to zero (a group of m players needs m - 1
transfers, and fewer would leave the transfer graph split into more zero-sum parts).
Finding k is NP-hard in general (it contains subset-sum), but a chouette has about
ten players, so up to :data:`EXACT_LIMIT` non-zero balances we find k exactly by
dynamic programming over subsets (O(2^n * n)): ``best[mask]`` is the most zero-sum
groups that ``mask`` splits into, and a mask summing to zero adds one group to the
best of its subsets with one player fewer. Within each group of the best split, a
greedy pass (largest debtor pays largest creditor) squares at least one player per
transfer and both on the last, so m - 1 transfers. Beyond the limit we fall back to
pairing equal and opposite balances, then the same greedy pass: at most n - 1
transfers, not always the fewest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from games.rules.errors import RuleViolation

from .payouts import check_zero_sum
from .types import Player

#: Up to this many non-zero balances the settlement is the proven minimum.
EXACT_LIMIT = 16

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
            "invalid_stake", "The stake per point is a Decimal such as 1.00.", field="stake"
        )
    stake = Decimal(stake)
    if not stake.is_finite() or stake <= 0:
        raise RuleViolation(
            "invalid_stake", "The stake per point must be above zero.", field="stake"
        )
    cents = stake * 100
    if cents != cents.to_integral_value():
        raise RuleViolation(
            "stake_below_cent",
            f"A stake of {stake} per point is not a whole number of cents.",
            field="stake",
        )
    return int(cents)


def money_totals(totals: Mapping[Player, int], stake: Decimal) -> dict[Player, Decimal]:
    """Each player's result in money: points x stake per point, exact to the cent."""
    check_zero_sum(totals.values(), field="totals")
    cents = stake_in_cents(stake)
    return {p: (Decimal(points * cents) * CENT).quantize(CENT) for p, points in totals.items()}


def _greedy(balances: dict[Player, int]) -> list[tuple[Player, Player, int]]:
    """Largest debtor pays largest creditor until all square (ties: first seen)."""
    order = {p: i for i, p in enumerate(balances)}
    left = {p: b for p, b in balances.items() if b}
    transfers: list[tuple[Player, Player, int]] = []
    while left:
        debtor = min(left, key=lambda p: (left[p], order[p]))
        creditor = max(left, key=lambda p: (left[p], -order[p]))
        amount = min(-left[debtor], left[creditor])
        transfers.append((debtor, creditor, amount))
        for player, change in ((debtor, amount), (creditor, -amount)):
            left[player] += change
            if not left[player]:
                del left[player]
    return transfers


def _max_zero_sum_groups(
    players: list[Player], balances: Mapping[Player, int]
) -> list[list[Player]]:
    """The largest split of ``players`` into zero-sum groups (DP over subsets)."""
    n = len(players)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + balances[players[low.bit_length() - 1]]
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            value = best[mask ^ low]
            if value > top:
                top = value
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk back: peel one player at a time keeping the optimum; a zero-sum mask closes
    # a group made of the players peeled since the last zero-sum mask.
    groups: list[list[Player]] = []
    current: list[Player] = []
    mask = full
    while mask:
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        gain = 1 if sums[mask] == 0 else 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] + gain == best[mask]:
                current.append(players[low.bit_length() - 1])
                mask ^= low
                break
    if current:
        groups.append(current)
    return groups


def minimum_transfers(
    balances: Mapping[Player, int], *, exact_limit: int = EXACT_LIMIT
) -> list[tuple[Player, Player, int]]:
    """Integer transfers ``(payer, payee, amount)`` that square ``balances``.

    Positive balance = is owed money. The fewest possible up to ``exact_limit``
    non-zero balances; a greedy fallback (at most n - 1 transfers) beyond it.
    """
    check_zero_sum(balances.values(), field="balances")
    players = [p for p, b in balances.items() if b]
    if len(players) > exact_limit:
        transfers: list[tuple[Player, Player, int]] = []
        left = {p: balances[p] for p in players}
        for player in players:
            if not left[player]:
                continue
            mate = next((q for q in players if q != player and left[q] == -left[player]), None)
            if mate is not None:
                debtor, creditor = (player, mate) if left[player] < 0 else (mate, player)
                transfers.append((debtor, creditor, left[creditor]))
                left[player] = left[mate] = 0
        return transfers + _greedy({p: b for p, b in left.items() if b})
    result: list[tuple[Player, Player, int]] = []
    order = {p: i for i, p in enumerate(players)}
    for group in _max_zero_sum_groups(players, balances):
        group.sort(key=order.__getitem__)
        result.extend(_greedy({p: balances[p] for p in group}))
    return result


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
