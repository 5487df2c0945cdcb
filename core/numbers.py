"""Numbers typed by people: ASCII digits only.

Python reads every Unicode decimal digit as a digit (``Decimal("١٢") == 12``,
``int("１２") == 12``), so an amount typed in Arabic-Indic or full-width digits went
through as if it were ASCII (issue #25: a payment of ``"١٢"`` was recorded as 12.00).
Nobody types an amount that way on purpose, and a ledger shown in ASCII that was
entered in another script is one a treasurer cannot check against the paper, so an
amount must be written with ASCII digits; anything else is refused naming the field.
Pure: no Django.
"""

from __future__ import annotations

import re

ASCII_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")
"""A decimal number as the API and the forms read it, in ASCII only."""


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is a plain decimal number written with ASCII digits (``12.50``)."""
    return ASCII_NUMBER.fullmatch(text) is not None
