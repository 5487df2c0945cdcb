"""The match clock: presets and the clock's state machine (docs/clocks.md).

A backgammon clock gives each player a **reserve** and a **delay** per move: the
first ``delay`` milliseconds of each turn are free, only what a turn takes beyond them
is taken from the player's reserve, and the delay never carries over (a quick move
saves nothing). When a turn uses the whole delay and the whole reserve the player's
**flag falls**: the match is lost, or, when the event allows it, the player first
gets one **overtime** reserve (a second flag fall loses).

Presets, as we read the sources (docs/clocks.md, "Presets", says the same):

* **USBGF** (docs/clocks.md, "Presets", with its sources: the USBGF clock rules as
  quoted on bgonline.org, "Overtime" option, 2023): a simple delay of 12 s a move and
  a reserve of 2 minutes per point of the match length. A clock brought in mid-match
  starts with 2 minutes per point of the length **minus 1 minute per point already
  scored**, and we count the points scored by *both* players (the rule says "points
  already scored" without naming a player, and the reserve is the same for both, so
  it can only count the match's score as a whole). Since each player has at most
  ``length - 1`` points on an unfinished match, the reserve is never below 2 minutes.
  Overtime (optional): 1 or 2 minutes after the first expiration.
* **UKBGF**: 12 s delay and 2 minutes per point, without the mid-match reduction.
  We found no published UKBGF clock setting beyond these usual values; the UKBGF's
  own rule is about lateness, which is not a clock matter.
* **Online (fast / standard)**: settings common on online servers (8 s delay with
  1 minute per point; 10 s with 90 s per point). They name no server's official
  rule.
* **Custom**: any delay and reserve a director sets (and tests use, with a reserve
  of a second or two).

The browser only shows the clock: every answer carries the server's figures of the
moment (:func:`time_left`: the running turn's delay left and each side's reserve left),
and static/js/clock.js counts its own elapsed time down from them, reports the taps
and, when its display reaches zero, asks the server whether the flag fell. The
clock's truth is the server's: the server notes its own time whenever a side's time
starts, and :func:`reckon_turn` weighs each reported turn against that reckoning
(within :data:`NETWORK_TOLERANCE_MS`, the server's figure wins) before
:func:`end_turn` charges it; a flag falls (:func:`run_out`) only when the server's
own elapsed time has spent the delay and the reserve. Pure Python: no Django here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .errors import ConflictError, RuleViolation

SECOND = 1000
MINUTE = 60 * SECOND

#: How far a reported turn may run past the delay plus the reserve and still count
#: (as a flag fall): the browser's and the server's sense of time differ a little.
SKEW_ALLOWANCE_MS = 2 * SECOND

#: How far a reported turn's ``used_ms`` may stand from the server's own reckoning of
#: the turn (the time since the server accepted the turn that started it). A report
#: reaches the server some time after the tap that ended the turn, and the report that
#: started the turn reached it some time after its own tap, so the two figures differ
#: by the network's delays: within this tolerance the player's figure is taken; a
#: larger figure is refused (the server saw less time go by), a smaller one is raised
#: to the server's elapsed time less the tolerance (the server's reckoning wins).
NETWORK_TOLERANCE_MS = 2 * SECOND

#: Bounds of a custom clock (a reserve of at least a second, at most ten hours).
MIN_RESERVE_MS = SECOND
MAX_RESERVE_MS = 10 * 60 * MINUTE
MAX_DELAY_MS = 5 * MINUTE


class Preset(StrEnum):
    USBGF = "usbgf"
    UKBGF = "ukbgf"
    ONLINE_FAST = "online_fast"
    ONLINE_STANDARD = "online_standard"
    CUSTOM = "custom"


class FlagRule(StrEnum):
    """What a flag fall does: the match is lost at once, or after one overtime."""

    LOSS = "loss"
    OVERTIME_FIRST = "overtime"


class ClockStatus(StrEnum):
    READY = "ready"  # set, nobody's clock running yet (the first tap starts the other's)
    RUNNING = "running"
    PAUSED = "paused"
    FLAGGED = "flagged"  # a flag fell and lost the match; the clock is over


@dataclass(frozen=True)
class PresetRule:
    """A preset's numbers: delay per move, reserve per point of the match length, and
    the reserve taken off per point already scored when the clock comes in mid-match."""

    delay_ms: int
    reserve_per_point_ms: int
    off_per_point_scored_ms: int


PRESETS: dict[Preset, PresetRule] = {
    Preset.USBGF: PresetRule(12 * SECOND, 2 * MINUTE, 1 * MINUTE),
    Preset.UKBGF: PresetRule(12 * SECOND, 2 * MINUTE, 0),
    Preset.ONLINE_FAST: PresetRule(8 * SECOND, 1 * MINUTE, 0),
    Preset.ONLINE_STANDARD: PresetRule(10 * SECOND, 90 * SECOND, 0),
}


@dataclass(frozen=True)
class ClockSettings:
    """The settings a clock starts with (the same reserve for both players)."""

    delay_ms: int
    reserve_ms: int
    flag_rule: FlagRule = FlagRule.LOSS
    overtime_ms: int = 0


def starting_reserve_ms(rule: PresetRule, *, length: int, scored: int) -> int:
    """The reserve a preset gives each player: per point of ``length``, less the
    preset's reduction per point ``scored`` by both players so far (the clock comes in
    mid-match), never less than one point's worth of reserve.

    >>> starting_reserve_ms(PRESETS[Preset.USBGF], length=7, scored=0) // MINUTE
    14
    >>> starting_reserve_ms(PRESETS[Preset.USBGF], length=7, scored=5) // MINUTE
    9
    """
    if length < 1:
        raise RuleViolation(
            "length_invalid", "A clocked match has a length of 1 or more.", "length"
        )
    if scored < 0:
        raise RuleViolation("score_invalid", "Points scored cannot be negative.", "score")
    reserve = rule.reserve_per_point_ms * length - rule.off_per_point_scored_ms * scored
    return max(reserve, rule.reserve_per_point_ms)


def preset_settings(
    preset: Preset,
    *,
    length: int,
    scored: int = 0,
    flag_rule: FlagRule = FlagRule.LOSS,
    overtime_ms: int = 0,
) -> ClockSettings:
    """The settings of a named preset for a match of ``length`` at ``scored`` points."""
    if preset == Preset.CUSTOM:
        raise RuleViolation(
            "custom_needs_settings", "A custom clock needs its delay and reserve.", "preset"
        )
    rule = PRESETS[preset]
    return ClockSettings(
        delay_ms=rule.delay_ms,
        reserve_ms=starting_reserve_ms(rule, length=length, scored=scored),
        flag_rule=flag_rule,
        overtime_ms=overtime_ms if flag_rule == FlagRule.OVERTIME_FIRST else 0,
    )


def custom_settings(
    *, delay_ms: int, reserve_ms: int, flag_rule: FlagRule = FlagRule.LOSS, overtime_ms: int = 0
) -> ClockSettings:
    """A director's own delay and reserve, within sane bounds (each names its field)."""
    if not 0 <= delay_ms <= MAX_DELAY_MS:
        raise RuleViolation(
            "delay_out_of_range", f"The delay is 0 to {MAX_DELAY_MS // SECOND} s.", "delay_ms"
        )
    if not MIN_RESERVE_MS <= reserve_ms <= MAX_RESERVE_MS:
        raise RuleViolation(
            "reserve_out_of_range",
            f"The reserve is 1 s to {MAX_RESERVE_MS // MINUTE} minutes.",
            "reserve_ms",
        )
    if flag_rule == FlagRule.OVERTIME_FIRST and not MIN_RESERVE_MS <= overtime_ms <= MAX_RESERVE_MS:
        raise RuleViolation(
            "overtime_out_of_range",
            "Overtime first needs an overtime of 1 s or more.",
            "overtime_ms",
        )
    return ClockSettings(
        delay_ms=delay_ms,
        reserve_ms=reserve_ms,
        flag_rule=flag_rule,
        overtime_ms=overtime_ms if flag_rule == FlagRule.OVERTIME_FIRST else 0,
    )


@dataclass(frozen=True)
class ClockState:
    """Where a clock stands. ``running`` is the side (0 or 1) whose time runs, or None
    (ready, or a flag fell). While paused, ``running`` keeps the side that resumes."""

    reserve_ms: tuple[int, int]
    status: ClockStatus = ClockStatus.READY
    running: int | None = None
    overtime_used: tuple[bool, bool] = (False, False)
    flagged: int | None = None
    turns: int = 0


@dataclass(frozen=True)
class TurnOutcome:
    """What a reported turn did: the new state, the reserve it took, and whether the
    player's flag fell (``overtime``: it fell and the overtime reserve took over)."""

    state: ClockState
    charged_ms: int
    flag_fell: bool = False
    overtime: bool = False


def new_clock(settings: ClockSettings) -> ClockState:
    return ClockState(reserve_ms=(settings.reserve_ms, settings.reserve_ms))


def charge(delay_ms: int, reserve_ms: int, used_ms: int) -> int:
    """The reserve a turn of ``used_ms`` takes: what it used beyond the delay, capped at
    the reserve (the delay never eats the reserve, and a reserve never goes negative)."""
    return min(max(used_ms - delay_ms, 0), reserve_ms)


def time_left(
    settings: ClockSettings, state: ClockState, *, elapsed_ms: int
) -> tuple[int, tuple[int, int]]:
    """What the clock shows after the running turn's ``elapsed_ms`` (the server's
    reckoning): the delay left of that turn and each side's reserve left, the running
    side's less what the turn has taken from it so far. The browser displays these
    figures and only counts its own time down from them; it decides nothing.

    >>> s = ClockSettings(delay_ms=SECOND, reserve_ms=10 * SECOND)
    >>> st = ClockState((10 * SECOND, 9 * SECOND), ClockStatus.RUNNING, running=0)
    >>> time_left(s, st, elapsed_ms=3 * SECOND)
    (0, (8000, 9000))
    >>> time_left(s, st, elapsed_ms=400)
    (600, (10000, 9000))
    """
    side = state.running
    if side is None or state.status not in (ClockStatus.RUNNING, ClockStatus.PAUSED):
        return settings.delay_ms, state.reserve_ms
    reserve = state.reserve_ms[side]
    left = reserve - charge(settings.delay_ms, reserve, elapsed_ms)
    return max(settings.delay_ms - elapsed_ms, 0), _with_reserve(state.reserve_ms, side, left)


def _side(side: int) -> int:
    if side not in (0, 1):
        raise RuleViolation("side_invalid", "The side is 1 or 2.", "side")
    return side


def _with_reserve(reserves: tuple[int, int], side: int, value: int) -> tuple[int, int]:
    return (value, reserves[1]) if side == 0 else (reserves[0], value)


def end_turn(settings: ClockSettings, state: ClockState, *, side: int, used_ms: int) -> TurnOutcome:
    """Player ``side`` ends a turn of ``used_ms``: their reserve pays what the turn used
    beyond the delay and the opponent's time starts.

    In a ready clock the first tap starts the *other* side's time and charges nothing
    (the player who lost the opening roll presses the clock). A turn that used the
    whole delay and reserve is a flag fall (see :func:`run_out`). Refusals: a stopped
    or paused clock, the wrong side (409), and a turn longer than the delay plus the
    reserve plus :data:`SKEW_ALLOWANCE_MS` or a negative one (422).
    """
    side = _side(side)
    if state.status == ClockStatus.READY:
        started = replace(state, status=ClockStatus.RUNNING, running=1 - side)
        return TurnOutcome(started, 0)
    _require_running(state, side)
    reserve = state.reserve_ms[side]
    if used_ms < 0:
        raise RuleViolation("used_ms_invalid", "A turn cannot take negative time.", "used_ms")
    if used_ms > settings.delay_ms + reserve + SKEW_ALLOWANCE_MS:
        raise RuleViolation(
            "turn_too_long",
            f"A turn of {used_ms} ms is longer than the delay and the reserve left "
            f"({settings.delay_ms + reserve} ms): the flag fell before it ended.",
            "used_ms",
        )
    if used_ms >= settings.delay_ms + reserve:
        return _flag_fall(settings, state, side)
    spent = charge(settings.delay_ms, reserve, used_ms)
    after = replace(
        state,
        reserve_ms=_with_reserve(state.reserve_ms, side, reserve - spent),
        running=1 - side,
        turns=state.turns + 1,
    )
    return TurnOutcome(after, spent)


def reckon_turn(
    settings: ClockSettings, state: ClockState, *, side: int, reported_ms: int, server_ms: int
) -> int:
    """The time a turn that ends is charged for: the player's ``reported_ms`` weighed
    against ``server_ms``, the server's own elapsed time of the turn.

    Within :data:`NETWORK_TOLERANCE_MS` of the server's figure the report stands; a
    report longer than that is refused (400 ``used_ms_ahead_of_server``: the
    server saw less time go by than the player claims); a shorter one is raised to the
    server's elapsed time less the tolerance (nobody saves time by reporting less).
    The result is capped at the delay plus the reserve: a turn the server saw run past
    them is a flag fall, whatever the report said.

    >>> s = ClockSettings(delay_ms=SECOND, reserve_ms=10 * SECOND)
    >>> st = ClockState((10 * SECOND, 10 * SECOND), ClockStatus.RUNNING, running=0)
    >>> reckon_turn(s, st, side=0, reported_ms=0, server_ms=5 * SECOND)
    3000
    >>> reckon_turn(s, st, side=0, reported_ms=60 * SECOND, server_ms=60 * SECOND)
    11000
    """
    side = _side(side)
    if reported_ms < 0:
        raise RuleViolation("used_ms_invalid", "A turn cannot take negative time.", "used_ms")
    if reported_ms > server_ms + NETWORK_TOLERANCE_MS:
        raise RuleViolation(
            "used_ms_ahead_of_server",
            f"A turn of {reported_ms} ms was reported, but the server saw {server_ms} ms "
            f"go by since the turn started (tolerance {NETWORK_TOLERANCE_MS} ms).",
            "used_ms",
        )
    used = max(reported_ms, server_ms - NETWORK_TOLERANCE_MS)
    return min(used, settings.delay_ms + state.reserve_ms[side])


def run_out(settings: ClockSettings, state: ClockState, *, side: int, used_ms: int) -> TurnOutcome:
    """Player ``side``'s flag fell: ``used_ms`` is the *server's* elapsed time of the
    running turn, never a client's figure. Refused (409 ``clock_not_expired``, nothing
    changes) unless it has spent the delay and the reserve: a flag claimed before the
    server's clock ran out is no flag fall."""
    side = _side(side)
    _require_running(state, side)
    needed = settings.delay_ms + state.reserve_ms[side]
    if used_ms < needed:
        raise ConflictError(
            "clock_not_expired",
            f"The flag has not fallen: by the server's clock the turn has used {used_ms} ms "
            f"of {needed} ms.",
            "side",
        )
    return _flag_fall(settings, state, side)


def award_flag(settings: ClockSettings, state: ClockState, *, side: int) -> TurnOutcome:
    """A director rules that ``side``'s flag fell (a clock that failed, a dispute at the
    table), whatever the server's reckoning: the same flag fall as :func:`run_out`.
    Only a running or paused clock of that side's turn can be awarded."""
    side = _side(side)
    if state.status not in (ClockStatus.RUNNING, ClockStatus.PAUSED):
        raise ConflictError(
            "clock_not_running", f"The clock is {state.status}, not running.", "status"
        )
    return _flag_fall(settings, state, side)


def _flag_fall(settings: ClockSettings, state: ClockState, side: int) -> TurnOutcome:
    """The reserve is gone. With overtime first and none used yet, the side gets the
    overtime reserve and the clock pauses (the director is called, then play resumes
    with the same side's turn); otherwise the side is flagged and the clock is over."""
    charged = state.reserve_ms[side]
    emptied = _with_reserve(state.reserve_ms, side, 0)
    if settings.flag_rule == FlagRule.OVERTIME_FIRST and not state.overtime_used[side]:
        used = (True, state.overtime_used[1]) if side == 0 else (state.overtime_used[0], True)
        after = replace(
            state,
            reserve_ms=_with_reserve(state.reserve_ms, side, settings.overtime_ms),
            status=ClockStatus.PAUSED,
            running=side,
            overtime_used=used,
        )
        return TurnOutcome(after, charged, flag_fell=True, overtime=True)
    after = replace(
        state, reserve_ms=emptied, status=ClockStatus.FLAGGED, running=None, flagged=side
    )
    return TurnOutcome(after, charged, flag_fell=True)


def _require_running(state: ClockState, side: int) -> None:
    if state.status != ClockStatus.RUNNING:
        raise ConflictError(
            "clock_not_running", f"The clock is {state.status}, not running.", "status"
        )
    if state.running != side:
        raise ConflictError(
            "not_your_turn", f"It is side {(state.running or 0) + 1}'s time that runs.", "side"
        )


def pause(state: ClockState) -> ClockState:
    """Stop both clocks (either player or the director); pausing a paused clock is a
    no-op, a ready or flagged clock cannot pause (409)."""
    if state.status == ClockStatus.PAUSED:
        return state
    if state.status != ClockStatus.RUNNING:
        raise ConflictError("clock_not_running", f"The clock is {state.status}.", "status")
    return replace(state, status=ClockStatus.PAUSED)


def resume(state: ClockState) -> ClockState:
    """Start the paused side's time again; resuming a running clock is a no-op."""
    if state.status == ClockStatus.RUNNING:
        return state
    if state.status != ClockStatus.PAUSED:
        raise ConflictError("clock_not_paused", f"The clock is {state.status}.", "status")
    return replace(state, status=ClockStatus.RUNNING)
