"""The frame of every match write: lock, check, snapshot, commit, announce.

Each match use case (:mod:`~games.services.score_entry`,
:mod:`~games.services.match_disputes`, :mod:`~games.services.match_corrections`,
:mod:`~games.services.match_results`, :mod:`~games.services.tables`) is one
transaction through :class:`core.locking.LockedWrite` started by :func:`begin_write`:
it locks the match row (``select_for_update``), checks the actor may write it, checks
the caller's ``expected_version`` (``If-Match``) and snapshots the outcome, then asks
:func:`~games.services.match_guards.require_writable` whether the match's state allows
this write, validates the whole record with the pure rules in ``games.rules.scoring``
before writing anything, writes, bumps the version, and announces a changed result
(:func:`announce`: the listeners registered in :mod:`core.listeners` run in the same
transaction; follow-up jobs go to the outbox).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.events import emit
from core.listeners import Outcome, ResultChange, announce_result_change
from core.locking import LockedWrite, Rows
from games import events
from games.models import Match, MatchStatus

#: Every match write locks through here: the club and players come with the row.
MATCH_ROWS = Match.objects.select_related("club", "player1", "player2")


def begin_write(
    match_id: int,
    expected_version: int | None,
    authorize: Callable[[Match], Any],
    *,
    rows: Rows[Match] = MATCH_ROWS,
) -> LockedWrite[Match, Outcome]:
    """Lock the match, let ``authorize`` refuse the actor (403 before 412), check the
    ``If-Match`` version, and snapshot the outcome listeners will compare against."""
    return LockedWrite(
        rows,
        match_id,
        noun="match",
        expected_version=expected_version,
        authorize=authorize,
        snapshot=outcome_of,
    )


def outcome_of(match: Match) -> Outcome:
    """The match's result as the listeners compare it (status, winner, score)."""
    return Outcome(
        status=str(match.status), winner_id=match.winner_id, score=(match.score1, match.score2)
    )


#: The outcome of a match nobody has played yet (a new match, e.g. an imported one).
UNPLAYED = Outcome(status=MatchStatus.SCHEDULED.value, winner_id=None, score=(0, 0))


def announce(match: Match, previous: Outcome) -> None:
    """After a write, under the match's lock: if the result changed (see
    :meth:`core.listeners.Outcome.differs_from`; a first game is not a result), run the
    registered result listeners in this transaction, and queue follow-up jobs."""
    change = ResultChange(match.pk, match, previous, outcome_of(match))
    if not announce_result_change(change):
        return
    if match.status == MatchStatus.FINISHED and not previous.is_final:
        emit(
            events.MATCH_FINISHED,
            match_id=match.pk,
            club_id=match.club_id,
            # the facts its handlers decide on (core.events.wanted): an unrated match
            # with no transcript wants no follow-up, and writes no event
            rated=match.rated,
            transcript=bool(match.transcript.strip()),
        )
    elif previous.is_final:
        emit(events.MATCH_RESULT_CHANGED, match_id=match.pk, club_id=match.club_id)
