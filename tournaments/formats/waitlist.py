"""Capped fields: who enters, who waits, who moves up (``docs/calls.md``, "Waitlist").

A capped event takes entries until its capacity is reached; later registrations wait in
the order they came. When a place frees up (a withdrawal before the draw, no-shows
dropped), the waitlist moves up in its order; when check-in is required, a waiting
player who has not checked in is passed over (left waiting, not dropped) so the freed
place goes to someone who is in the room. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiting:
    """A waitlisted entry: its id, its place in the queue (1 first) and its check-in."""

    entry_id: int
    position: int
    checked_in: bool = False


def places_left(capacity: int | None, active: int) -> int | None:
    """Free places in the field (None: uncapped)."""
    if capacity is None:
        return None
    return max(0, capacity - active)


def joins_waitlist(capacity: int | None, active: int) -> bool:
    """Does a new registration wait (the field is full)?"""
    left = places_left(capacity, active)
    return left is not None and left == 0


def next_position(positions: Sequence[int]) -> int:
    """The position a newcomer takes at the back of the queue."""
    return max(positions, default=0) + 1


def moving_up(
    capacity: int | None,
    active: int,
    waiting: Sequence[Waiting],
    *,
    require_check_in: bool = False,
) -> list[int]:
    """The waitlisted entries that move up into the field, in queue order.

    Uncapped: everyone waiting moves up. Capped: as many as there are free places,
    skipping (with ``require_check_in``) those who have not checked in.
    """
    queue = sorted(waiting, key=lambda w: (w.position, w.entry_id))
    eligible = [w for w in queue if w.checked_in or not require_check_in]
    left = places_left(capacity, active)
    chosen = eligible if left is None else eligible[:left]
    return [w.entry_id for w in chosen]


def renumbered(waiting: Sequence[Waiting], promoted: Sequence[int]) -> dict[int, int]:
    """The positions (1, 2, ...) of those still waiting after ``promoted`` moved up."""
    left = [w for w in sorted(waiting, key=lambda w: (w.position, w.entry_id))
            if w.entry_id not in set(promoted)]  # fmt: skip
    return {w.entry_id: index for index, w in enumerate(left, start=1)}
