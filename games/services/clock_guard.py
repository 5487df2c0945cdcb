"""Clocks enforced where required: the entry that ends a match without a clock.

Where a match's policy (``games.clock_policies``: its round's, else its event's) says
clocks are *required*, a result that ends the match, a final score or the game that
wins it, is taken only from a match that ran a clock. A player's entry without one is
refused (409 ``clock_required``, the detail says why and who can help); a director may
enter it anyway with a reason (a clock that broke, a table clock), which goes to the
match's audit trail like a forfeit's or a reopening's. A director without a reason is
told to give one (400 ``clock_override_reason_required``).

Checked only for the entry that ends the match, so the hot path of every other game
costs nothing more.
"""

from __future__ import annotations

from core.errors import N_
from games.clock_policies import REQUIRED, clock_policy_of
from games.models import Match, MatchClock
from games.rules.errors import ConflictError, RuleViolation
from games.rules.limits import MAX_REASON

#: The API's and the entry form's name for the director's reason.
REASON_FIELD = "clock_override_reason"


def clock_missing(match_id: int) -> bool:
    """The match's policy requires a clock and none was started for it."""
    if clock_policy_of(match_id).policy != REQUIRED:
        return False
    return not MatchClock.objects.filter(match_id=match_id).exists()


def require_clock_or_override(match: Match, *, director: bool, reason: str) -> None:
    """Refuse a clockless final result where a clock is required, unless a director
    gives a reason; the reason becomes the audit trail's note for this write."""
    if not clock_missing(match.pk):
        return
    if not director:
        raise ConflictError(
            "clock_required",
            N_(
                "This round requires a clock and this match was not played on one, so "
                "its final result cannot be entered by a player. Ask a director: they "
                "can enter it with a reason."
            ),
            field="score",
        )
    reason = reason.strip()
    if not reason:
        raise RuleViolation(
            "clock_override_reason_required",
            N_(
                "This round requires a clock and none was used: say why the result "
                "stands without one (it goes to the match's audit trail)."
            ),
            field=REASON_FIELD,
        )
    if len(reason) > MAX_REASON:
        raise RuleViolation(
            "clock_override_reason_too_long",
            N_("A reason is at most %(max)s characters.", max=MAX_REASON),
            field=REASON_FIELD,
        )
    match._change_reason = f"clock override by a director: {reason}"
