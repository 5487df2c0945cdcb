"""Master points, USBGF 2019 formula as quoted in issue 15."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import RuleViolation
from money.rules.master_points import (
    Weights,
    award,
    usbgf_2019_match_win,
    usbgf_2019_placement,
    usbgf_2019_rank_factor,
)

ONE = Weights()


def test_match_win_is_sqrt_length_over_three():
    assert usbgf_2019_match_win(ONE, 9) == Decimal("1.00")
    assert usbgf_2019_match_win(ONE, 7) == Decimal("0.88")  # 2.6458 / 3
    assert usbgf_2019_match_win(Weights(Decimal(2), Decimal("1.5")), 9) == Decimal("3.00")


def test_rank_factors():
    assert [usbgf_2019_rank_factor(r) for r in (1, 2)] == [Decimal(1), Decimal("0.7")]
    assert usbgf_2019_rank_factor(3) == Decimal("0.5")
    assert usbgf_2019_rank_factor(5) == Decimal("0.25")


def test_placement_of_a_16_player_event_with_shared_places():
    # base 0.6 x log2(16) = 2.4; first 2.4, second 1.68; 3-4 share (1/2 + 1/3) / 2
    points = usbgf_2019_placement(ONE, 16, [["a"], ["b"], ["c", "d"]])
    assert points == {
        "a": Decimal("2.40"),
        "b": Decimal("1.68"),
        "c": Decimal("1.00"),
        "d": Decimal("1.00"),
    }


def test_award_adds_match_wins_and_refuses_unknown_formulas():
    totals = award(
        "usbgf-2019", ONE, players=4, places=[["a"], ["b"]], match_wins=[("a", 9), ("a", 9)]
    )
    assert totals["a"] == Decimal("1.20") + Decimal("2.00")
    with pytest.raises(RuleViolation) as error:
        award("acbl", ONE, players=4, places=[], match_wins=[])
    assert error.value.code == "unknown_formula"


@given(
    players=st.integers(2, 256),
    sizes=st.lists(st.integers(1, 4), min_size=1, max_size=8),
)
def test_ties_spread_the_factors_of_the_ranks_they_hold(players, sizes):
    people = iter(range(1000))
    places = [[next(people) for _ in range(size)] for size in sizes]
    points = usbgf_2019_placement(ONE, players, places)
    # a better place never earns fewer points, and tied players earn the same
    flat = [points[p[0]] for p in places]
    assert flat == sorted(flat, reverse=True)
    for place in places:
        assert len({points[p] for p in place}) == 1
