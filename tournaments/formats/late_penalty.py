"""The UKBGF late penalty: minutes late → penalty points, or the match lost.

Implements the UKBGF rule as ``docs/calls.md`` states it ("Late penalties"): a player
who is late for a called match gives the opponent one point after 5 minutes, one more
for each further 5 minutes; once the penalty would be beyond half the match length the
match is lost instead.

Exact boundaries, as this module reads the rule:

- ``minutes`` is the time since the round was called. At 4:59 nothing is due; at 5:00
  one point, at 10:00 two, at 5·k minutes k points (``minutes // 5``).
- "Beyond half the match length" compares the points due with N/2: a 7-point match is
  lost at 4 points (20 minutes), since 4 > 3.5; a 4-point match at 3 points, since 2 is
  exactly half, not beyond it. In integers: ``2 × points > N``.
- What a director applies now is what is due minus what was already applied for the
  same lateness (:func:`penalty_to_apply`), so pressing the button twice at 12 minutes
  awards two points in all, not four.

Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .errors import FormatError

#: Minutes of lateness per penalty point.
MINUTES_PER_POINT = 5


@dataclass(frozen=True, slots=True)
class LatePenalty:
    """What a lateness costs: ``points`` to the opponent, or the whole match."""

    minutes_late: int
    points: int
    match_lost: bool

    @property
    def due(self) -> bool:
        return self.match_lost or self.points > 0


def _check(minutes_late: int, match_length: int) -> None:
    if isinstance(minutes_late, bool) or not isinstance(minutes_late, int) or minutes_late < 0:
        raise FormatError(
            "minutes_late_invalid",
            f"Lateness is a whole number of minutes, 0 or more, not {minutes_late!r}.",
            field="minutes_late",
        )
    if isinstance(match_length, bool) or not isinstance(match_length, int) or match_length < 1:
        raise FormatError(
            "penalty_needs_match_length",
            "Late penalties apply to a match to N points (N ≥ 1), not an unlimited session.",
            field="match_length",
        )


def points_lost_at(points: int, match_length: int) -> bool:
    """Is a penalty of ``points`` beyond half the match length (the match is lost)?"""
    return 2 * points > match_length


def late_penalty(minutes_late: int, match_length: int) -> LatePenalty:
    """The whole penalty for ``minutes_late`` whole minutes in an N-point match."""
    _check(minutes_late, match_length)
    points = minutes_late // MINUTES_PER_POINT
    if points_lost_at(points, match_length):
        return LatePenalty(minutes_late=minutes_late, points=points, match_lost=True)
    return LatePenalty(minutes_late=minutes_late, points=points, match_lost=False)


def penalty_to_apply(minutes_late: int, match_length: int, already_applied: int) -> LatePenalty:
    """What to apply now: the penalty due minus the points already applied for it.

    ``match_lost`` stays as the whole penalty says (the match is lost, whatever was
    applied before); ``points`` is what remains to award, never negative.
    """
    if isinstance(already_applied, bool) or not isinstance(already_applied, int):
        raise FormatError(
            "penalty_applied_invalid", "Points already applied are a whole number.", field=None
        )
    whole = late_penalty(minutes_late, match_length)
    remaining = max(0, whole.points - max(0, already_applied))
    return LatePenalty(minutes_late=minutes_late, points=remaining, match_lost=whole.match_lost)


def minutes_until_next_point(minutes_late: int) -> int:
    """Minutes until the next penalty point falls due (for the dashboard)."""
    return MINUTES_PER_POINT - minutes_late % MINUTES_PER_POINT


def own_call(round_called_at: datetime, called_alone_at: datetime | None) -> datetime:
    """When a match was called: its round's call, or, for a match made after it (its
    players were still playing the round before), the moment it was called on its
    own, when it was made (issue 41). Lateness counts from there, never from a call
    made before the players could know their match."""
    if called_alone_at is None or called_alone_at <= round_called_at:
        return round_called_at
    return called_alone_at


def minutes_since(called_at: datetime, now: datetime) -> int:
    """Whole minutes from the call to ``now`` (never negative): the lateness the
    penalty counts."""
    return max(0, int((now - called_at).total_seconds() // 60))
