"""The match clock's rules (games.rules.clock): presets, the mid-match formula and the
state machine the browser mirrors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.clock import (
    MINUTE,
    NETWORK_TOLERANCE_MS,
    PRESETS,
    SECOND,
    SKEW_ALLOWANCE_MS,
    ClockSettings,
    ClockStatus,
    FlagRule,
    Preset,
    award_flag,
    charge,
    custom_settings,
    end_turn,
    new_clock,
    pause,
    preset_settings,
    reckon_turn,
    resume,
    run_out,
    starting_reserve_ms,
)
from games.rules.errors import ConflictError, RuleViolation

lengths = st.integers(min_value=1, max_value=25)
times = st.integers(min_value=0, max_value=30 * MINUTE)


def running(settings: ClockSettings, side: int = 0):
    """A clock whose ``side`` runs: the other side pressed first."""
    return end_turn(settings, new_clock(settings), side=1 - side, used_ms=0).state


def test_usbgf_preset_is_12_seconds_and_2_minutes_a_point():
    settings = preset_settings(Preset.USBGF, length=7)
    assert settings.delay_ms == 12 * SECOND
    assert settings.reserve_ms == 14 * MINUTE


def test_usbgf_mid_match_takes_a_minute_per_point_scored_by_both_players():
    # an 11-point match at 4-3: 22 minutes less 7
    assert preset_settings(Preset.USBGF, length=11, scored=7).reserve_ms == 15 * MINUTE


@given(length=lengths, data=st.data())
def test_mid_match_formula(length, data):
    s1 = data.draw(st.integers(0, length - 1))
    s2 = data.draw(st.integers(0, length - 1))
    reserve = starting_reserve_ms(PRESETS[Preset.USBGF], length=length, scored=s1 + s2)
    assert reserve == 2 * MINUTE * length - MINUTE * (s1 + s2)
    assert reserve >= 2 * MINUTE  # an unfinished match always leaves a point's worth


def test_ukbgf_and_online_presets_do_not_shrink_mid_match():
    for preset in (Preset.UKBGF, Preset.ONLINE_FAST, Preset.ONLINE_STANDARD):
        assert (
            preset_settings(preset, length=5, scored=6).reserve_ms
            == preset_settings(preset, length=5).reserve_ms
        )


def test_custom_preset_needs_its_numbers():
    with pytest.raises(RuleViolation) as error:
        preset_settings(Preset.CUSTOM, length=5)
    assert error.value.field == "preset"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"delay_ms": -1, "reserve_ms": MINUTE}, "delay_ms"),
        ({"delay_ms": 0, "reserve_ms": 0}, "reserve_ms"),
        (
            {"delay_ms": 0, "reserve_ms": MINUTE, "flag_rule": FlagRule.OVERTIME_FIRST},
            "overtime_ms",
        ),
    ],
)
def test_custom_settings_name_the_field_out_of_range(kwargs, field):
    with pytest.raises(RuleViolation) as error:
        custom_settings(**kwargs)
    assert error.value.field == field


@given(delay=times, reserve=times, used=times)
def test_charge_never_exceeds_the_reserve_and_the_delay_is_free(delay, reserve, used):
    spent = charge(delay, reserve, used)
    assert 0 <= spent <= reserve
    if used <= delay:
        assert spent == 0


def test_first_tap_starts_the_other_side_and_costs_nothing():
    settings = ClockSettings(delay_ms=12 * SECOND, reserve_ms=MINUTE)
    outcome = end_turn(settings, new_clock(settings), side=0, used_ms=0)
    assert outcome.state.status == ClockStatus.RUNNING
    assert outcome.state.running == 1
    assert outcome.state.reserve_ms == (MINUTE, MINUTE)


@given(
    delay=st.integers(0, MINUTE),
    reserve=st.integers(SECOND, 10 * MINUTE),
    turns=st.lists(st.integers(0, 5 * MINUTE), max_size=30),
)
def test_reserve_never_negative_and_flag_exactly_when_exhausted(delay, reserve, turns):
    settings = ClockSettings(delay_ms=delay, reserve_ms=reserve)
    state = running(settings)
    for used in turns:
        side = state.running
        left = state.reserve_ms[side]
        if used > delay + left + SKEW_ALLOWANCE_MS:
            with pytest.raises(RuleViolation):
                end_turn(settings, state, side=side, used_ms=used)
            break
        outcome = end_turn(settings, state, side=side, used_ms=used)
        state = outcome.state
        assert min(state.reserve_ms) >= 0
        assert outcome.flag_fell == (used >= delay + left)
        if outcome.flag_fell:
            assert state.status == ClockStatus.FLAGGED
            assert state.flagged == side
            assert state.reserve_ms[side] == 0
            break
        assert state.reserve_ms[side] == left - max(used - delay, 0)
        assert state.reserve_ms[1 - side] > 0


def test_a_turn_within_the_delay_leaves_the_reserve_alone():
    settings = ClockSettings(delay_ms=12 * SECOND, reserve_ms=MINUTE)
    outcome = end_turn(settings, running(settings), side=0, used_ms=12 * SECOND)
    assert outcome.state.reserve_ms == (MINUTE, MINUTE)
    assert outcome.state.running == 1


def test_turn_longer_than_delay_reserve_and_skew_is_refused():
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=SECOND)
    with pytest.raises(RuleViolation) as error:
        end_turn(settings, running(settings), side=0, used_ms=2 * SECOND + SKEW_ALLOWANCE_MS + 1)
    assert error.value.code == "turn_too_long"


def test_only_the_running_side_ends_a_turn():
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=MINUTE)
    with pytest.raises(ConflictError) as error:
        end_turn(settings, running(settings, side=0), side=1, used_ms=0)
    assert error.value.code == "not_your_turn"


def test_flag_claim_before_the_time_is_up_is_refused():
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=10 * SECOND)
    with pytest.raises(ConflictError) as error:
        run_out(settings, running(settings), side=0, used_ms=11 * SECOND - 1)
    assert error.value.code == "clock_not_expired"


def test_flag_fall_loses_under_the_loss_rule():
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=2 * SECOND)
    outcome = run_out(settings, running(settings), side=0, used_ms=3 * SECOND)
    assert outcome.flag_fell and not outcome.overtime
    assert outcome.state.status == ClockStatus.FLAGGED
    assert outcome.state.flagged == 0


def test_overtime_first_then_the_second_flag_loses():
    settings = ClockSettings(
        delay_ms=SECOND,
        reserve_ms=2 * SECOND,
        flag_rule=FlagRule.OVERTIME_FIRST,
        overtime_ms=MINUTE,
    )
    first = run_out(settings, running(settings), side=0, used_ms=3 * SECOND)
    assert first.overtime
    assert first.state.status == ClockStatus.PAUSED
    assert first.state.reserve_ms[0] == MINUTE
    assert first.state.running == 0
    again = run_out(settings, resume(first.state), side=0, used_ms=SECOND + MINUTE)
    assert again.state.status == ClockStatus.FLAGGED
    assert again.state.flagged == 0


def test_pause_and_resume_are_idempotent_and_keep_the_side():
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=MINUTE)
    state = running(settings, side=1)
    paused = pause(pause(state))
    assert paused.status == ClockStatus.PAUSED
    assert resume(resume(paused)) == state


def test_a_ready_clock_cannot_pause():
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=MINUTE)
    with pytest.raises(ConflictError):
        pause(new_clock(settings))


@given(
    delay=st.integers(min_value=0, max_value=MINUTE),
    reserve=st.integers(min_value=SECOND, max_value=30 * MINUTE),
    reported=times,
    server=times,
)
def test_the_servers_reckoning_wins(delay, reserve, reported, server):
    """A report within the tolerance of the server's elapsed time stands; a longer one
    is refused; a shorter one is raised to the server's time less the tolerance; and
    nothing is ever charged beyond the delay and the reserve (that is a flag fall)."""
    settings = ClockSettings(delay_ms=delay, reserve_ms=reserve)
    state = running(settings)
    if reported > server + NETWORK_TOLERANCE_MS:
        with pytest.raises(RuleViolation) as error:
            reckon_turn(settings, state, side=0, reported_ms=reported, server_ms=server)
        assert error.value.code == "used_ms_ahead_of_server"
        return
    used = reckon_turn(settings, state, side=0, reported_ms=reported, server_ms=server)
    assert used <= delay + reserve
    assert used >= min(server - NETWORK_TOLERANCE_MS, delay + reserve)
    assert used == min(max(reported, server - NETWORK_TOLERANCE_MS), delay + reserve)
    end_turn(settings, state, side=0, used_ms=used)  # never too long for the rules


@given(reserve=st.integers(min_value=SECOND, max_value=30 * MINUTE), server=times)
def test_a_flag_falls_exactly_when_the_servers_time_is_spent(reserve, server):
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=reserve)
    if server < SECOND + reserve:
        with pytest.raises(ConflictError) as error:
            run_out(settings, running(settings), side=0, used_ms=server)
        assert error.value.code == "clock_not_expired"
    else:
        assert run_out(settings, running(settings), side=0, used_ms=server).flag_fell


def test_a_director_awards_a_flag_whatever_the_time():
    settings = ClockSettings(delay_ms=SECOND, reserve_ms=MINUTE)
    outcome = award_flag(settings, running(settings, side=1), side=1)
    assert outcome.state.status == ClockStatus.FLAGGED and outcome.state.flagged == 1
    with pytest.raises(ConflictError):
        award_flag(settings, new_clock(settings), side=1)


def test_time_left_is_what_the_page_shows():
    """The figures the server answers for the page: the running turn's delay left, and
    the running side's reserve less what the turn took beyond the delay (never below
    zero); the other side and a ready clock are as stored."""
    from games.rules.clock import ClockSettings, ClockState, ClockStatus, time_left

    settings = ClockSettings(delay_ms=1000, reserve_ms=5000)
    running = ClockState((5000, 4000), ClockStatus.RUNNING, running=1)
    assert time_left(settings, running, elapsed_ms=0) == (1000, (5000, 4000))
    assert time_left(settings, running, elapsed_ms=2500) == (0, (5000, 2500))
    assert time_left(settings, running, elapsed_ms=60_000) == (0, (5000, 0))
    paused = ClockState((5000, 4000), ClockStatus.PAUSED, running=0)
    assert time_left(settings, paused, elapsed_ms=1500) == (0, (4500, 4000))
    ready = ClockState((5000, 5000))
    assert time_left(settings, ready, elapsed_ms=0) == (1000, (5000, 5000))
