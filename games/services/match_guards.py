"""Who may write a match, and what a match's state still allows.

Every match write asks, after locking the row: may this actor write (a participant,
a director of the club, a site admin: :func:`require_writer`, or directors only:
:func:`require_match_director`), then may this kind of write (:class:`Write`) touch a
match in this state (:func:`require_writable`)? A void, forfeited or confirmed result
stays closed; only :func:`~games.services.match_results.reopen_match` takes a void or
a forfeit back.
"""

from __future__ import annotations

from enum import StrEnum

from core.actors import Actor
from core.errors import N_
from games.models import Confirmation, Match, MatchStatus
from games.rules.errors import ConflictError, NotAllowed

from .actors import is_match_director, participant_side


def require_writer(actor: Actor, match: Match, *, director: bool | None = None) -> bool:
    """Participants, the club's directors and site admins write; returns is_director
    (``director``: already known, e.g. from the locking query of
    :func:`~games.services.score_entry.record_game`)."""
    if director is None or actor.is_admin:
        director = is_match_director(actor, match)
    if not director and participant_side(actor, match) is None:
        raise NotAllowed(
            "not_a_participant",
            N_("Only the two players of this match and its club's directors may change it."),
        )
    return director


def require_match_director(actor: Actor, match: Match) -> None:
    if not is_match_director(actor, match):
        raise NotAllowed(
            "directors_only", N_("Only the club's directors may do this (corrections, voids).")
        )


class Write(StrEnum):
    """The kinds of write a match service makes, as :func:`require_writable` knows them."""

    ENTER = "enter"  # record a game or a final score
    CONFIRM = "confirm"
    DISPUTE = "dispute"
    RESOLVE = "resolve"  # a director closes an open dispute
    UNDO = "undo"
    CORRECT = "correct"  # a director corrects or removes a game, or the final score
    VOID = "void"
    FORFEIT = "forfeit"
    SCORE_LINKS = "score_links"  # hand out the players' private score links
    REOPEN = "reopen"


#: Writes that reach a finished, confirmed match to be refused by the rules of the
#: service itself, whose answer is the more precise one (a game after the end is 400
#: ``game_after_match_end``, a second result 409 ``result_already_recorded``).
_FINAL_ANYONE_WRITES = frozenset({Write.ENTER})


#: Writes a director may still make to a finished match whose result is confirmed.
_FINAL_DIRECTOR_WRITES = _FINAL_ANYONE_WRITES | frozenset(
    {Write.RESOLVE, Write.UNDO, Write.CORRECT, Write.VOID, Write.FORFEIT}
)


#: Writes a director may make to a void or forfeited match: reopening it, and closing
#: a dispute left open when it was closed (neither touches the result).
_CLOSED_DIRECTOR_WRITES = frozenset({Write.RESOLVE, Write.REOPEN})


def is_closed(match: Match) -> bool:
    """Void, forfeited, or finished with its result confirmed: the result is final."""
    if match.status in (MatchStatus.VOID, MatchStatus.FORFEIT):
        return True
    return match.status == MatchStatus.FINISHED and match.confirmation == Confirmation.CONFIRMED


def require_writable(match: Match, write: Write, *, director: bool) -> None:
    """The one check every match write makes of the match's state (after the caller's
    permission and ``If-Match``): may this write touch a match in this state?

    A closed result must stay closed: a correction that re-derives the status from the
    games would otherwise quietly turn a void or a forfeit back into a result (and
    rate it), so closed states allow only the writes below, and undoing a void or a
    forfeit is its own explicit, audited write (:func:`~games.services.match_results.reopen_match`).

    ======================================  ============================================
    state                                   writes allowed (every other answers 409)
    ======================================  ============================================
    scheduled, in progress                  all but reopen (the other rules of each
                                            service still apply)
    finished, not yet confirmed             all but reopen: the opponent confirms or
    (pending, disputed)                     disputes, the author undoes, a director
                                            corrects, voids or forfeits
    finished and confirmed                  directors: correct/remove a game or the
                                            final score, undo, resolve, void, forfeit;
                                            players (and score links): nothing (an
                                            entry passes on to the scoring rules,
                                            which refuse it with their own code)
    void, forfeit                           directors only: reopen, resolve a dispute
                                            left open; nothing else, not even a second
                                            void or forfeit (reopen first)
    ======================================  ============================================

    Refusals are :class:`ConflictError` ``match_closed`` naming the state, or
    ``match_not_closed`` for a reopen of a match that is not void or forfeited.
    Tournament code acts through the same services as a director (its system actor)
    and needs no way around this: a withdrawal forfeits only matches still open, and
    a redraw, a swap or a bracket change voids only matches nobody has started.
    """
    if write == Write.REOPEN:
        if match.status not in (MatchStatus.VOID, MatchStatus.FORFEIT):
            raise ConflictError(
                "match_not_closed",
                N_(
                    "The match is %(state)s: only a void or forfeited match is reopened.",
                    state=state_name(match),
                ),
            )
        return
    if not is_closed(match):
        return
    voided = match.status in (MatchStatus.VOID, MatchStatus.FORFEIT)
    allowed = _CLOSED_DIRECTOR_WRITES if voided else _FINAL_DIRECTOR_WRITES
    if write in _FINAL_ANYONE_WRITES and not voided:
        return
    if director and write in allowed:
        return
    if voided:
        hint = "a director of the club reopens it first (POST .../reopen/)."
    elif director:
        hint = "a director may correct it, void it or award it by forfeit."
    else:
        hint = "ask a director of the club to correct it."
    raise ConflictError(
        "match_closed",
        N_("The match is %(state)s: %(hint)s", state=state_name(match), hint=hint),
    )


def state_name(match: Match) -> str:
    if match.status == MatchStatus.FINISHED and match.confirmation == Confirmation.CONFIRMED:
        return "finished and confirmed"
    if match.status == MatchStatus.FORFEIT:
        return "forfeited"
    return match.get_status_display().lower()
