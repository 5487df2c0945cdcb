"""Match clock use cases: start a clock, report a turn, pause, resume, and a flag fall.

The browser keeps the time (static/js/clock.js); the server replays each reported
turn through the pure rules (:mod:`games.rules.clock`), which refuse a turn longer
than the delay plus the reserve plus a clock-skew allowance, and keeps the reserves
so a reload or a second device resumes from them. Every write is one transaction that
locks the **match first, then its clock** (the one lock order: a flag fall ends the
match through :func:`games.services.match_results.forfeit_match`, which locks the match
too), checks the actor (the match's two players, by account or private score link,
and the club's directors) and the clock's ``If-Match`` version, and bumps the version.

A turn report carries the reporting client's ``seq`` (1, 2, ... per clock): the same
seq sent again with the same turn is a no-op answer (an offline queue resending after
a lost answer), another turn under a used seq or a seq that skips one is 409.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.db.models import QuerySet
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


def _lock(actor: Actor, match_id: int, expected_version: int | None) -> tuple[Match, MatchClock]:
    """Lock the match, check the actor, then lock the clock and check its version."""
    match = lock_row(_MATCH_ROWS, match_id, noun="match")
    _require_player_or_director(actor, match)
    clock = MatchClock.objects.select_for_update(of=("self",)).filter(match_id=match_id).first()
    if clock is None:
        raise ConflictError("clock_not_started", _("This match has no clock yet."), "clock")
    check_version(clock, expected_version, noun="clock")
    clock.match = match
    return match, clock


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
    clock: MatchClock, actor: Actor, seq: int, side: int, used_ms: int, outcome: rules.TurnOutcome
) -> None:
    ClockTurn.objects.create(
        clock=clock,
        seq=seq,
        side=side,
        used_ms=used_ms,
        charged_ms=outcome.charged_ms,
        reserve_after_ms=outcome.state.reserve_ms[side],
        flag_fell=outcome.flag_fell,
        reported_by=actor.player,
    )
    clock.last_seq = seq


def _save_state(clock: MatchClock, state: rules.ClockState) -> None:
    """Store a new state and bump the version, so the next ``If-Match`` must have read it."""
    clock.store(state)
    clock.version += 1
    clock.save()


def _apply(
    actor: Actor, match: Match, clock: MatchClock, outcome: rules.TurnOutcome, side: int
) -> MatchClock:
    """Store the new state; a flag fall that loses ends the match by forfeit (reason
    "flag"), through the match service as the club's director would."""
    _save_state(clock, outcome.state)
    if outcome.state.status == rules.ClockStatus.FLAGGED:
        # the actor is a player or director of the match (checked under the lock); the
        # clock, not the actor, decides the result, so it is recorded with a director's
        # authority, in the actor's name
        system = Actor(user=actor.user, player=actor.player, is_admin=True)
        forfeit_match(
            actor=system,
            match_id=match.pk,
            winner_id=match.player_at(1 - side).pk,
            reason="flag",
        )
    return clock


class _TurnRule(Protocol):
    """How the rules take a reported turn (:func:`rules.end_turn`, :func:`rules.run_out`)."""

    def __call__(
        self, settings: rules.ClockSettings, state: rules.ClockState, *, side: int, used_ms: int
    ) -> rules.TurnOutcome: ...


def _report(
    rule: _TurnRule,
    actor: Actor,
    match_id: int,
    seq: int,
    side: int,
    used_ms: int,
    expected_version: int | None,
) -> MatchClock:
    """A reported turn's one path, whatever ended it (``rule``: the turn ended, or the
    flag fell): lock, answer a resend as it was, refuse a finished match, replay the
    turn through the rules, log it and store the outcome."""
    match, clock = _lock(actor, match_id, expected_version)
    if _replayed(clock, seq, side, used_ms):
        return clock
    _require_open(match)
    outcome = rule(clock.settings(), clock.state(), side=side, used_ms=used_ms)
    _log(clock, actor, seq, side, used_ms, outcome)
    return _apply(actor, match, clock, outcome, side)


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
    """Player ``side`` (0 or 1) ended a turn of ``used_ms``; see the module docstring."""
    return _report(rules.end_turn, actor, match_id, seq, side, used_ms, expected_version)


@joins_all_or_nothing
def report_flag(
    *,
    actor: Actor,
    match_id: int,
    seq: int,
    side: int,
    used_ms: int,
    expected_version: int | None = None,
) -> MatchClock:
    """Player ``side``'s flag fell after ``used_ms`` of their turn: overtime when the
    event gives one and it is unused, else the match is lost (forfeit, reason "flag").
    Refused (409 ``flag_not_fallen``) when the turn had time left."""
    return _report(rules.run_out, actor, match_id, seq, side, used_ms, expected_version)


@joins_all_or_nothing
def pause_clock(*, actor: Actor, match_id: int, expected_version: int | None = None) -> MatchClock:
    """Either player or a director stops both clocks; pausing a paused clock is a no-op."""
    _match, clock = _lock(actor, match_id, expected_version)
    state = rules.pause(clock.state())
    if state != clock.state():
        _save_state(clock, state)
    return clock


@joins_all_or_nothing
def resume_clock(*, actor: Actor, match_id: int, expected_version: int | None = None) -> MatchClock:
    """Start the paused side's time again (after a pause or an overtime call)."""
    match, clock = _lock(actor, match_id, expected_version)
    _require_open(match)
    state = rules.resume(clock.state())
    if state != clock.state():
        _save_state(clock, state)
    return clock
