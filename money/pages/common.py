"""What the money pages share: finding the event (a director's, or anyone's), an
amount read in words (the forms' amount fields, :mod:`.forms`), and the director's page
context."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, overload

from django.http import Http404, HttpRequest

from core import access
from core.errors import N_, RuleViolation
from core.numbers import is_ascii_number
from money import rules, selectors
from money.master_points import FORMULA_CHOICES
from money.models import PaidBy, PaymentMethod, Remainder
from money.renderings import calcutta_data
from tournaments.models import EntryStatus, Tournament


def directed_event(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.event_by_slug(slug)
    if not (
        access.is_site_admin(request.user) or access.is_director(request.user, tournament.club)
    ):
        raise Http404
    return tournament


# The largest amount a money column holds (12 digits, 2 after the point) and the largest
# master-point weight (6 digits, 3 after it): bigger input is refused in words here rather
# than overflowing the column as a 500.
AMOUNT_LIMIT = Decimal("1e10")
WEIGHT_LIMIT = Decimal("1e3")


@overload
def amount(
    value: str | None, field: str, *, blank: Decimal = ..., limit: Decimal = ...
) -> Decimal: ...
@overload
def amount(
    value: str | None, field: str, *, blank: None, limit: Decimal = ...
) -> Decimal | None: ...
def amount(
    value: str | None,
    field: str,
    *,
    blank: Decimal | None = Decimal(0),
    limit: Decimal = AMOUNT_LIMIT,
) -> Decimal | None:
    """A form's amount as a Decimal ("12,50" and "12.50" both read); words for bad input."""
    text = (value or "").strip().replace(",", ".")
    if not text:
        return blank
    if not is_ascii_number(text):  # Decimal reads any script's digits ("١٢" is 12)
        raise RuleViolation(
            "invalid_amount", N_("%(text)r is not an amount such as 12.50.", text=text), field
        )
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise RuleViolation(
            "invalid_amount", N_("%(text)r is not an amount such as 12.50.", text=text), field
        ) from None
    if not number.is_finite():
        raise RuleViolation(
            "invalid_amount", N_("%(text)r is not an amount such as 12.50.", text=text), field
        )
    if abs(number) >= limit:
        raise RuleViolation(
            "amount_too_large",
            N_("%(text)r is too large (under %(limit)s).", text=text, limit=f"{limit:,f}"),
            field,
        )
    return number


def preset_of(table: list[Any] | None) -> str:
    """The preset whose percentages ``table`` holds ("custom" for any other table), so a
    form shows what was saved rather than its first choice."""
    if not table:
        return ""
    saved = [Decimal(str(v)) for v in table]
    for key, (_, percentages) in rules.PRESETS.items():
        if saved == list(percentages):
            return key
    return "custom"


def pool_posted(view: selectors.MoneyView, key: str) -> dict[str, Any]:
    """The pool form's values for changing the pool ``key`` (as if posted), or nothing."""
    pool = next((p for p in view.pools if p.key == key), None)
    if pool is None:
        return {}
    preset = preset_of(pool.table)
    return {
        "key": pool.key,
        "name": pool.name,
        "fee": pool.fee,
        "added": pool.added,
        "rake_percent": pool.rake_percent.normalize(),
        "rake_fixed": pool.rake_fixed,
        "preset": preset,
        "table": " / ".join(pool.table) if preset == "custom" else "",
        "paid_by": pool.paid_by,
        "remainder": pool.remainder,
        "buy_back_fee": "" if pool.buy_back_fee is None else pool.buy_back_fee,
        "buy_back_until_round": pool.buy_back_until_round or "",
        "side": pool.side,
    }


def money_context(tournament: Tournament) -> dict[str, Any]:
    view = selectors.money_view(tournament)
    entries = list(selectors.event_entries(tournament))
    by_player = {p.player.pk: p for p in view.people if p.player}
    rows = []
    for entry in entries:
        person = by_player.get(entry.player_id)
        rows.append(
            {
                "entry": entry,
                "person": person,
                "owes": -person.balance if person and person.balance < 0 else 0,
                "due": person.balance if person and person.balance > 0 else 0,
            }
        )
    in_lot = {
        e.pk
        for lot in (view.calcutta.lots.all() if view.calcutta else [])
        for e in lot.entries.all()
    }
    return {
        "tournament": tournament,
        "view": view,
        "entries": entries,
        "active": [e for e in entries if e.status == EntryStatus.ACTIVE],
        "rows": rows,
        "summary": view.pool_summary(),
        "presets": [(key, label) for key, (label, _) in rules.PRESETS.items()],
        "paid_by": PaidBy.choices,
        "remainders": Remainder.choices,
        "methods": PaymentMethod.choices,
        "players": selectors.club_players(tournament.club),
        "free_entries": [e for e in entries if e.pk not in in_lot],
        "lots": event_lots(view),
        "is_director": True,
        "calcutta_preset": preset_of(view.calcutta.table) if view.calcutta else "",
        "payouts_started": selectors.payouts_started(view.event),
        "prize_order": ", ".join(tournament.prize_order),
        "prize_order_text": selectors.prize_order_words(tournament),
        "master_points": _event_master_points(tournament),
        "formulas": FORMULA_CHOICES,
    }


def _event_master_points(tournament: Tournament) -> dict[str, Any]:
    from money.master_points import event_points

    setting = selectors.event_master_points_setting(tournament)
    points = event_points(tournament, setting) if setting else {}
    names = selectors.player_names(points)
    return {
        "setting": setting,
        "points": sorted(((names[p], v) for p, v in points.items()), key=lambda r: -r[1]),
    }


def event_lots(view: selectors.MoneyView) -> list[dict[str, Any]]:
    if view.calcutta is None:
        return []
    data = calcutta_data(view) or {"lots": []}
    lots = {lot.pk: lot for lot in view.calcutta.lots.all()}
    return [{**row, "lot": lots[row["id"]]} for row in data["lots"]]


def section_url(name: str, slug: str) -> str:
    from django.urls import reverse

    return reverse(name, kwargs={"slug": slug})
