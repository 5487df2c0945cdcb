"""Which table numbers of a room new matches take (pure: no Django).

A club's events share one room, so the numbers a new match may take are the room's
numbers minus those held by any live match of the club. Directors may reserve a range
of tables for an event (the main event at tables 1-16, the side events elsewhere): an
event with a range takes the lowest free numbers of its range first and then, when its
range is full, the lowest free shared ones; an event without a range takes only shared
numbers, never another event's range. "Shared" is every number of the room outside the
other live events' ranges. A room without a table count is unbounded (as before rooms
existed); a room with one hands out no number above it, so a match that finds no free
table waits without one (``None``) until a table is freed or a director seats it.

The rule is kept that simple so a director can predict it, and so ``docs/directors.md``
can state it in two sentences.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import count

TableRange = tuple[int, int]
"""An inclusive range of table numbers, ``(first, last)``."""


def _in_any(number: int, ranges: Sequence[TableRange]) -> bool:
    return any(first <= number <= last for first, last in ranges)


def _shared(room_tables: int | None, others: Sequence[TableRange]) -> Iterator[int]:
    numbers: Iterable[int] = range(1, room_tables + 1) if room_tables else count(1)
    for n in numbers:
        if not _in_any(n, others):
            yield n


def draw_tables(
    *,
    needed: int,
    held: set[int],
    room_tables: int | None,
    own: TableRange | None = None,
    others: Sequence[TableRange] = (),
) -> list[int | None]:
    """The tables for ``needed`` new matches, in order: numbers, then ``None`` for each
    match that finds no free table.

    ``held``: numbers of the club's live matches; ``own``: this event's reserved range;
    ``others``: the ranges the club's other live events reserved.
    """
    drawn: list[int | None] = []
    taken = set(held)
    sources: list[Iterable[int]] = []
    if own is not None:
        first, last = own
        sources.append(range(first, last + 1))
    sources.append(_shared(room_tables, [*others, *([own] if own else [])]))
    for source in sources:
        for n in source:
            if len(drawn) == needed:
                break
            if n not in taken and (room_tables is None or n <= room_tables):
                drawn.append(n)
                taken.add(n)
        if len(drawn) == needed:
            break
    drawn.extend([None] * (needed - len(drawn)))
    return drawn


def overlapping(candidate: TableRange, ranges: Sequence[TableRange]) -> TableRange | None:
    """The first of ``ranges`` that shares a number with ``candidate``, else None."""
    first, last = candidate
    for other in ranges:
        if first <= other[1] and other[0] <= last:
            return other
    return None
