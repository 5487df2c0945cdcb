"""The Calcutta auction: lots, their buyers and shares, the pool and what each owner wins.

Each *lot* is one player or a group ("the field": the lowest-rated players together).
The auctioneer sells each lot to a buyer (a person) or a syndicate (several people
with shares summing to 100 %). A lot's own players may then buy back part of
themselves, up to a percentage of the lot set by the Calcutta (``buy_back_limit``),
paying that part of the price: the buyers keep the rest, their shares scaled down.

The pool is the sum of the prices; a rake comes off it (a percentage rounded down to
the cent plus a fixed amount) and the net is paid by the Calcutta's own payout table
by the event's places: a lot finishes where its best player finished, lots sharing a
place share what it pays, and an unsold lot is left out (the places it would have
taken pass to the lots below it). Each lot's winnings go to its owners by their shares,
to the cent (largest remainder), as do their contributions to the price.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.errors import N_, RuleViolation

from .amounts import split_exactly

Person = Hashable


@dataclass(frozen=True)
class Sale:
    """A lot sold: its ``price`` (cents), ``owners`` with shares (fractions of 1, summing
    to 1) and the part its players bought back (``buy_backs``: player -> fraction)."""

    lot: str
    price: int
    buyers: tuple[tuple[Person, Fraction], ...]
    buy_backs: tuple[tuple[Person, Fraction], ...] = ()

    @property
    def owners(self) -> tuple[tuple[Person, Fraction], ...]:
        """The owners after buy-backs: buyers scaled down, the players' parts added."""
        bought_back = sum((part for _, part in self.buy_backs), Fraction(0))
        shares: dict[Person, Fraction] = {}
        for person, share in self.buyers:
            shares[person] = shares.get(person, Fraction(0)) + share * (1 - bought_back)
        for person, part in self.buy_backs:
            shares[person] = shares.get(person, Fraction(0)) + part
        return tuple((p, s) for p, s in shares.items() if s)

    def contributions(self) -> dict[Person, int]:
        """What each owner puts into the pool for this lot, summing exactly to the price."""
        owners = self.owners
        amounts = split_exactly(self.price, [s for _, s in owners])
        return _merge(zip((p for p, _ in owners), amounts, strict=True))

    def winnings(self, amount: int) -> dict[Person, int]:
        """``amount`` won by this lot, split among its owners to the cent."""
        owners = self.owners
        amounts = split_exactly(amount, [s for _, s in owners])
        return _merge(zip((p for p, _ in owners), amounts, strict=True))


def _merge(pairs: object) -> dict[Person, int]:
    merged: dict[Person, int] = {}
    for person, amount in pairs:  # type: ignore[attr-defined]
        merged[person] = merged.get(person, 0) + amount
    return merged


def check_sale(sale: Sale, lot_players: Sequence[Person], *, buy_back_limit: Fraction) -> None:
    """Refuse a sale whose shares or buy-backs do not add up."""
    if sale.price <= 0:
        raise RuleViolation("invalid_price", N_("A lot sells for more than nothing."), "price")
    if not sale.buyers:
        raise RuleViolation("no_buyer", N_("A sold lot has a buyer."), "buyers")
    if any(share <= 0 for _, share in sale.buyers):
        raise RuleViolation("invalid_shares", N_("Each buyer's share is above zero."), "buyers")
    if len({p for p, _ in sale.buyers}) != len(sale.buyers):
        raise RuleViolation("buyer_listed_twice", N_("Each buyer is listed once."), "buyers")
    total = sum((share for _, share in sale.buyers), Fraction(0))
    if total != 1:
        raise RuleViolation(
            "shares_not_100",
            N_("The buyers' shares sum to %(value)g %%, not 100 %%.", value=float(total * 100)),
            "buyers",
        )
    bought_back = Fraction(0)
    for person, part in sale.buy_backs:
        if person not in lot_players:
            raise RuleViolation(
                "buy_back_not_in_lot",
                N_("Only a player of the lot may buy part of it back."),
                "player",
            )
        if part <= 0:
            raise RuleViolation("invalid_shares", N_("A buy-back is above zero %."), "percent")
        bought_back += part
    if bought_back > buy_back_limit:
        raise RuleViolation(
            "buy_back_over_limit",
            N_(
                "Players may buy back at most %(value)g %% of their lot.",
                value=float(buy_back_limit * 100),
            ),
            "percent",
        )


def lot_places(
    lots: Mapping[str, Sequence[Person]],
    places: Sequence[Sequence[Person]],
    sold: set[str],
) -> list[list[str]]:
    """The sold lots in finishing order: each where its best player finished.

    Lots whose best players share a place share it; a sold lot none of whose players
    has a place yet is left out.
    """
    lot_of: dict[Person, str] = {}
    for key, players in lots.items():
        for player in players:
            if player in lot_of:
                raise RuleViolation(
                    "player_in_two_lots", N_("%(player)r is in two lots.", player=player), "players"
                )
            lot_of[player] = key
    placed: set[str] = set()
    ordered: list[list[str]] = []
    for place in places:
        group = []
        for player in place:
            lot = lot_of.get(player)
            if lot is not None and lot in sold and lot not in placed:
                placed.add(lot)
                group.append(lot)
        if group:
            ordered.append(group)
    return ordered
