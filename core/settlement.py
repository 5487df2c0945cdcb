"""The fewest transfers that square a set of balances (pure, shared by every app).

Used by the chouette's settlement (``chouette.rules.settlement``) and by an event's
money (``money.rules``): both need "who pays whom" with as few transfers as possible,
and neither may import the other, so the algorithm lives here, in ``core``, with no
Django. Balances are whole numbers (cents): positive is owed money, negative owes.

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

from collections.abc import Hashable, Iterable, Mapping

from core.errors import N_, RuleViolation

#: Up to this many non-zero balances the settlement is the proven minimum.
EXACT_LIMIT = 16

Party = Hashable


def check_zero_sum(amounts: Iterable[int], *, field: str = "payouts") -> None:
    """Refuse balances that do not sum to zero: every amount won is an amount lost."""
    total = sum(amounts)
    if total != 0:
        raise RuleViolation(
            "ledger_not_zero_sum",
            N_(
                "The payouts sum to %(total)s, not 0: every point won is a point lost.", total=total
            ),
            field=field,
        )


def _greedy(balances: dict[Party, int]) -> list[tuple[Party, Party, int]]:
    """Largest debtor pays largest creditor until all square (ties: first seen)."""
    order = {p: i for i, p in enumerate(balances)}
    left = {p: b for p, b in balances.items() if b}
    transfers: list[tuple[Party, Party, int]] = []
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


def _max_zero_sum_groups(players: list[Party], balances: Mapping[Party, int]) -> list[list[Party]]:
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
    groups: list[list[Party]] = []
    current: list[Party] = []
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
    balances: Mapping[Party, int], *, exact_limit: int = EXACT_LIMIT
) -> list[tuple[Party, Party, int]]:
    """Integer transfers ``(payer, payee, amount)`` that square ``balances``.

    Positive balance = is owed money. The fewest possible up to ``exact_limit``
    non-zero balances; a greedy fallback (at most n - 1 transfers) beyond it.
    """
    check_zero_sum(balances.values(), field="balances")
    players = [p for p, b in balances.items() if b]
    if len(players) > exact_limit:
        transfers: list[tuple[Party, Party, int]] = []
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
    result: list[tuple[Party, Party, int]] = []
    order = {p: i for i, p in enumerate(players)}
    for group in _max_zero_sum_groups(players, balances):
        group.sort(key=order.__getitem__)
        result.extend(_greedy({p: balances[p] for p in group}))
    return result
