"""The money history of an event: who changed what, and when, before and after.

django-simple-history keeps every version of the event's money rows (its fees and
splits, pools and who is in a side pool, buy-backs, payments, the Calcutta, its lots
(with their entries) and shares, the master points setting and the club's money
settings); this module reads them back, newest
first, and says per version which fields changed compared with the version before.
The money itself is derived from these rows, so this trail is the whole story of how
the payouts came to be. A fixed number of queries, whatever the event's size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.utils.translation import gettext_lazy as _

from games.models import Player
from tournaments.models import Entry, Tournament

from .models import (
    BuyBack,
    Calcutta,
    ClubMoney,
    EventMasterPoints,
    EventMoney,
    Lot,
    LotShare,
    Payment,
    Pool,
)

ACTIONS = {"+": _("created"), "~": _("changed"), "-": _("deleted")}
#: The fields' names as the history shows them, translated (the models' own verbose
#: names are English: a German page showed "paid by: event").
FIELD_LABELS = {
    "registration_fee": _("registration fee"),
    "splits": _("splits"),
    "name": _("name"),
    "side": _("side"),
    "paid_by": _("paid by"),
    "fee": _("fee"),
    "added": _("added"),
    "rake_percent": _("rake percent"),
    "rake_fixed": _("rake fixed"),
    "table": _("table"),
    "remainder": _("remainder"),
    "buy_back_fee": _("buy back fee"),
    "buy_back_until_round": _("buy back until round"),
    "award_order": _("award order"),
    "entrants": _("entrants"),
    "amount": _("amount"),
    "out_in_round": _("out in round"),
    "method": _("method"),
    "note": _("note"),
    "buy_back_limit": _("buy back limit"),
    "label": _("label"),
    "price": _("price"),
    "entries": _("entries"),
    "percent": _("percent"),
    "buy_back": _("buy back"),
    "formula": _("formula"),
    "event_weight": _("event weight"),
    "division_weight": _("division weight"),
    "currency": _("currency"),
    "payout_unit": _("payout unit"),
    "publish_payouts": _("publish payouts"),
    "publish_calcutta": _("publish calcutta"),
}
LIMIT = 500
"""The newest versions shown (a long auction writes many)."""


@dataclass
class Change:
    field: str
    before: Any
    after: Any


@dataclass
class HistoryEntry:
    at: datetime
    who: str | None
    action: str
    subject: str
    changes: list[Change] = field(default_factory=list)


def _versions(model: Any, **filters: Any) -> list[Any]:
    return list(
        model.history.filter(**filters)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )


def _members(through: Any, records: list[Any]) -> None:
    """Attach to each version of a row with a many-to-many history (a side pool's
    entrants, a lot's entries) the entry ids it had then, as ``members`` (sorted), with
    one query: simple-history snapshots the membership with each version, and a change
    of the membership alone is a version of its own."""
    members: dict[int, list[int]] = {r.history_id: [] for r in records}
    for history_id, entry_id in through.objects.filter(history_id__in=members).values_list(
        "history_id", "entry_id"
    ):
        members[history_id].append(entry_id)
    for record in records:
        record.members = tuple(sorted(members[record.history_id]))


def _value(record: Any, name: str) -> Any:
    """A field of a version; a many-to-many field is the ``members`` :func:`_members`
    attached."""
    field_ = record.instance_type._meta.get_field(name)
    return record.members if field_.many_to_many else getattr(record, name)


def _entries(
    records: Iterable[Any], fields: tuple[str, ...], subject: Callable[[Any], str], show: Any
) -> list[HistoryEntry]:
    out = []
    previous: dict[int, Any] = {}
    for record in records:
        before = previous.get(record.id)
        previous[record.id] = record
        changes = []
        for name in fields:
            old = None if before is None or record.history_type == "+" else _value(before, name)
            new = None if record.history_type == "-" else _value(record, name)
            if record.history_type == "-":
                old = _value(record, name)
            if record.history_type == "+" and new in (None, "", [], {}, ()):
                continue  # a new row's empty fields say nothing
            if old != new:
                field_ = record.instance_type._meta.get_field(name)
                label = str(FIELD_LABELS.get(name, field_.verbose_name))
                # a choice shows as the form offered it ("Cash"), not its stored value
                shown = dict(field_.flatchoices) if field_.choices else {}
                changes.append(
                    Change(
                        label,
                        show(name, shown.get(old, old) if isinstance(old, str) else old),
                        show(name, shown.get(new, new) if isinstance(new, str) else new),
                    )
                )
        if record.history_type == "~" and not changes:
            continue  # a save that changed only bookkeeping (the version)
        user = record.history_user
        out.append(
            HistoryEntry(
                at=record.history_date,
                who=user.get_username() if user is not None else None,
                action=str(ACTIONS.get(record.history_type, record.history_type)),
                subject=subject(record),
                changes=changes,
            )
        )
    return out


def money_history(tournament: Tournament) -> list[HistoryEntry]:
    """Newest first: every version of the event's money rows (at most :data:`LIMIT`)."""
    events = _versions(EventMoney, tournament_id=tournament.pk)
    event_ids = {r.id for r in events}
    pools = _versions(Pool, event_id__in=event_ids)
    buy_backs = _versions(BuyBack, pool_id__in={r.id for r in pools})
    payments = _versions(Payment, event_id__in=event_ids)
    calcuttas = _versions(Calcutta, event_id__in=event_ids)
    lots = _versions(Lot, calcutta_id__in={r.id for r in calcuttas})
    shares = _versions(LotShare, lot_id__in={r.id for r in lots})
    points = _versions(EventMasterPoints, tournament_id=tournament.pk)
    club = _versions(ClubMoney, club_id=tournament.club_id)
    players = dict(
        Player.objects.filter(
            pk__in={r.player_id for r in [*payments, *shares]}
            | set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
        ).values_list("pk", "display_name")
    )
    entry_names = {
        pk: players.get(player, f"entry {pk}")
        for pk, player in Entry.objects.filter(tournament=tournament).values_list("pk", "player_id")
    }
    _members(apps.get_model("money", "HistoricalPool_entrants"), pools)
    _members(apps.get_model("money", "HistoricalLot_entries"), lots)
    pool_names = {r.id: r.name for r in pools}
    lot_names = {r.id: r.label for r in lots}

    def show(name: str, value: Any) -> Any:
        if value is None:
            return None
        if name in ("splits", "award_order"):
            return " | ".join(", ".join(entry_names.get(e, str(e)) for e in g) for g in value)
        if name in ("entrants", "entries"):
            return ", ".join(entry_names.get(e, str(e)) for e in value) or "—"
        if name == "table":
            return " / ".join(format(Decimal(str(v)), "f") for v in value)
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return value

    entries = [
        *_entries(events, ("registration_fee", "splits"), lambda r: str(_("event money")), show),
        *_entries(
            pools,
            (
                "name",
                "side",
                "paid_by",
                "fee",
                "added",
                "rake_percent",
                "rake_fixed",
                "table",
                "remainder",
                "buy_back_fee",
                "buy_back_until_round",
                "award_order",
                "entrants",
            ),
            lambda r: str(_("pool: %(name)s") % {"name": r.name}),
            show,
        ),
        *_entries(
            buy_backs,
            ("amount", "out_in_round"),
            lambda r: str(
                _("buy-back: %(name)s (%(pool)s)")
                % {
                    "name": entry_names.get(r.entry_id, r.entry_id),
                    "pool": pool_names.get(r.pool_id, r.pool_id),
                }
            ),
            show,
        ),
        *_entries(
            payments,
            ("amount", "method", "note"),
            lambda r: str(_("payment: %(name)s") % {"name": players.get(r.player_id, r.player_id)}),
            show,
        ),
        *_entries(
            calcuttas,
            ("rake_percent", "rake_fixed", "table", "remainder", "buy_back_limit"),
            lambda r: str(_("Calcutta")),
            show,
        ),
        *_entries(
            lots,
            ("label", "price", "entries"),
            lambda r: str(_("lot: %(name)s") % {"name": r.label}),
            show,
        ),
        *_entries(
            shares,
            ("percent", "buy_back"),
            lambda r: str(
                _("lot %(lot)s: %(name)s")
                % {
                    "lot": lot_names.get(r.lot_id, r.lot_id),
                    "name": players.get(r.player_id, r.player_id),
                }
            ),
            show,
        ),
        *_entries(
            points,
            ("formula", "event_weight", "division_weight"),
            lambda r: str(_("master points")),
            show,
        ),
        *_entries(
            club,
            ("currency", "payout_unit", "publish_payouts", "publish_calcutta"),
            lambda r: str(_("club settings")),
            show,
        ),
    ]
    entries.sort(key=lambda e: e.at, reverse=True)
    return entries[:LIMIT]
