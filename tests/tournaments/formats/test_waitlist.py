"""Capped fields and the waitlist (tournaments.formats.waitlist)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats.waitlist import (
    Waiting,
    joins_waitlist,
    moving_up,
    next_position,
    places_left,
    renumbered,
)


def test_uncapped_field_never_waits():
    assert not joins_waitlist(None, 500)
    assert places_left(None, 3) is None


def test_full_field_waits():
    assert not joins_waitlist(8, 7)
    assert joins_waitlist(8, 8)


def test_waitlist_moves_up_in_queue_order():
    queue = [Waiting(30, 2), Waiting(10, 1), Waiting(20, 3)]
    assert moving_up(8, 6, queue) == [10, 30]


def test_check_in_required_passes_over_the_absent():
    queue = [Waiting(10, 1, checked_in=False), Waiting(20, 2, checked_in=True)]
    assert moving_up(8, 7, queue, require_check_in=True) == [20]
    assert moving_up(8, 7, queue) == [10]


def test_newcomer_goes_to_the_back():
    assert next_position([]) == 1
    assert next_position([1, 4, 2]) == 5


def test_renumbered_closes_the_gaps():
    queue = [Waiting(10, 1), Waiting(20, 2), Waiting(30, 5)]
    assert renumbered(queue, [10]) == {20: 1, 30: 2}


waiting_lists = st.lists(
    st.builds(Waiting, st.integers(1, 1000), st.integers(1, 50), st.booleans()),
    unique_by=lambda w: w.entry_id,
    max_size=20,
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 40), st.integers(0, 40), waiting_lists, st.booleans())
def test_never_overfills_and_keeps_queue_order(capacity, active, waiting, require):
    up = moving_up(capacity, active, waiting, require_check_in=require)
    assert len(up) <= max(0, capacity - active)
    queue = [w.entry_id for w in sorted(waiting, key=lambda w: (w.position, w.entry_id))]
    assert up == [e for e in queue if e in set(up)]
    if require:
        checked = {w.entry_id for w in waiting if w.checked_in}
        assert set(up) <= checked
    left = renumbered(waiting, up)
    assert sorted(left.values()) == list(range(1, len(waiting) - len(up) + 1))
