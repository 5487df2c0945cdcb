"""Payout tables and paying a pool by finishing places.

A payout table is a list of percentages by finishing position (1st, 2nd, ...) that
sums to exactly 100. Positions are the event's places in its prize order
(``tournaments.formats.places``): with the default order, main 1, main 2, then the
semi-final losers. A preset may also say whose places it pays
(:data:`PRESET_PAID_BY`): "Main + consolation 45/22/22/11" pays main 1–2, then the
consolation's winner and runner-up (:data:`COMBINED_PLACES`), whatever the event's
prize order, because under the default order its third and fourth shares would go to
the semi-final losers and the consolation would get nothing.

**Shared places.** Players who share a place (two semi-final losers "3–4") hold the
positions of that place together and split the sum of those positions' percentages
equally. **Splits.** Players who agree to split (two finalists) pool what their places
would pay and share it equally; the director records it. **A table longer than the
field** (four places paid, three players placed) is cut to the positions held and its
percentages scaled back to 100, so the whole pool is always paid.

**Rounding.** Each share is worked out exactly (fractions), then rounded *down* to
the club's smallest unit (the payout unit: 0.01, 1.00, 5.00 ...). What rounding
leaves over is the *remainder*: a stated line, never lost, paid as the pool says
(:class:`Remainder`): to the top-placed player (the default), or kept by the house.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from core.errors import N_, RuleViolation

from .amounts import floor_to_unit, to_percent

Person = Hashable

PRESETS: dict[str, tuple[str, tuple[Decimal, ...]]] = {
    "winner_takes_all": ("Winner takes all", (Decimal(100),)),
    "50_25_12.5_12.5": (
        "50 / 25 / 12.5 / 12.5",
        (Decimal(50), Decimal(25), Decimal("12.5"), Decimal("12.5")),
    ),
    "main_consolation_45_22_22_11": (
        "Main + consolation 45 / 22 / 22 / 11",
        (Decimal(45), Decimal(22), Decimal(22), Decimal(11)),
    ),
    "30_20_15_15_10_10": (
        "30 / 20 / 15 / 15 / 10 / 10",
        (Decimal(30), Decimal(20), Decimal(15), Decimal(15), Decimal(10), Decimal(10)),
    ),
}
"""Payout tables clubs use, by key: (label, percentages by position)."""

MAIN_THEN_CONSOLATION = "main_consolation"
"""The places "main 1–2, then consolation 1–2, then the others"."""

COMBINED_PLACES: dict[str, tuple[tuple[str, int], ...]] = {
    MAIN_THEN_CONSOLATION: (("main", 2), ("consolation", 2)),
}
"""Place lists made of the brackets' own places: (block, how many of its places)."""

PLACE_BLOCKS = ("main", "consolation", "last_chance")
"""The brackets whose remaining places follow a combined list, in this order."""

PRESET_PAID_BY: dict[str, str] = {"main_consolation_45_22_22_11": MAIN_THEN_CONSOLATION}
"""The places a preset pays when the director leaves "paid by" at the event's places:
the preset's name promises them, so they must not depend on the prize order."""


def combine_places(
    blocks: Mapping[str, Sequence[Sequence[Person]]], steps: Sequence[tuple[str, int]]
) -> list[list[Person]]:
    """The places of ``steps`` (``("main", 2)``: main's places 1–2), then every other
    place block by block.

    ``blocks`` are each bracket's places, best first (a place is the people sharing
    it). A step takes a block's places while the place starts within its count, as the
    event's prize order does (``tournaments.formats.places``), so a shared place is
    never cut in two.
    """
    taken = dict.fromkeys(blocks, 0)
    combined: list[list[Person]] = []
    for block, count in steps:
        places = blocks.get(block, [])
        position = 1 + sum(len(p) for p in places[: taken.get(block, 0)])
        while taken.get(block, 0) < len(places) and position <= count:
            place = list(places[taken[block]])
            combined.append(place)
            position += len(place)
            taken[block] = taken.get(block, 0) + 1
    for block in [*PLACE_BLOCKS, *(b for b in blocks if b not in PLACE_BLOCKS)]:
        combined.extend(list(p) for p in blocks.get(block, [])[taken.get(block, 0) :])
    return combined


class Remainder(StrEnum):
    """Where the rounding remainder of a pool goes (a stated line of the ledger)."""

    FIRST = "first"  # to the top-placed player (the first of them if the place is shared)
    HOUSE = "house"  # kept by the club, shown with the rake


def check_table(
    percentages: Sequence[Decimal | int | str], *, field: str = "table"
) -> tuple[Fraction, ...]:
    """The table as exact fractions; refused unless each is 0–100 and they sum to 100."""
    if not percentages:
        raise RuleViolation(
            "empty_payout_table", N_("A payout table pays at least one place."), field
        )
    if len(percentages) > 256:
        raise RuleViolation(
            "payout_table_too_long", N_("A payout table pays at most 256 places."), field
        )
    table = tuple(to_percent(p, field=f"{field}[{i}]") for i, p in enumerate(percentages))
    total = sum(table, Fraction(0))
    if total != 100:
        raise RuleViolation(
            "payout_table_not_100",
            N_("The percentages sum to %(value)g, not 100.", value=float(total)),
            field,
        )
    return table


@dataclass(frozen=True)
class Payment:
    """What one person receives from a pool: ``amount`` cents, rounded to the unit."""

    person: Person
    amount: int
    position: int  # the first position of the place they held
    group: tuple[Person, ...]  # who shared the place (or the split), themselves included


@dataclass(frozen=True)
class Distribution:
    """A pool paid out: the payments, the rounding remainder and where it went.

    Always ``sum(p.amount for p in payments) + house_remainder == net``.
    """

    net: int
    payments: tuple[Payment, ...]
    remainder: int  # cents rounding left over (before it is paid as the pool says)
    house_remainder: int  # the part of ``remainder`` the house keeps (0 or remainder)

    @property
    def paid(self) -> int:
        return sum(p.amount for p in self.payments)

    def amount_of(self, person: Person) -> int:
        return sum(p.amount for p in self.payments if p.person == person)


def entitlements(
    places: Sequence[Sequence[Person]],
    table: Sequence[Fraction],
    splits: Sequence[Sequence[Person]] = (),
) -> dict[Person, tuple[Fraction, int, tuple[Person, ...]]]:
    """Each paid person's exact share of the pool (a fraction of 1), position, group.

    ``places`` are the finishing places best first, each the people sharing it; a
    place of ``m`` people takes the next ``m`` positions. ``splits`` are groups who
    agreed to pool what their places pay and share it equally.
    """
    seen: set[Person] = set()
    held: list[tuple[int, tuple[Person, ...]]] = []  # (first position, people)
    position = 1
    for place in places:
        people = tuple(place)
        if not people:
            continue
        for person in people:
            if person in seen:
                raise RuleViolation(
                    "place_listed_twice",
                    N_("%(person)r holds two places.", person=person),
                    "places",
                )
            seen.add(person)
        held.append((position, people))
        position += len(people)
    paid_positions = min(len(table), position - 1)
    if paid_positions == 0:
        return {}
    held_total = sum(table[:paid_positions], Fraction(0))
    # the positions held pay nothing (a table starting 0 %): all goes by the remainder rule
    scale = Fraction(100) / held_total if held_total else Fraction(0)
    share: dict[Person, tuple[Fraction, int, tuple[Person, ...]]] = {}
    for first, people in held:
        if first > paid_positions:
            break
        last = min(first + len(people) - 1, paid_positions)
        total = sum(table[first - 1 : last], Fraction(0)) * scale / 100
        for person in people:
            share[person] = (total / len(people), first, people)
    in_split: set[Person] = set()
    for group in splits:
        members = tuple(dict.fromkeys(group))
        if len(members) < 2:
            raise RuleViolation(
                "split_too_small", N_("A split is between two or more players."), "splits"
            )
        for person in members:
            if person not in seen:
                raise RuleViolation(
                    "split_player_not_placed",
                    N_("%(person)r has no place to split.", person=person),
                    "splits",
                )
            if person in in_split:
                raise RuleViolation(
                    "split_listed_twice",
                    N_("%(person)r is in two splits.", person=person),
                    "splits",
                )
            in_split.add(person)
        pooled = sum((share[p][0] for p in members if p in share), Fraction(0))
        best = min(share[p][1] if p in share else 10**9 for p in members)
        for person in members:
            share[person] = (pooled / len(members), best, members)
    return share


def distribute(
    net: int,
    places: Sequence[Sequence[Person]],
    table: Sequence[Decimal | int | str],
    *,
    unit: int = 1,
    remainder: Remainder = Remainder.FIRST,
    splits: Sequence[Sequence[Person]] = (),
) -> Distribution:
    """Pay ``net`` cents by ``places`` and ``table``, rounding down to ``unit`` cents.

    The remainder (what rounding leaves, plus the whole pool when nobody is placed)
    goes to the top-placed person or the house, as ``remainder`` says. Nobody placed
    and a remainder "to the first" leaves the whole pool with the house: stated, never
    lost.
    """
    if net < 0:
        raise RuleViolation("negative_pool", N_("A pool cannot pay out less than nothing."), "net")
    if unit < 1:
        raise RuleViolation("invalid_unit", N_("The payout unit is at least one cent."), "unit")
    fractions = check_table(table)
    shares = entitlements(places, fractions, splits)
    rounded = {p: floor_to_unit(net * s, unit) for p, (s, _, _) in shares.items()}
    left = net - sum(rounded.values())
    order = sorted(shares, key=lambda p: shares[p][1])
    house = left
    if remainder is Remainder.FIRST and order:
        rounded[order[0]] += left
        house = 0
    payments = tuple(
        Payment(person=p, amount=rounded[p], position=shares[p][1], group=shares[p][2])
        for p in order
    )
    return Distribution(net=net, payments=payments, remainder=left, house_remainder=house)
