"""Closing a match's result outside play, and taking it back: a director voids a
match, awards it by forfeit, or reopens a void or forfeit (the only way back from
one; see :func:`~games.services.match_guards.require_writable`). Each write follows
:mod:`~games.services.match_writes`."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.actors import Actor
from core.errors import N_
from games.models import Confirmation, Match, MatchStatus
from games.rules.audit_words import AUTOMATIC
from games.rules.errors import RuleViolation
from games.rules.scoring import check_final_score

from .match_guards import Write, require_match_director, require_writable, state_name
from .match_records import apply_state, match_rules, match_state
from .match_writes import announce, begin_write


@transaction.atomic
def void_match(
    *,
    actor: Actor,
    match_id: int,
    expected_version: int | None = None,
    reason: str = "",
    automatic: bool = False,
) -> Match:
    """A director voids the match: it keeps its games for the record but counts for nothing.

    ``automatic``: no person decided it (a bracket replacing an unstarted match whose
    players changed): the audit trail says "the system voided the match because
    ``reason``", not the name of whoever's request happened to run it (issue 41).
    """
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.VOID, director=True)
    if automatic:
        match._history_user = None
        match._change_reason = f"{AUTOMATIC}{reason}"
    elif reason:
        match._change_reason = reason
    match.status = MatchStatus.VOID
    match.winner = None
    return write.commit(announce)


@transaction.atomic
def forfeit_match(
    *,
    actor: Actor,
    match_id: int,
    winner_id: int,
    expected_version: int | None = None,
    reason: str = "",
) -> Match:
    """A director awards the match by forfeit; forfeits are never rated. ``reason``
    goes to the audit trail (the clock's flag fall says "flag")."""
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.FORFEIT, director=True)
    if reason:
        match._change_reason = reason
    side = {match.player1_id: 0, match.player2_id: 1}.get(winner_id)
    if side is None:
        raise RuleViolation(
            "winner_not_in_match", N_("The winner must be one of the two players."), "winner"
        )
    match.status = MatchStatus.FORFEIT
    match.winner = match.player_at(side)
    match.finished_at = timezone.now()
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    return write.commit(announce)


@transaction.atomic
def reopen_match(
    *, actor: Actor, match_id: int, reason: str = "", expected_version: int | None = None
) -> Match:
    """A director takes back a void or a forfeit: the match gets the status its record
    implies again (its games, or its final score), and everything downstream follows
    through the usual announcement (a tournament's bracket, the rating lists).

    This is the only way back from a void or a forfeit (see
    :func:`~games.services.match_guards.require_writable`), so that a result never
    reappears as a side effect of a correction; the match's audit trail records the
    reopening, by whom and why.
    """
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.REOPEN, director=True)
    was = state_name(match)
    if match.final_score_only:
        match.winner = match.player_at(
            check_final_score(match_rules(match), (match.score1, match.score2))
        )
        match.status = MatchStatus.FINISHED
        match.finished_at = match.finished_at or timezone.now()
    else:
        rows = list(match.games.order_by("number"))
        apply_state(match, match_state(match, rows))
    note = f"reopened (was {was})"
    match._change_reason = f"{note}: {reason.strip()}" if reason.strip() else note
    match._history_user = actor.user
    return write.commit(announce)
