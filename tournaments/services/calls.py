"""Calling a round: the moment players are told to sit down, and late penalties start.

A director calls a round (``call_round``), or, with ``auto_call_rounds``, it is called
when the round before it in the same stage is complete (``call_due_rounds``, run by
the ``tournaments.follow_up`` result listener right after the bracket's, and by the
pairing job for Swiss and round-robin rounds). A call stores a :class:`RoundCall` and
starts one notifying job per call (``tournaments.job_kinds.NOTIFY_CALL``) on commit, which
emails and pushes each player their table, opponent, length and private score link
(``tournaments.call_notices``): nothing is sent unless the call commits.

A call follows its round (issue 41): a match of a called round made later (its
players were still finishing the round before, or the bracket replaced a match) is
called when it is made (``call_late_matches``, run with the tables after every
result and by the bracket when it makes matches): its players get their notice then,
and its lateness counts from then (``formats.late_penalty.own_call``), not from the
round's call.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import CharField, Exists, F, OuterRef, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone
from django.utils.translation import gettext as _

from core.actors import Actor
from core.jobs import start_job
from core.models import Job
from games.rules.errors import ConflictError, RuleViolation
from tournaments.job_kinds import NOTIFY_CALL
from tournaments.models import (
    CallNotice,
    Pairing,
    PairingStatus,
    Round,
    RoundCall,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors_calls import late_call_key

from .common import lock_tournament, require_director, require_status


def _ready_round_ids(tournament: Tournament) -> set[int]:
    """Rounds with a match ready to play (only those can be called)."""
    return set(
        Pairing.objects.filter(
            tournament=tournament, status=PairingStatus.READY, match__isnull=False
        ).values_list("round_id", flat=True)
    )


def _call(round_: Round, *, by: Actor | None, automatic: bool) -> RoundCall:
    call = RoundCall.objects.create(
        round=round_,
        called_at=timezone.now(),
        called_by=by.user if by is not None else None,
        automatic=automatic,
    )
    start_job(
        kind=NOTIFY_CALL,
        params={"call": call.pk},
        club=round_.stage.tournament.club,
        created_by=by.user if by is not None else None,
        dedupe_key=f"round-call:{call.pk}",
    )
    return call


@transaction.atomic
def call_round(
    *, actor: Actor, tournament_id: int, round_number: int, stage: str | None = None
) -> list[RoundCall]:
    """Call round ``round_number`` of every stage (or of ``stage`` only) that has a
    match ready to play and is not called yet. Directors only; the event is running.

    Refused with 409 ``round_not_ready`` when no such round has a match to play, and
    ``round_already_called`` when every one was called before (a retried request
    with the same ``Idempotency-Key`` gets the first answer instead).
    """
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    require_status(tournament, TournamentStatus.RUNNING, doing="call a round")
    rounds = Round.objects.filter(stage__tournament=tournament, number=round_number)
    if stage:
        rounds = rounds.filter(stage__kind=stage)
    rounds = rounds.select_related("stage__tournament__club", "call")
    ready = _ready_round_ids(tournament)
    callable_rounds = [r for r in rounds if r.pk in ready]
    if not callable_rounds:
        raise ConflictError(
            "round_not_ready",
            _("Round %d has no match ready to play: nothing to call.") % round_number,
            "round",
        )
    uncalled = [r for r in callable_rounds if not hasattr(r, "call")]
    if not uncalled:
        raise ConflictError(
            "round_already_called",
            _("Round %d was called already: players have been told.") % round_number,
            "round",
        )
    return [_call(r, by=actor, automatic=False) for r in uncalled]


def call_late_matches(tournament: Tournament) -> int:
    """Call every match of a called round made after the call and not told yet: one
    notifying job per match (its dedupe key makes it once, however many follow-ups
    see the match before its notices are written). Returns how many were started.

    Run after the tables are numbered (the notice says where to sit). One query (a
    match told, or whose job is made, is left out in it), plus one per match to call.
    """
    told = CallNotice.objects.filter(call=OuterRef("round__call"), match=OuterRef("match_id"))
    started = Job.objects.filter(  # late_call_key, in SQL
        dedupe_key=Concat(
            Value("round-call:"),
            Cast(OuterRef("round__call"), CharField()),
            Value(":match:"),
            Cast(OuterRef("match_id"), CharField()),
        )
    )
    late = (
        Pairing.objects.filter(
            tournament=tournament,
            status=PairingStatus.READY,
            match__isnull=False,
            round__call__isnull=False,
            match__created_at__gt=F("round__call__called_at"),
        )
        .exclude(Exists(told))
        .exclude(Exists(started))  # its job is made (players without an address get no row)
        .values_list("round__call", "match_id")
        .order_by("match_id")
    )
    count = 0
    for call_id, match_id in late:
        _job, created = start_job(
            kind=NOTIFY_CALL,
            params={"call": call_id, "match": match_id},
            club=tournament.club,
            dedupe_key=late_call_key(call_id, match_id),
        )
        count += created
    return count


def call_due_rounds(tournament: Tournament) -> list[RoundCall]:
    """Call every round that is due (the caller holds the tournament's lock, or, after
    a result, its version's: ``results.follow_up_result``; either way one at a time).

    Due: the event calls rounds automatically, the round has a match ready and no
    call, and the round before it in its stage is complete. A first round is never
    called automatically: the director calls it once the room is ready.
    """
    if not tournament.auto_call_rounds or tournament.status != TournamentStatus.RUNNING:
        return []
    ready = _ready_round_ids(tournament)
    if not ready:
        return []
    rounds = list(
        Round.objects.filter(stage__tournament=tournament)
        .select_related("stage__tournament__club", "call")
        .order_by("stage_id", "number")
    )
    status = {(r.stage_id, r.number): r.status for r in rounds}
    due = [
        r
        for r in rounds
        if r.pk in ready
        and r.number > 1
        and not hasattr(r, "call")
        and status.get((r.stage_id, r.number - 1)) == RoundStatus.COMPLETE
    ]
    return [_call(r, by=None, automatic=True) for r in due]


@transaction.atomic
def call_due_rounds_of(*, tournament_id: int) -> list[RoundCall]:
    """:func:`call_due_rounds` in its own transaction (after a pairing job)."""
    return call_due_rounds(lock_tournament(tournament_id))


def round_of_event(tournament: Tournament, round_id: int) -> Round:
    """The event's round ``round_id`` (400 ``round_not_found`` otherwise)."""
    round_ = (
        Round.objects.filter(pk=round_id, stage__tournament=tournament)
        .select_related("stage")
        .first()
    )
    if round_ is None:
        raise RuleViolation("round_not_found", _("There is no such round here."), "round")
    return round_
