"""Payout tables, rounding, shared places and splits, worked by hand."""

from decimal import Decimal

import pytest

from core.errors import RuleViolation
from money.rules import PRESETS, Remainder, check_table, distribute, to_cents


def test_presets_sum_to_100():
    for _label, table in PRESETS.values():
        check_table(table)


def test_table_not_summing_to_100_is_refused():
    with pytest.raises(RuleViolation) as error:
        check_table([Decimal(50), Decimal(40)])
    assert error.value.code == "payout_table_not_100"


def test_floats_are_refused():
    with pytest.raises(RuleViolation) as error:
        to_cents(12.5, field="fee")  # type: ignore[arg-type]
    assert error.value.code == "invalid_amount"
    with pytest.raises(RuleViolation) as error:
        check_table([100.0])  # type: ignore[list-item]
    assert error.value.code == "invalid_percent"


def test_fraction_of_a_cent_is_refused():
    with pytest.raises(RuleViolation) as error:
        to_cents(Decimal("1.005"), field="fee")
    assert error.value.code == "amount_below_cent"


def test_fifty_twenty_five_of_333_with_remainder_to_the_winner():
    # 333.00 by 50/25/12.5/12.5 rounded to whole units: 166.50 -> 166, 83.25 -> 83,
    # 41.625 -> 41 twice; 2.00 left over goes to the winner
    table = PRESETS["50_25_12.5_12.5"][1]
    result = distribute(33300, [["a"], ["b"], ["c"], ["d"]], table, unit=100)
    assert {p.person: p.amount for p in result.payments} == {
        "a": 16800,
        "b": 8300,
        "c": 4100,
        "d": 4100,
    }
    assert result.remainder == 200
    assert result.house_remainder == 0


def test_remainder_kept_by_the_house_is_stated():
    table = PRESETS["50_25_12.5_12.5"][1]
    result = distribute(
        33300, [["a"], ["b"], ["c"], ["d"]], table, unit=100, remainder=Remainder.HOUSE
    )
    assert result.paid == 16600 + 8300 + 4100 + 4100
    assert result.house_remainder == 200 == result.net - result.paid


def test_shared_place_splits_the_sum_of_its_positions():
    # 30/20/15/15/10/10 of 1000: semi-final losers share 3-4 (15+15), quarter-final
    # losers share 5-8 (10+10+0+0) split four ways
    table = PRESETS["30_20_15_15_10_10"][1]
    places = [["w"], ["r"], ["s1", "s2"], ["q1", "q2", "q3", "q4"]]
    result = distribute(100000, places, table)
    amounts = {p.person: p.amount for p in result.payments}
    assert amounts["w"] == 30000 and amounts["r"] == 20000
    assert amounts["s1"] == amounts["s2"] == 15000
    assert amounts["q1"] == amounts["q4"] == 5000
    assert result.remainder == 0


def test_finalists_who_split_share_first_and_second_equally():
    table = PRESETS["50_25_12.5_12.5"][1]
    result = distribute(40000, [["a"], ["b"], ["c", "d"]], table, splits=[["a", "b"]])
    amounts = {p.person: p.amount for p in result.payments}
    assert amounts["a"] == amounts["b"] == 15000
    assert amounts["c"] == amounts["d"] == 5000


def test_short_field_scales_the_table_to_the_places_held():
    table = PRESETS["50_25_12.5_12.5"][1]
    result = distribute(7500, [["a"], ["b"]], table)
    amounts = {p.person: p.amount for p in result.payments}
    assert amounts == {"a": 5000, "b": 2500}


def test_nobody_placed_leaves_the_pool_with_the_house():
    result = distribute(1000, [], PRESETS["winner_takes_all"][1])
    assert result.payments == () and result.house_remainder == 1000
