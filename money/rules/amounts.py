"""Money amounts: Decimals at the edges, whole cents inside.

Every amount the rules compute is an ``int`` of the currency's minor unit (cents),
so sums are exact and "money in equals money out" can be checked with ``==``. Amounts
arrive and leave as :class:`~decimal.Decimal` (never floats): :func:`to_cents`
refuses a float, a non-finite value or anything finer than a cent instead of rounding
it, because a silent rounding is a cent that goes missing from the ledger.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from core.errors import N_, RuleViolation

CENT = Decimal("0.01")


def to_cents(amount: Decimal | int, *, field: str, allow_negative: bool = False) -> int:
    """``Decimal("12.50")`` -> 1250; a float, NaN or a fraction of a cent is refused."""
    if isinstance(amount, bool) or not isinstance(amount, Decimal | int):
        raise RuleViolation(
            "invalid_amount", N_("An amount is a decimal number such as 12.50."), field=field
        )
    amount = Decimal(amount)
    if not amount.is_finite():
        raise RuleViolation("invalid_amount", N_("An amount must be a finite number."), field=field)
    if amount < 0 and not allow_negative:
        raise RuleViolation("negative_amount", N_("An amount cannot be below zero."), field=field)
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise RuleViolation(
            "amount_below_cent",
            N_("%(amount)s is not a whole number of cents.", amount=amount),
            field=field,
        )
    return int(cents)


def from_cents(cents: int) -> Decimal:
    """1250 -> ``Decimal("12.50")``."""
    return (Decimal(cents) * CENT).quantize(CENT)


def to_percent(value: Decimal | int | str, *, field: str) -> Fraction:
    """A percentage from 0 to 100 as an exact fraction (``Decimal("12.5")`` -> 25/2)."""
    if isinstance(value, bool | float):
        raise RuleViolation(
            "invalid_percent", N_("A percentage is a decimal number such as 12.5."), field=field
        )
    try:
        number = Decimal(value)
    except (ArithmeticError, TypeError, ValueError):
        raise RuleViolation(
            "invalid_percent", N_("A percentage is a decimal number such as 12.5."), field=field
        ) from None
    if not number.is_finite() or not 0 <= number <= 100:
        raise RuleViolation(
            "invalid_percent", N_("A percentage must be between 0 and 100."), field=field
        )
    return Fraction(number)


def floor_to_unit(amount: Fraction, unit: int) -> int:
    """The largest multiple of ``unit`` cents not above ``amount`` (cents, exact)."""
    return int(amount // unit) * unit


def split_exactly(total: int, weights: list[Fraction]) -> list[int]:
    """Split ``total`` cents in proportion to ``weights``, summing exactly to ``total``.

    Largest remainder method: everyone gets the floor of their exact share, and the
    cents left over go one each to the largest fractional parts (earlier first on a
    tie). Used where a split must be to the cent and nothing may be left over (the
    owners of a Calcutta lot, a syndicate's contributions).
    """
    weight_sum = sum(weights, Fraction(0))
    if weight_sum <= 0:
        raise RuleViolation("invalid_shares", N_("Shares must add up to more than zero."))
    exact = [Fraction(total) * w / weight_sum for w in weights]
    floors = [int(x // 1) for x in exact]
    left = total - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:left]:
        floors[i] += 1
    return floors
