"""Results flowing in from match play, forfeits, and re-issuing a flagged pairing.

Two result listeners (:mod:`core.listeners`, registered in ``TournamentsConfig.ready()``)
run inside the transaction that changed a match's result, holding the match's row lock:

* :func:`record_match_result` stores the pairing's result and moves the players on.
  A *new* result (a match nobody had won is won) locks only what it touches: the
  tournament ``FOR KEY SHARE`` (no director's write meanwhile, other results welcome)
  and the bracket slots it reads and writes (``bracket_advance.advance_bracket``), so results
  of different matches never wait on each other. A correction or a void changes what
  comes after it, possibly far away: it takes the tournament ``FOR UPDATE`` and
  re-derives the whole bracket (``brackets.sync_bracket``), as every director's write.
* :func:`follow_up_result` then does what the whole event shares, in the short tail of
  the transaction: bumps the tournament's version (the bracket's ETag, the odds'
  freshness, the live notice), numbers the tables of the new matches, settles the
  status of the event's rounds (a round completes exactly once: the follow-ups of one
  event take turns on the version's row), calls the rounds due and asks for fresh
  odds. On PostgreSQL it is left to the worker through the outbox, so a result never
  waits for it (see :func:`settle_event`).

Entering games of a match nobody has won yet is not a result and never reaches them.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.db import transaction
from django.db.models import F

from core import live
from core.actors import Actor
from core.errors import N_
from core.events import emit_or_join
from core.leases import is_eager
from core.listeners import ResultChange
from core.outbox import absorb_pending
from core.transactions import before_commit
from games.models import Match, MatchStatus
from games.rules.errors import ConflictError, RuleViolation
from games.services import match_results
from tournaments import event_kinds
from tournaments.models import Entry, Pairing, StageKind, Tournament

from .bracket_advance import advance_bracket, plan_advance, share_tournament, share_turn
from .brackets import BRACKET_STAGES, sync_bracket, update_round_statuses
from .calls import call_due_rounds, call_late_matches
from .common import bump, lock_tournament, require_director
from .odds import request_odds
from .tables import assign_tables


def _is_new_result(change: ResultChange) -> bool:
    return change.previous.is_open and change.current.is_final and bool(change.match.winner_id)


def record_match_result(change: ResultChange) -> None:
    """Result listener: a tournament match changed result (finished, corrected, voided)."""
    match: Match = change.match
    pairing = (
        Pairing.objects.filter(match_id=match.pk)
        .select_related("round__stage", "tournament__club")
        .order_by()  # one row at most (a match has one slot): no ordering's joins
        .first()
    )
    if pairing is None:
        return
    kind = pairing.round.stage.kind
    forfeit = match.status == MatchStatus.FORFEIT
    # a no-show's forfeit in the main puts its loser out (unless the event feeds them
    # on): the whole derivation turns their later slots into walkovers
    out_by_forfeit = (
        forfeit and kind == StageKind.MAIN and not pairing.tournament.forfeit_feeds_consolation
    )
    if kind in BRACKET_STAGES and _is_new_result(change) and not out_by_forfeit:
        tournament = pairing.tournament  # read with the slot, before any lock (as it was)
        winner = _winner_entry(tournament.pk, match)
        keys = plan_advance(tournament, pairing, winner) if winner is not None else None
        if keys is not None:
            share_tournament(tournament.pk)
            _require_same_draw(tournament)
            advance_bracket(
                tournament,
                pairing,
                winner,  # type: ignore[arg-type]
                forfeit=forfeit,
                keys=keys,
            )
            return
    if kind not in BRACKET_STAGES:
        # a Swiss or round-robin board: its own row only (the round's status follows)
        share_tournament(pairing.tournament_id)
        pairing.refresh_from_db(fields=["winner", "forfeit", "entry1", "entry2", "status"])
        winner_id = _winner_entry(pairing.tournament_id, match)
        pairing.winner_id = winner_id
        pairing.forfeit = forfeit
        pairing.status = "played" if winner_id is not None else "ready"
        pairing.save()
        return
    # a correction or a void: the whole bracket, under the tournament's own lock
    tournament = lock_tournament(pairing.tournament_id)
    pairing.refresh_from_db(fields=["winner", "forfeit", "entry1", "entry2"])
    pairing.winner_id = _winner_entry(tournament.pk, match)
    pairing.forfeit = forfeit
    pairing.save()
    sync_bracket(tournament)  # numbers its new matches' tables itself


def _winner_entry(tournament_id: int, match: Match) -> int | None:
    if match.status not in (MatchStatus.FINISHED, MatchStatus.FORFEIT) or not match.winner_id:
        return None
    return (
        Entry.objects.filter(tournament_id=tournament_id, player_id=match.winner_id)
        .values_list("pk", flat=True)
        .first()
    )


def _require_same_draw(tournament: Tournament) -> None:
    """The draw read before the share lock is the one it now holds (a redraw between
    the two is refused: it never happens once a match of the bracket is won)."""
    now = Tournament.objects.filter(pk=tournament.pk).values_list("bracket_order", flat=True)
    if list(now) != [tournament.bracket_order]:
        raise ConflictError(
            "tournament_changed",
            N_("The bracket changed while this result was entered: try again."),
        )


def follow_up_result(change: ResultChange) -> None:
    """Result listener, after :func:`record_match_result`: what the event shares.

    Run as the transaction's last work (``core.transactions.before_commit``: after the
    request's audit rows and stored answer): :func:`settle_event`.
    """
    row = (
        Pairing.objects.filter(match_id=change.match_id)
        .order_by()
        .values_list("tournament_id", "tournament__club_id")
        .first()
    )
    if row is None:
        return
    before_commit(functools.partial(settle_event, tournament_id=row[0], club_id=row[1]))


def settle_event(*, tournament_id: int, club_id: int | None = None) -> None:
    """Bump the version, number the new matches' tables, settle the rounds' statuses,
    call the rounds due and the matches made since their round's call, and ask for
    fresh odds (the follow-up of a result).

    The follow-ups of one event take turns (on the version's row), so a round completes
    exactly once. With a worker (production) the result does not take its turn itself:
    it commits with an outbox event (:data:`~tournaments.event_kinds.SETTLE`, on the
    ``results`` queue) whose handler (:func:`settle_deferred`) takes it in the worker,
    or joins one that is still waiting for the worker (``core.events.emit_or_join``:
    its handler then runs after this commit).
    At a championship's round end (128 phones at once) a result then answers in its own
    time, neither in the queue of the others' turns nor paying for the settling (a
    quarter of a finishing request's work, profiled); the next round's matches were
    created by the result itself (``advance_bracket``), so only the tables, the rounds'
    statuses, the version (the bracket's ETag and live notice) and the odds follow, a
    moment later. The event is written with the result, so the outbox's sweep sends it
    again if its message is lost: no settling is lost. Its message is due
    ``SETTLE_DELAY_SECONDS`` (0.5) after the result: the results of the next half second
    join it, so at a round's end an event settles about twice a second, not once per
    free moment of the worker (each settling, and each outbox event, costs the worker
    CPU the phones' requests are waiting for).

    With tasks run in-process (``make run``, the tests) there is no worker to hand it
    to: the result settles in its own transaction when the turn is free (always on
    SQLite, whose writers take turns on the database anyway); when another result's
    follow-up holds it, the event's handler runs right after the commit, holding
    nothing, rather than waiting for the turn holding this result's match and slots.
    """
    if is_eager() and share_turn(tournament_id):
        _settle(tournament_id)
        return
    emit_or_join(
        event_kinds.SETTLE,
        countdown=0.0 if is_eager() else settings.SETTLE_DELAY_SECONDS,
        tournament_id=tournament_id,
        club_id=club_id,
    )


def settle_deferred(payload: dict) -> None:
    """The outbox handler of :data:`~tournaments.event_kinds.SETTLE`: take the event's
    turn (waiting, holding nothing else, while another worker settles it), take over the
    other results' settle events of the event already committed (this run reads after
    them, so it covers them: a burst of results costs one settling, not one each),
    then settle."""
    tournament_id = int(payload["tournament_id"])
    with transaction.atomic():
        held = (
            Tournament.objects.select_for_update(no_key=True)
            .filter(pk=tournament_id)
            .values_list("pk", flat=True)
        )
        if not list(held):
            return  # the event was deleted meanwhile
        absorb_pending(event_kinds.SETTLE, tournament_id=tournament_id)
        _settle(tournament_id)


def _settle(tournament_id: int) -> None:
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    assign_tables(tournament)  # every match still without a table: a skipped turn's too
    completed = update_round_statuses(tournament)
    call_due_rounds(tournament)
    call_late_matches(tournament)  # a called round's matches made since are called now
    live.row_changed(tournament)
    # a round's last result: no more are coming, the odds need not wait for quiet
    request_odds(tournament_id=tournament_id, at_once=completed > 0)


@transaction.atomic
def forfeit_pairing(*, actor: Actor, tournament_id: int, key: str, winner_entry_id: int) -> Pairing:
    """A director awards a pairing by forfeit: the opponent advances, standings say so."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    require_director(actor, tournament)
    pairing = (
        Pairing.objects.filter(tournament=tournament, key=key)
        .select_related("match", "entry1", "entry2")
        .first()
    )
    if pairing is None:
        raise RuleViolation(
            "pairing_not_found", N_("There is no pairing %(key)s.", key=key), "pairing"
        )
    if winner_entry_id not in (pairing.entry1_id, pairing.entry2_id):
        raise RuleViolation(
            "winner_not_in_pairing", N_("The winner must be one of the two entries."), "winner"
        )
    if pairing.match is None:
        raise ConflictError(
            "no_match_to_forfeit", N_("This pairing has no match (a bye or not ready yet).")
        )
    winner = pairing.entry1 if winner_entry_id == pairing.entry1_id else pairing.entry2
    assert winner is not None  # the winner is one of the pairing's entries
    match_results.forfeit_match(actor=actor, match_id=pairing.match.pk, winner_id=winner.player_id)
    pairing.refresh_from_db()
    return pairing


@transaction.atomic
def reissue_pairing(*, actor: Actor, tournament_id: int, key: str) -> Pairing:
    """For a pairing flagged after a correction: keep its old match on record, detach it,
    and let the bracket create a new match for the players who now belong there."""
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    pairing = Pairing.objects.filter(tournament=tournament, key=key).first()
    if pairing is None:
        raise RuleViolation(
            "pairing_not_found", N_("There is no pairing %(key)s.", key=key), "pairing"
        )
    if not pairing.stale:
        raise ConflictError(
            "pairing_not_stale", N_("Only a pairing flagged for review is re-issued.")
        )
    if pairing.match_id:
        pairing.replaced_matches = [*pairing.replaced_matches, pairing.match_id]
    pairing.match = None
    pairing.winner = None
    pairing.forfeit = False
    pairing.stale = False
    pairing.stale_reason = ""
    pairing.save()
    sync_bracket(tournament)
    bump(tournament)
    pairing.refresh_from_db()
    return pairing
