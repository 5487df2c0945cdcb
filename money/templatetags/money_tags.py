"""Template filters for money pages (cents shown as amounts, the kinds of ledger line) and
the payment cell of the director's entry list (a tournaments page)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy

from money.rules import from_cents

register = template.Library()

KINDS = {
    "fee": gettext_lazy("Entry fee"),
    "buy_back": gettext_lazy("Buy-back"),
    "registration": gettext_lazy("Registration fee"),
    "added": gettext_lazy("Added money"),
    "rake": gettext_lazy("Rake"),
    "payout": gettext_lazy("Payout"),
    "remainder": gettext_lazy("Rounding remainder"),
    "held": gettext_lazy("Held until the end"),
    "bid": gettext_lazy("Calcutta price"),
    "winnings": gettext_lazy("Calcutta winnings"),
}


@register.filter
def cents(value: int | None) -> str:
    """1250 -> "12.50" (German "12,50", 123450 -> "1,234.50" / "1.234,50"): the amount
    in the active language's number format; negative amounts keep their sign."""
    return number_format(from_cents(int(value or 0)), 2, use_l10n=True, force_grouping=True)


@register.filter
def cents_plain(value: int | None) -> str:
    """1250 -> "12.50" in every language: for form values the server reads back."""
    return str(from_cents(int(value or 0)))


@register.filter
def kind_words(kind: str) -> str:
    return str(KINDS.get(kind, kind))


@register.filter
def negate(value: int) -> int:
    return -int(value or 0)


@register.simple_tag
def entry_payments(tournament: Any) -> dict[int, dict[str, Any]]:
    """Each entered player's money for the director's entry list (player id -> balance,
    paid, owing mark, last payment): one read of the event's money for the whole list,
    so the tournaments page shows payments without importing money."""
    from money.models import Payment
    from money.selectors import money_view

    view = money_view(tournament)
    last: dict[int, Any] = {}
    if view.event is not None:
        for payment in Payment.objects.filter(event=view.event).order_by("recorded_at", "pk"):
            last[payment.player_id] = payment
    return {
        person.player.pk: {
            "paid": person.paid,
            "balance": person.balance,
            "owes": -person.balance if person.balance < 0 else 0,
            "owing_marked": person.owing_marked,
            "last": last.get(person.player.pk),
        }
        for person in view.people
        if person.player is not None
    }


@register.inclusion_tag("money/_entry_payment.html", takes_context=True)
def entry_payment(context: dict[str, Any], payments: dict[int, Any], entry: Any) -> dict[str, Any]:
    """The payment cell of one entry: balance, last payment and a form to record one."""
    from money.models import PaymentMethod

    request = context.get("request")
    return {
        "tournament": context.get("tournament"),
        "entry": entry,
        "pay": payments.get(entry.player_id),
        "methods": PaymentMethod.choices,
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
    }
