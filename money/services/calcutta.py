"""The Calcutta: its terms, its lots, their sale at auction and the players' buy-backs."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from core.actors import Actor
from core.errors import N_
from core.text import require_single_line
from games.models import Player
from games.rules.errors import ConflictError, RuleViolation
from games.services import tenancy
from money import rules
from money.models import Calcutta, EventMoney, Lot, LotShare, Remainder
from tournaments.models import Tournament

from .common import (
    cents_field,
    directors_only,
    entries_by_id,
    event_money_write,
    percent_field,
    refuse_after_payouts,
    table_field,
)


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
        "table": table_field(table),
        "rake_percent": percent_field(rake_percent, "rake_percent"),
        "rake_fixed": cents_field(rake_fixed, "rake_fixed"),
        "buy_back_limit": percent_field(buy_back_limit, "buy_back_limit"),
        "remainder": remainder if remainder in Remainder.values else Remainder.FIRST,
    }

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        before = Calcutta.objects.filter(event=event).first()
        if before is not None and [Decimal(v) for v in before.table] != [
            Decimal(v) for v in cast("list[str]", values["table"])
        ]:
            refuse_after_payouts(event, "table")
        calcutta, _ = Calcutta.objects.update_or_create(event=event, defaults=values)
        return calcutta


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

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        calcutta = _calcutta(event)
        entries = entries_by_id(tournament, entry_ids, "entries")
        taken = Lot.entries.through.objects.filter(lot__calcutta=calcutta, entry__in=entries)
        if taken.exists():
            raise ConflictError(
                "player_in_two_lots", N_("A player of this lot is in another lot."), "entries"
            )
        name = label.strip()[:80] or ", ".join(e.player.display_name for e in entries)[:80]
        lot = Lot.objects.create(calcutta=calcutta, label=name, order=calcutta.lots.count())
        lot.entries.set(entries)
        return lot


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
    shares = [(player, percent_field(percent, "buyers")) for player, percent in buyers]

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        calcutta = _calcutta(event)
        lot = calcutta.lots.filter(pk=lot_id).first()
        if lot is None:
            raise RuleViolation("lot_not_found", N_("No such lot in this Calcutta."), "lot")
        players = Player.objects.in_bulk([p for p, _ in shares])
        if len(players) != len({p for p, _ in shares}):
            raise RuleViolation("player_not_found", N_("A buyer is not a known player."), "buyers")
        tenancy.require_members(
            club=tournament.club, player_ids=[p for p, _ in shares], field="buyers"
        )
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
    part = percent_field(percent, "percent")

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
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
