"""Template filters for money pages: cents shown as amounts, the kinds of ledger line."""

from __future__ import annotations

from django import template

from money.rules import from_cents

register = template.Library()

KINDS = {
    "fee": "Entry fee",
    "buy_back": "Buy-back",
    "registration": "Registration fee",
    "added": "Added money",
    "rake": "Rake",
    "payout": "Payout",
    "remainder": "Rounding remainder",
    "held": "Held until the end",
    "bid": "Calcutta price",
    "winnings": "Calcutta winnings",
}


@register.filter
def cents(value: int | None) -> str:
    """1250 -> "12.50"; negative amounts keep their sign."""
    return str(from_cents(int(value or 0)))


@register.filter
def kind_words(kind: str) -> str:
    return KINDS.get(kind, kind)


@register.filter
def negate(value: int) -> int:
    return -int(value or 0)
