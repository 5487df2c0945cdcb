"""Every CSV the project writes goes through :func:`writer`, so no cell is a live formula.

A spreadsheet opening a CSV runs a cell that starts with ``=``, ``+``, ``-`` or ``@``
(and some read one starting with a tab or a carriage return the same way): a player
named ``=HYPERLINK("http://evil/")`` would be a link in the director's ledger, and worse
with DDE. As OWASP's "CSV Injection" page describes, such a cell is written with a
single quote before it (``'=HYPERLINK(...)``), which spreadsheets show as text; the csv
module then quotes the cell as usual.

Numbers stay numbers: a cell that is an ``int``, ``float`` or ``Decimal``, or a string
that is a well-formed decimal number (``-12.50``, ``+3``, ASCII digits, one optional
sign and point: the shape ``money.api.common.money`` writes amounts in), is written as
it is, so a negative amount stays a readable, summable number. A name that happens to
be such a number (``-12.50``) stays too: it is a number, not a formula. Anything else
starting with one of those characters is neutralised, whoever wrote it.

Pure code: no Django.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Protocol

#: The first characters a spreadsheet may read as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def safe_cell(value: object) -> object:
    """``value`` as a CSV cell that no spreadsheet runs as a formula (see the module)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


class SafeWriter:
    """``csv.writer`` whose rows pass through :func:`safe_cell` first."""

    def __init__(self, out: _Writable) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> Any:
        return self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: _Writable) -> SafeWriter:
    """The project's CSV writer: use it for every CSV (``csv.writer`` nowhere else)."""
    return SafeWriter(out)
