"""The registry of result listeners: who must act, in the same transaction, when a
match's result changes.

This replaces a Django signal. The match services call :func:`announce_result_change`
explicitly, after their write and under their lock, and each registered listener runs
there and then: what a listener writes (a tournament's bracket) commits or fails with
the result itself. Listeners register once, at start-up
(``tournaments/wiring.py``), under a name, so a second registration of the same
name replaces the first rather than running twice.

What counts as a result is decided once, by :meth:`Outcome.differs_from`: the status
class (open, finished, forfeit, void), the winner, and the score once the match is
over. Entering the first game (scheduled → in progress) or any later game of an
unfinished match is not a result: nothing downstream (a bracket, a rating) moves.

Lock order: a listener runs while the announcing service holds the match's row lock.
It may then lock its own rows (the tournament); it must never wait for another
match's lock (see :mod:`core.locking` for the one order every write follows).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

#: Statuses of a match that has no result yet (the score so far is not a result).
OPEN_STATUSES = frozenset({"scheduled", "in_progress"})
#: Statuses whose score is part of the result.
FINAL_STATUSES = frozenset({"finished", "forfeit"})


@dataclass(frozen=True)
class Outcome:
    """A match's result as listeners see it, before or after a write."""

    status: str
    winner_id: int | None
    score: tuple[int, int]

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_STATUSES

    def differs_from(self, other: Outcome) -> bool:
        """Is going from ``other`` to this outcome a change of result?"""
        if self.is_open and other.is_open:
            return False  # games entered or undone in a match nobody has won yet
        if (self.status, self.winner_id) != (other.status, other.winner_id):
            return True
        return self.is_final and self.score != other.score


@dataclass(frozen=True)
class ResultChange:
    """The payload every listener receives: the match (locked and saved by the
    announcing service) and its outcome before and after the write."""

    match_id: int
    match: Any  # games.models.Match; typed loosely so that core imports no app
    previous: Outcome
    current: Outcome


class ResultListener(Protocol):
    """A callable run inside the writing transaction when a match's result changed."""

    def __call__(self, change: ResultChange, /) -> None: ...


_listeners: dict[str, ResultListener] = {}


def register_result_listener(name: str, listener: ResultListener) -> None:
    """Register (or replace) the listener called ``name``; called from an app's ``wiring.py``."""
    _listeners[name] = listener


def result_listeners() -> list[tuple[str, ResultListener]]:
    """The registered listeners, in registration order."""
    return list(_listeners.items())


def announce_result_change(change: ResultChange) -> bool:
    """Run every listener if the result changed; returns whether it did.

    Called by the match services inside their transaction; a listener's error
    propagates and rolls the whole write back.
    """
    if not change.current.differs_from(change.previous):
        return False
    for _name, listener in result_listeners():
        listener(change)
    return True


@contextmanager
def listeners_replaced(**replacements: ResultListener | None) -> Iterator[None]:
    """For tests: swap (or, with None, silence) named listeners for a block."""
    saved = dict(_listeners)
    try:
        for name, listener in replacements.items():
            if listener is None:
                _listeners.pop(name, None)
            else:
                _listeners[name] = listener
        yield
    finally:
        _listeners.clear()
        _listeners.update(saved)
