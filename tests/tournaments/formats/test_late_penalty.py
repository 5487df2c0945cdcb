"""The UKBGF late penalty (tournaments.formats.late_penalty)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.errors import FormatError
from tournaments.formats.late_penalty import (
    late_penalty,
    minutes_since,
    minutes_until_next_point,
    own_call,
    penalty_to_apply,
    points_lost_at,
)

minutes = st.integers(min_value=0, max_value=600)
lengths = st.integers(min_value=1, max_value=25)


@pytest.mark.parametrize(
    ("minutes_late", "points"), [(0, 0), (4, 0), (5, 1), (9, 1), (10, 2), (14, 2), (15, 3)]
)
def test_one_point_after_five_minutes_then_one_per_further_five(minutes_late, points):
    assert late_penalty(minutes_late, 11).points == points


def test_seven_point_match_is_lost_at_four_points_not_three():
    assert not late_penalty(19, 7).match_lost  # 3 points: 3 < 3.5
    assert late_penalty(20, 7).match_lost  # 4 points: beyond half


def test_exactly_half_the_match_length_is_not_beyond_it():
    assert not late_penalty(10, 4).match_lost  # 2 points = half of 4
    assert late_penalty(15, 4).match_lost


def test_one_point_match_is_lost_at_the_first_penalty_point():
    assert not late_penalty(4, 1).match_lost
    assert late_penalty(5, 1).match_lost


def test_nothing_due_when_on_time():
    assert not late_penalty(3, 5).due


@pytest.mark.parametrize(("minutes_late", "length"), [(-1, 5), (5, 0), (True, 5), (5, True)])
def test_bad_input_is_refused(minutes_late, length):
    with pytest.raises(FormatError):
        late_penalty(minutes_late, length)


@given(minutes, lengths)
def test_lost_exactly_when_points_are_beyond_half(minutes_late, length):
    result = late_penalty(minutes_late, length)
    assert result.points == minutes_late // 5
    assert result.match_lost == (result.points * 2 > length)


@given(minutes, minutes, lengths)
def test_penalty_never_shrinks_as_lateness_grows(a, b, length):
    early, late = sorted((a, b))
    assert late_penalty(early, length).points <= late_penalty(late, length).points
    assert late_penalty(late, length).match_lost or not late_penalty(early, length).match_lost


@given(minutes, lengths, st.integers(min_value=0, max_value=200))
def test_applying_again_never_awards_twice(minutes_late, length, applied):
    first = penalty_to_apply(minutes_late, length, applied)
    assert first.points == max(0, minutes_late // 5 - applied)
    again = penalty_to_apply(minutes_late, length, applied + first.points)
    assert again.points == 0


@given(minutes)
def test_next_point_is_within_five_minutes(minutes_late):
    wait = minutes_until_next_point(minutes_late)
    assert 1 <= wait <= 5
    assert (minutes_late + wait) // 5 == minutes_late // 5 + 1


@given(st.integers(min_value=0, max_value=30), lengths)
def test_points_lost_at_agrees_with_the_rule(points, length):
    assert points_lost_at(points, length) == (points > length / 2)


def test_a_match_made_after_its_rounds_call_is_late_from_when_it_was_made():
    """Issue 41: lateness of a match made after the call counts from its own call."""
    called = datetime(2026, 12, 5, 10, 0, tzinfo=UTC)
    made = called + timedelta(minutes=25)
    now = called + timedelta(minutes=31)
    assert own_call(called, made) == made and minutes_since(own_call(called, made), now) == 6
    assert own_call(called, called - timedelta(minutes=3)) == called  # made before: the call
    assert own_call(called, None) == called
