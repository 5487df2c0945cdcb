"""Match clock use cases: start a clock, report a turn, pause, resume, and a flag fall.

The clock's truth is the server's. The browser shows the time (static/js/clock.js),
but the server notes, by its own clock (:func:`server_now`, stored on the row as
``running_since``), when each side's time starts: when it accepts the turn that ends
the other side's, and on resume. A reported turn is accepted only from the player
whose turn ends (or a director); its ``used_ms`` is weighed against the server's
elapsed time (:func:`games.rules.clock.reckon_turn`: within the network tolerance the
report stands, beyond it the server's figure wins or the report is refused). A flag
falls only when the server's elapsed time has spent the delay and the reserve
(409 ``clock_not_expired`` otherwise, nothing written), whoever reports it: the
player, the opponent claiming it, or a director; a director may also *award* a flag
fall with a reason, which the turn log and the match's audit trail keep.

Every write is one transaction that locks the **match first, then its clock** (the
one lock order: a flag fall ends the match through
:func:`games.services.match_results.forfeit_match`, which locks the match too), checks
the actor and the clock's ``If-Match`` version, and bumps the version.

A turn report carries the reporting client's ``seq`` (1, 2, ... per clock): the same
seq sent again with the same turn is a no-op answer (an offline queue resending after
a lost answer), another turn under a used seq or a seq that skips one is 409.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.actors import Actor
from core.locking import check_version, lock_row
from core.transactions import joins_all_or_nothing
from games.clock_policies import NONE, MatchClockPolicy, clock_policy_of
from games.models import ClockTurn, Match, MatchClock, MatchStatus
from games.rules import clock as rules
from games.rules.errors import ConflictError, NotAllowed, RuleViolation

from .actors import is_match_director, participant_side
from .match_results import forfeit_match

_MATCH_ROWS: QuerySet[Match] = Match.objects.select_related("club", "player1", "player2")
_OPEN = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


@dataclass(frozen=True)
class ClockRequest:
    """What a client asks a new clock to be: a preset, or custom numbers; the flag
    rule and overtime count only for a match of no event (an event's setting wins)."""

    preset: rules.Preset
    delay_ms: int | None = None
    reserve_ms: int | None = None
    flag_rule: rules.FlagRule | None = None
    overtime_ms: int | None = None


def server_now() -> datetime:
    """The server's time, as every clock write reads it (tests replace this function to
    move time: nothing sleeps). Wall time, stored on the row, because the next report
    may reach another process; the reckoning never goes backwards (see
    :func:`elapsed_ms`)."""
    return timezone.now()


def elapsed_ms(clock: MatchClock, now: datetime) -> int:
    """The running turn's time by the server's clock: what it used before the last pause
    plus the time since the server last started it (never negative, should the wall
    clock step back). A clock that is not running has its time standing still."""
    used = clock.running_used_ms
    if clock.status != rules.ClockStatus.RUNNING or clock.running is None:
        return used
    since = clock.running_since or clock.updated_at  # a clock started before the reckoning
    return used + max(0, int((now - since).total_seconds() * 1000))


def reading(clock: MatchClock) -> tuple[int, int, tuple[int, int]]:
    """What every clock answer shows, by the server's clock now: the running turn's
    time, its delay left and each side's reserve left (:func:`games.rules.clock.time_left`).
    The page displays these and counts its own time down from them."""
    elapsed = elapsed_ms(clock, server_now())
    delay_left, remaining = rules.time_left(clock.settings(), clock.state(), elapsed_ms=elapsed)
    return elapsed, delay_left, remaining


def _require_player_or_director(actor: Actor, match: Match) -> bool:
    director = is_match_director(actor, match) and not actor.via_score_link
    if not director and participant_side(actor, match) is None:
        raise NotAllowed(
            "not_a_participant",
            _("Only the two players of this match and its club's directors run its clock."),
        )
    return director


def _require_open(match: Match) -> None:
    if match.status not in _OPEN:
        raise ConflictError(
            "match_over",
            _("The match is %(status)s: its clock has stopped.") % {"status": match.status},
        )


@dataclass(frozen=True)
class _Locked:
    match: Match
    clock: MatchClock
    director: bool


def _lock(actor: Actor, match_id: int, expected_version: int | None) -> _Locked:
    """Lock the match, check the actor, then lock the clock and check its version."""
    match = lock_row(_MATCH_ROWS, match_id, noun="match")
    director = _require_player_or_director(actor, match)
    clock = MatchClock.objects.select_for_update(of=("self",)).filter(match_id=match_id).first()
    if clock is None:
        raise ConflictError("clock_not_started", _("This match has no clock yet."), "clock")
    check_version(clock, expected_version, noun="clock")
    clock.match = match
    return _Locked(match, clock, director)


def _require_own_turn(actor: Actor, locked: _Locked, side: int) -> None:
    """A turn is reported by the player whose turn ends (or a director): 403
    ``turn_not_yours`` for the opponent, who would otherwise charge the other player's
    reserve with a time of their choosing. Starting a ready clock ends nobody's turn
    and charges nothing, so either player may."""
    if locked.director or locked.clock.status == rules.ClockStatus.READY:
        return
    if participant_side(actor, locked.match) != side:
        raise NotAllowed(
            "turn_not_yours",
            _("Only the player whose turn ends (or a director) reports it."),
            "side",
        )


def _settings_for(
    match: Match, policy: MatchClockPolicy, asked: ClockRequest
) -> rules.ClockSettings:
    if policy.event:
        flag_rule, overtime_ms = policy.flag_rule, policy.overtime_ms
    else:
        flag_rule = asked.flag_rule or policy.flag_rule
        overtime_ms = asked.overtime_ms if asked.overtime_ms is not None else policy.overtime_ms
    if asked.preset == rules.Preset.CUSTOM:
        if asked.delay_ms is None or asked.reserve_ms is None:
            raise RuleViolation(
                "custom_needs_settings",
                _("A custom clock needs its delay and reserve."),
                "reserve_ms" if asked.delay_ms is not None else "delay_ms",
            )
        return rules.custom_settings(
            delay_ms=asked.delay_ms,
            reserve_ms=asked.reserve_ms,
            flag_rule=flag_rule,
            overtime_ms=overtime_ms,
        )
    return rules.preset_settings(
        asked.preset,
        length=match.length,
        scored=match.score1 + match.score2,
        flag_rule=flag_rule,
        overtime_ms=overtime_ms,
    )


@joins_all_or_nothing
def start_clock(*, actor: Actor, match_id: int, request: ClockRequest) -> MatchClock:
    """Put a clock on an open match: the preset's reserve for the match's length, less
    the points already scored when the preset says so (USBGF, mid-match), or custom
    numbers. Refused when the event says "no clocks" or the match already has one."""
    match = lock_row(_MATCH_ROWS, match_id, noun="match")
    _require_player_or_director(actor, match)
    _require_open(match)
    if not match.length:
        raise RuleViolation("match_unlimited", _("A clock needs a match length."), "length")
    policy = clock_policy_of(match.pk)
    if policy.policy == NONE:
        raise ConflictError(
            "clocks_not_used", _("%(event)s plays without clocks.") % {"event": policy.event}
        )
    if MatchClock.objects.filter(match_id=match.pk).exists():
        raise ConflictError("clock_already_started", _("This match already has a clock."), "clock")
    settings = _settings_for(match, policy, request)
    clock = MatchClock(
        match=match,
        preset=request.preset.value,
        delay_ms=settings.delay_ms,
        initial_reserve_ms=settings.reserve_ms,
        flag_rule=settings.flag_rule.value,
        overtime_ms=settings.overtime_ms,
        scored_at_start=match.score1 + match.score2,
        started_by=actor.user,
    )
    clock.store(rules.new_clock(settings))
    clock.save()
    return clock


def _replayed(clock: MatchClock, seq: int, side: int, used_ms: int) -> bool:
    """True when ``seq`` was already logged with this very turn (a resend); 409 when
    it was logged with another, or when it skips a number."""
    if seq == clock.last_seq + 1:
        return False
    if seq > clock.last_seq + 1 or seq < 1:
        raise ConflictError(
            "seq_gap",
            _("Turn %(seq)s arrives before turn %(next)s.")
            % {"seq": seq, "next": clock.last_seq + 1},
            "seq",
        )
    logged = clock.turn_log.filter(seq=seq).first()
    if logged is not None and logged.side == side and logged.used_ms == used_ms:
        return True
    raise ConflictError(
        "seq_conflict", _("Turn %(seq)s was reported with other times.") % {"seq": seq}, "seq"
    )


def _log(
    locked: _Locked,
    actor: Actor,
    turn: _Turn,
    outcome: rules.TurnOutcome,
    *,
    server_ms: int,
    award_reason: str = "",
) -> None:
    clock = locked.clock
    ClockTurn.objects.create(
        clock=clock,
        seq=turn.seq,
        side=turn.side,
        used_ms=turn.used_ms,
        charged_ms=outcome.charged_ms,
        reserve_after_ms=outcome.state.reserve_ms[turn.side],
        flag_fell=outcome.flag_fell,
        server_ms=server_ms,
        award_reason=award_reason,
        reported_by=actor.player,
        reported_by_user=actor.user,
    )
    clock.last_seq = turn.seq


def _save_state(
    clock: MatchClock, state: rules.ClockState, now: datetime, *, new_turn: bool
) -> None:
    """Store a new state and bump the version, so the next ``If-Match`` must have read
    it, keeping the server's reckoning of the running turn: a new turn (a turn
    accepted, a flag fall, the first tap) starts its count at zero, from ``now`` if its
    time runs; a pause keeps what the turn used so far; a resume restarts it from now."""
    if new_turn:
        clock.running_used_ms = 0
        clock.running_since = now if state.status == rules.ClockStatus.RUNNING else None
    elif state.status == rules.ClockStatus.RUNNING:
        clock.running_since = now
    else:
        clock.running_used_ms = elapsed_ms(clock, now)
        clock.running_since = None
    clock.store(state)
    clock.version += 1
    clock.save()


def _apply(
    actor: Actor,
    locked: _Locked,
    outcome: rules.TurnOutcome,
    side: int,
    now: datetime,
    reason: str = "flag",
) -> MatchClock:
    """Store the new state; a flag fall that loses ends the match by forfeit (``reason``
    "flag", or the director's award), through the match service as a director would."""
    match, clock = locked.match, locked.clock
    _save_state(clock, outcome.state, now, new_turn=True)
    if outcome.state.status == rules.ClockStatus.FLAGGED:
        # the actor is a player or director of the match (checked under the lock); the
        # clock, not the actor, decides the result, so it is recorded with a director's
        # authority, in the actor's name
        system = Actor(user=actor.user, player=actor.player, is_admin=True)
        forfeit_match(
            actor=system,
            match_id=match.pk,
            winner_id=match.player_at(1 - side).pk,
            reason=reason,
        )
    return clock


@dataclass(frozen=True)
class _Turn:
    seq: int
    side: int
    used_ms: int


@joins_all_or_nothing
def report_turn(
    *,
    actor: Actor,
    match_id: int,
    seq: int,
    side: int,
    used_ms: int,
    expected_version: int | None = None,
) -> MatchClock:
    """Player ``side`` (0 or 1) ended a turn of ``used_ms`` by their device's clock: the
    server charges it as :func:`games.rules.clock.reckon_turn` weighs it against its
    own elapsed time. Only that player or a director reports it (403
    ``turn_not_yours``); see the module docstring."""
    locked = _lock(actor, match_id, expected_version)
    clock = locked.clock
    if _replayed(clock, seq, side, used_ms):
        return clock
    _require_open(locked.match)
    _require_own_turn(actor, locked, side)
    now = server_now()
    state, settings = clock.state(), clock.settings()
    server_ms = elapsed_ms(clock, now)
    charged_for = used_ms
    if state.status == rules.ClockStatus.RUNNING and state.running == side:
        charged_for = rules.reckon_turn(
            settings, state, side=side, reported_ms=used_ms, server_ms=server_ms
        )
    outcome = rules.end_turn(settings, state, side=side, used_ms=charged_for)
    turn = _Turn(seq, side, used_ms)
    _log(locked, actor, turn, outcome, server_ms=server_ms)
    return _apply(actor, locked, outcome, side, now)


@joins_all_or_nothing
def report_flag(
    *,
    actor: Actor,
    match_id: int,
    seq: int,
    side: int,
    used_ms: int = 0,
    reason: str = "",
    expected_version: int | None = None,
) -> MatchClock:
    """Player ``side``'s flag fell: reported by that player, claimed by the opponent, or
    by a director, and accepted only when the server's own elapsed time of the turn has
    spent the delay and the reserve (409 ``clock_not_expired``, nothing written);
    ``used_ms`` (the device's figure) is kept in the log but decides nothing. Then
    overtime when the clock gives one and it is unused, else the match is lost
    (forfeit, reason "flag").

    With a ``reason`` it is a director's **award** of the flag fall, whatever the
    server's time says (403 ``directors_only`` for anyone else): kept in the turn log
    and the match's audit trail with the reason."""
    locked = _lock(actor, match_id, expected_version)
    clock = locked.clock
    if _replayed(clock, seq, side, used_ms):
        return clock
    _require_open(locked.match)
    now = server_now()
    state, settings = clock.state(), clock.settings()
    server_ms = elapsed_ms(clock, now)
    turn = _Turn(seq, side, used_ms)
    if reason:
        if not locked.director:
            raise NotAllowed("directors_only", _("Only a director awards a flag fall."), "reason")
        outcome = rules.award_flag(settings, state, side=side)
        _log(locked, actor, turn, outcome, server_ms=server_ms, award_reason=reason)
        return _apply(
            actor, locked, outcome, side, now, reason=f"flag awarded by a director: {reason}"
        )
    outcome = rules.run_out(settings, state, side=side, used_ms=server_ms)
    _log(locked, actor, turn, outcome, server_ms=server_ms)
    return _apply(actor, locked, outcome, side, now)


@joins_all_or_nothing
def pause_clock(*, actor: Actor, match_id: int, expected_version: int | None = None) -> MatchClock:
    """Either player or a director stops both clocks; pausing a paused clock is a no-op.
    The running turn keeps what it used so far, by the server's clock."""
    clock = _lock(actor, match_id, expected_version).clock
    state = rules.pause(clock.state())
    if state != clock.state():
        _save_state(clock, state, server_now(), new_turn=False)
    return clock


@joins_all_or_nothing
def resume_clock(*, actor: Actor, match_id: int, expected_version: int | None = None) -> MatchClock:
    """Start the paused side's time again (after a pause or an overtime call), from now
    by the server's clock."""
    locked = _lock(actor, match_id, expected_version)
    _require_open(locked.match)
    clock = locked.clock
    state = rules.resume(clock.state())
    if state != clock.state():
        _save_state(clock, state, server_now(), new_turn=False)
    return clock
