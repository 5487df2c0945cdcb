"""Writes of event money: one keyword-only function per use case, one transaction each.

Each write locks the event's :class:`~money.models.EventMoney` row (created on the
first write), checks the actor is a director of the club (403 before a stale version's
412), checks ``expected_version`` (the ``If-Match`` the client read), validates the
input with :mod:`money.rules`, writes, then **rebuilds the ledger** from the rows as
they now stand and refuses (rolling everything back) if it does not balance: money in
equals money out plus rake is checked on every write, not just in tests. Then the
version is bumped (the new ETag).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Q

from core import access, locking
from core.actors import Actor
from core.errors import N_
from core.text import require_single_line
from games.models import Player
from games.rules.errors import ConflictError, RuleViolation
from money import rules
from money.models import (
    BuyBack,
    Calcutta,
    ClubMoney,
    EventMoney,
    Lot,
    LotShare,
    PaidBy,
    Payment,
    PaymentMethod,
    Pool,
    Remainder,
)
from money.selectors import build_ledger, club_money
from tournaments.models import Entry, EntryStatus, Pairing, PairingStatus, StageKind, Tournament

T = TypeVar("T")


def require_director(actor: Actor, tournament: Tournament) -> None:
    access.require_director(
        actor, tournament.club, detail="Only the club's directors manage an event's money."
    )


def directors_only(service: Callable[..., T]) -> Callable[..., T]:
    """Refuse a stranger (403) before the service reads or checks anything of the input,
    so nobody learns from a 400 what they may not change; ``_write`` checks again under
    the lock."""

    @functools.wraps(service)
    def guarded(*, actor: Actor, tournament: Tournament, **kwargs: Any) -> T:
        require_director(actor, tournament)
        return service(actor=actor, tournament=tournament, **kwargs)

    return guarded


def _write(
    *,
    actor: Actor,
    tournament: Tournament,
    expected_version: int | None,
    change: Callable[[EventMoney], T],
) -> T:
    """Lock → authorize → version → change → the ledger still balances → bump."""
    with transaction.atomic():
        event, _ = EventMoney.objects.get_or_create(tournament=tournament)
        event = locking.lock_row(EventMoney.objects.all(), event.pk, noun="event money", field=None)
        require_director(actor, tournament)
        locking.check_version(event, expected_version, noun="event money")
        result = change(event)
        build_ledger(tournament, event, club_money(tournament))  # raises if it cannot balance
        locking.bump(event)
        return result


def _cents_field(value: Any, field: str) -> Decimal:
    return rules.from_cents(rules.to_cents(value, field=field))


def _table(table: Sequence[Any] | str, field: str = "table") -> list[str]:
    if isinstance(table, str):
        if table not in rules.PRESETS:
            raise RuleViolation(
                "unknown_preset",
                N_(
                    "Unknown payout preset %(table)r: use one of %(join)s.",
                    table=table,
                    join=", ".join(rules.PRESETS),
                ),
                field,
            )
        table = rules.PRESETS[table][1]
    values = []
    for i, value in enumerate(table):
        if isinstance(value, str):
            try:
                value = Decimal(value)
            except ArithmeticError:
                raise RuleViolation(
                    "invalid_percent", N_("A percentage is a number."), f"{field}[{i}]"
                ) from None
        values.append(value)
    rules.check_table(values, field=field)
    # fixed-point, never exponent: 100 is stored "100", not "1E+2"
    return [format(Decimal(v).normalize(), "f") for v in values]


def _percent(value: Any, field: str) -> Decimal:
    rules.to_percent(value, field=field)
    return Decimal(value)


# --- settings ---------------------------------------------------------------------------


@directors_only
def save_club_money(
    *,
    actor: Actor,
    tournament: Tournament,
    currency: str,
    payout_unit: Decimal,
    publish_payouts: bool,
    publish_calcutta: bool,
) -> ClubMoney:
    """The club's currency, smallest unit paid out and what the public sees."""
    require_director(actor, tournament)
    if not (len(currency) == 3 and currency.isalpha()):
        raise RuleViolation(
            "invalid_currency", N_("A currency is a three-letter code such as EUR."), "currency"
        )
    unit = _cents_field(payout_unit, "payout_unit")
    if unit <= 0:
        raise RuleViolation(
            "invalid_unit", N_("The payout unit is at least one cent."), "payout_unit"
        )
    with transaction.atomic():
        club, _ = ClubMoney.objects.select_for_update().get_or_create(club_id=tournament.club_id)
        club.currency = currency.upper()
        club.payout_unit = unit
        club.publish_payouts = publish_payouts
        club.publish_calcutta = publish_calcutta
        club.save()
        return club


@directors_only
def set_registration_fee(
    *,
    actor: Actor,
    tournament: Tournament,
    registration_fee: Decimal,
    expected_version: int | None = None,
) -> EventMoney:
    """The registration fee: paid by every entry, kept by the club, in no pool."""
    fee = _cents_field(registration_fee, "registration_fee")

    def change(event: EventMoney) -> EventMoney:
        event.registration_fee = fee
        event.save()
        return event

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


# --- pools ------------------------------------------------------------------------------


@directors_only
def save_pool(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    name: str,
    side: bool = False,
    paid_by: str = PaidBy.EVENT,
    fee: Decimal = Decimal(0),
    added: Decimal = Decimal(0),
    rake_percent: Decimal = Decimal(0),
    rake_fixed: Decimal = Decimal(0),
    table: Sequence[Any] | str = "winner_takes_all",
    remainder: str = Remainder.FIRST,
    buy_back_fee: Decimal | None = None,
    buy_back_until_round: int | None = None,
    expected_version: int | None = None,
) -> Pool:
    """Create or change the pool ``key`` (the main pool: ``side=False``, every entry pays)."""
    if not key or len(key) > 40 or not key.replace("-", "").replace("_", "").isalnum():
        raise RuleViolation("invalid_key", N_("A pool key is letters, digits, - and _."), "key")
    if key in (rules.CALCUTTA, "registration"):
        raise RuleViolation("pool_key_taken", N_("%(key)r is reserved.", key=key), "key")
    if not require_single_line(name, field="name").strip():
        raise RuleViolation("name_required", N_("A pool has a name."), "name")
    if paid_by not in PaidBy.values:
        raise RuleViolation(
            "invalid_paid_by",
            N_("A pool is paid by %(join)s.", join=", ".join(PaidBy.values)),
            "paid_by",
        )
    if remainder not in Remainder.values:
        raise RuleViolation(
            "invalid_remainder", N_("The remainder goes to 'first' or 'house'."), "remainder"
        )
    values = {
        "name": name.strip()[:80],
        "side": side,
        "paid_by": paid_by,
        "fee": _cents_field(fee, "fee"),
        "added": _cents_field(added, "added"),
        "rake_percent": _percent(rake_percent, "rake_percent"),
        "rake_fixed": _cents_field(rake_fixed, "rake_fixed"),
        "table": _table(table),
        "remainder": remainder,
        "buy_back_fee": None
        if buy_back_fee is None
        else _cents_field(buy_back_fee, "buy_back_fee"),
        "buy_back_until_round": buy_back_until_round,
    }
    if (buy_back_fee is None) != (buy_back_until_round is None):
        raise RuleViolation(
            "buy_back_incomplete",
            N_("A buy-back needs both its fee and the last round it is open after."),
            "buy_back_until_round",
        )
    if buy_back_until_round is not None and buy_back_until_round < 1:
        raise RuleViolation("invalid_round", N_("Rounds count from 1."), "buy_back_until_round")

    def change(event: EventMoney) -> Pool:
        if (
            not side
            and event.pools.filter(side=False).exclude(key=key).exists()
            and buy_back_fee is None
        ):
            raise ConflictError(
                "main_pool_exists",
                N_("The event has a main pool already: add a side pool, or a pool with buy-backs."),
                "side",
            )
        pool, _ = Pool.objects.update_or_create(
            event=event, key=key, defaults={**values, "order": event.pools.count()}
        )
        return pool

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


@directors_only
def delete_pool(
    *, actor: Actor, tournament: Tournament, key: str, expected_version: int | None = None
) -> None:
    def change(event: EventMoney) -> None:
        pool = _pool(event, key)
        if pool.buy_backs.exists():
            raise ConflictError(
                "pool_has_buy_backs", N_("Players bought into this pool: it stays."), "key"
            )
        pool.delete()

    _write(actor=actor, tournament=tournament, expected_version=expected_version, change=change)


def _pool(event: EventMoney, key: str) -> Pool:
    pool = event.pools.filter(key=key).first()
    if pool is None:
        raise RuleViolation("pool_not_found", N_("The event has no pool %(key)r.", key=key), "pool")
    return pool


def _entries(tournament: Tournament, ids: Sequence[int], field: str) -> list[Entry]:
    found = {e.pk: e for e in Entry.objects.filter(tournament=tournament, pk__in=list(ids))}
    missing = [i for i in ids if i not in found]
    if missing:
        raise RuleViolation(
            "entry_not_found", N_("No entry %(value)s in this event.", value=missing[0]), field
        )
    return [found[i] for i in dict.fromkeys(ids)]


@directors_only
def set_side_pool_entrants(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    entry_ids: Sequence[int],
    expected_version: int | None = None,
) -> Pool:
    """Who is in a side pool (each pays its fee)."""

    def change(event: EventMoney) -> Pool:
        pool = _pool(event, key)
        if not pool.side:
            raise RuleViolation("not_a_side_pool", N_("Every entry is in the main pool."), "pool")
        pool.entrants.set(_entries(tournament, entry_ids, "entries"))
        return pool

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


@directors_only
def set_award_order(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    groups: Sequence[Sequence[int]] | None,
    expected_version: int | None = None,
) -> Pool:
    """The director's decision on who a pool pays, best first (None: by the places)."""

    def change(event: EventMoney) -> Pool:
        pool = _pool(event, key)
        if groups is None:
            pool.award_order = None
        else:
            flat = [e for group in groups for e in group]
            _entries(tournament, flat, "award_order")
            if len(set(flat)) != len(flat):
                raise RuleViolation(
                    "place_listed_twice", N_("Each entry is listed once."), "award_order"
                )
            pool.award_order = [list(group) for group in groups if group]
        pool.save()
        return pool

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


@directors_only
def record_split(
    *,
    actor: Actor,
    tournament: Tournament,
    entry_ids: Sequence[int],
    expected_version: int | None = None,
) -> EventMoney:
    """Players who agreed to split what their places pay (equally); recorded by the director."""
    if len(set(entry_ids)) < 2:
        raise RuleViolation(
            "split_too_small", N_("A split is between two or more players."), "entries"
        )

    def change(event: EventMoney) -> EventMoney:
        _entries(tournament, entry_ids, "entries")
        taken = {e for group in event.splits for e in group}
        if taken & set(entry_ids):
            raise RuleViolation(
                "split_listed_twice", N_("A player is in another split already."), "entries"
            )
        event.splits = [*event.splits, sorted(set(entry_ids))]
        event.save()
        return event

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


@directors_only
def clear_splits(
    *, actor: Actor, tournament: Tournament, expected_version: int | None = None
) -> EventMoney:
    def change(event: EventMoney) -> EventMoney:
        event.splits = []
        event.save()
        return event

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


# --- payments and buy-backs ---------------------------------------------------------------


@directors_only
def record_payment(
    *,
    actor: Actor,
    tournament: Tournament,
    player_id: int,
    amount: Decimal,
    method: str,
    note: str = "",
    expected_version: int | None = None,
) -> Payment:
    """Money a person handed over (cash, transfer), or a mark that they owe it."""
    if method not in PaymentMethod.values:
        raise RuleViolation(
            "invalid_method", N_("Paid by cash, transfer, or marked owing."), "method"
        )
    value = _cents_field(amount, "amount")
    if method != PaymentMethod.OWING and value <= 0:
        raise RuleViolation("invalid_amount", N_("A payment is above zero."), "amount")
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RuleViolation("player_not_found", N_("No such player."), "player")

    def change(event: EventMoney) -> Payment:
        return Payment.objects.create(
            event=event,
            player=player,
            amount=value,
            method=method,
            note=note[:200],
            recorded_by=actor.user,
        )

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


def knocked_out_in(tournament: Tournament, entry: Entry) -> int | None:
    """The main-bracket round the entry lost in (None: not knocked out of the main)."""
    rounds = (
        Pairing.objects.filter(
            Q(entry1=entry) | Q(entry2=entry),
            tournament=tournament,
            status=PairingStatus.PLAYED,
            round__stage__kind__in=(StageKind.MAIN, StageKind.WINNERS),
            stale=False,
        )
        .exclude(winner=entry)
        .values_list("round__number", flat=True)
    )
    return min(rounds, default=None)


@directors_only
def record_buy_back(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    entry_id: int,
    expected_version: int | None = None,
) -> BuyBack:
    """A player knocked out of the main by the pool's deadline round buys into it."""
    entry = _entries(tournament, [entry_id], "entry")[0]
    if entry.status != EntryStatus.ACTIVE:
        raise RuleViolation("entry_withdrawn", N_("A withdrawn entry cannot buy back."), "entry")
    out = knocked_out_in(tournament, entry)

    def change(event: EventMoney) -> BuyBack:
        pool = _pool(event, key)
        if pool.buy_back_fee is None or pool.buy_back_until_round is None:
            raise RuleViolation(
                "no_buy_backs", N_("%(name)s takes no buy-backs.", name=pool.name), "pool"
            )
        if out is None:
            raise RuleViolation(
                "not_knocked_out",
                N_("Only a player knocked out of the main bracket buys back."),
                "entry",
            )
        if out > pool.buy_back_until_round:
            raise RuleViolation(
                "buy_back_closed",
                N_(
                    "Buy-backs close after round %(buy_back_until_round)s; this player "
                    "went out in round %(out)s.",
                    buy_back_until_round=pool.buy_back_until_round,
                    out=out,
                ),
                "entry",
            )
        if pool.buy_backs.filter(entry=entry).exists():
            raise ConflictError(
                "already_bought_back", N_("This player bought into the pool already."), "entry"
            )
        return BuyBack.objects.create(
            pool=pool, entry=entry, amount=pool.buy_back_fee, out_in_round=out
        )

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


# --- the Calcutta ---------------------------------------------------------------------------


@directors_only
def configure_calcutta(
    *,
    actor: Actor,
    tournament: Tournament,
    table: Sequence[Any] | str = "winner_takes_all",
    rake_percent: Decimal = Decimal(0),
    rake_fixed: Decimal = Decimal(0),
    buy_back_limit: Decimal = Decimal(50),
    remainder: str = Remainder.FIRST,
    expected_version: int | None = None,
) -> Calcutta:
    values = {
        "table": _table(table),
        "rake_percent": _percent(rake_percent, "rake_percent"),
        "rake_fixed": _cents_field(rake_fixed, "rake_fixed"),
        "buy_back_limit": _percent(buy_back_limit, "buy_back_limit"),
        "remainder": remainder if remainder in Remainder.values else Remainder.FIRST,
    }

    def change(event: EventMoney) -> Calcutta:
        calcutta, _ = Calcutta.objects.update_or_create(event=event, defaults=values)
        return calcutta

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


def _calcutta(event: EventMoney) -> Calcutta:
    calcutta = Calcutta.objects.filter(event=event).first()
    if calcutta is None:
        raise RuleViolation("no_calcutta", N_("Set up the Calcutta first."), "calcutta")
    return calcutta


@directors_only
def add_lot(
    *,
    actor: Actor,
    tournament: Tournament,
    label: str,
    entry_ids: Sequence[int],
    expected_version: int | None = None,
) -> Lot:
    """A lot: one entry, or a group ("the field"); each entry is in one lot at most."""
    require_single_line(label, field="label")
    if not entry_ids:
        raise RuleViolation("empty_lot", N_("A lot has at least one player."), "entries")

    def change(event: EventMoney) -> Lot:
        calcutta = _calcutta(event)
        entries = _entries(tournament, entry_ids, "entries")
        taken = Lot.entries.through.objects.filter(lot__calcutta=calcutta, entry__in=entries)
        if taken.exists():
            raise ConflictError(
                "player_in_two_lots", N_("A player of this lot is in another lot."), "entries"
            )
        name = label.strip()[:80] or ", ".join(e.player.display_name for e in entries)[:80]
        lot = Lot.objects.create(calcutta=calcutta, label=name, order=calcutta.lots.count())
        lot.entries.set(entries)
        return lot

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


@directors_only
def sell_lot(
    *,
    actor: Actor,
    tournament: Tournament,
    lot_id: int,
    price: Decimal,
    buyers: Sequence[tuple[int, Decimal]],
    expected_version: int | None = None,
) -> Lot:
    """Record the winning bid: the price and the buyer (or a syndicate's shares, in %)."""
    cents = rules.to_cents(price, field="price")
    shares = [(player, _percent(percent, "buyers")) for player, percent in buyers]

    def change(event: EventMoney) -> Lot:
        calcutta = _calcutta(event)
        lot = calcutta.lots.filter(pk=lot_id).first()
        if lot is None:
            raise RuleViolation("lot_not_found", N_("No such lot in this Calcutta."), "lot")
        players = Player.objects.in_bulk([p for p, _ in shares])
        if len(players) != len({p for p, _ in shares}):
            raise RuleViolation("player_not_found", N_("A buyer is not a known player."), "buyers")
        rules.check_sale(
            rules.Sale(
                lot=str(lot.pk),
                price=cents,
                buyers=tuple((p, Fraction(pc) / 100) for p, pc in shares),
            ),
            [],
            buy_back_limit=Fraction(0),
        )
        lot.shares.all().delete()
        lot.price = rules.from_cents(cents)
        lot.save()
        LotShare.objects.bulk_create(
            LotShare(lot=lot, player_id=p, percent=pc, buy_back=False) for p, pc in shares
        )
        return lot

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )


@directors_only
def buy_back_lot(
    *,
    actor: Actor,
    tournament: Tournament,
    lot_id: int,
    entry_id: int,
    percent: Decimal,
    expected_version: int | None = None,
) -> Lot:
    """A player of a sold lot buys back ``percent`` of it, paying that part of the price."""
    part = _percent(percent, "percent")

    def change(event: EventMoney) -> Lot:
        calcutta = _calcutta(event)
        lot = calcutta.lots.filter(pk=lot_id).first()
        if lot is None or lot.price is None:
            raise RuleViolation("lot_not_sold", N_("Only a sold lot can be bought back."), "lot")
        entry = lot.entries.filter(pk=entry_id).first()
        if entry is None:
            raise RuleViolation(
                "buy_back_not_in_lot",
                N_("Only a player of the lot may buy part of it back."),
                "entry",
            )
        shares = list(lot.shares.all())
        rules.check_sale(
            rules.Sale(
                lot=str(lot.pk),
                price=rules.to_cents(lot.price, field="price"),
                buyers=tuple(
                    (s.player_id, Fraction(s.percent) / 100) for s in shares if not s.buy_back
                ),
                buy_backs=tuple(
                    [
                        (s.player_id, Fraction(s.percent) / 100)
                        for s in shares
                        if s.buy_back and s.player_id != entry.player_id
                    ]
                    + [(entry.player_id, Fraction(part) / 100)]
                ),
            ),
            [e.player_id for e in lot.entries.all()],
            buy_back_limit=Fraction(calcutta.buy_back_limit) / 100,
        )
        LotShare.objects.update_or_create(
            lot=lot, player_id=entry.player_id, buy_back=True, defaults={"percent": part}
        )
        return lot

    return _write(
        actor=actor, tournament=tournament, expected_version=expected_version, change=change
    )
