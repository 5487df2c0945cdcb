"""Where the WBGF check reads an event's buy-in: the money app, which tournaments cannot import.

``money`` builds on ``tournaments`` and never the reverse (import-linter), so the money
app registers a reader here from its ``ready()`` (as result listeners and panels are
registered): ``reader(tournament)`` answers ``(amount, currency)`` or None when the
club keeps no money for the event. Without a reader (money not installed) no buy-in is
known, and the check says so.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

Reader = Callable[[Any], tuple[Decimal, str] | None]

_readers: list[Reader] = []


def register_buy_in(reader: Reader) -> None:
    """Install the buy-in reader (a second call replaces the first: ``ready()`` may run twice)."""
    _readers[:] = [reader]


def buy_in_of(tournament: Any) -> tuple[Decimal, str] | None:
    """The event's buy-in and its currency, or None when nobody recorded one."""
    return _readers[0](tournament) if _readers else None
