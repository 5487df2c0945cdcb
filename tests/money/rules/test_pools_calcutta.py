"""Pools, rake, side pools and the Calcutta, worked by hand."""

from decimal import Decimal
from fractions import Fraction

import pytest

from core.errors import RuleViolation
from money.rules import (
    CALCUTTA,
    HOUSE,
    CalcuttaSpec,
    PoolSpec,
    Sale,
    check_sale,
    event_ledger,
    lot_places,
    pool_places,
    rake,
)

WTA = (Decimal(100),)


def test_rake_is_a_percentage_rounded_down_plus_a_fixed_amount_capped_by_the_fees():
    assert rake(3333, Fraction(10), 0) == 333  # 333.3 cents -> 333
    assert rake(1000, Fraction(5), 200) == 250
    assert rake(100, Fraction(50), 500) == 100  # never more than the fees


def test_added_money_is_never_raked():
    pool = PoolSpec(
        key="main", fee=1000, entrants=("a", "b"), table=WTA, added=5000, rake_percent=Fraction(10)
    )
    assert pool.rake == 200 and pool.net == 6800


def test_side_pool_pays_its_best_entrant_even_below_the_paid_places():
    side = PoolSpec(
        key="side", fee=500, entrants=("c", "e"), table=(Decimal(70), Decimal(30)), side=True
    )
    places = [["a"], ["b"], ["c", "d"], ["e", "f", "g", "h"]]
    assert pool_places(side, places) == [["c"], ["e"]]
    ledger = event_ledger(pools=[side], places=places)
    assert {p.person: p.amount for p in ledger.distributions["side"].payments} == {
        "c": 700,
        "e": 300,
    }


def test_the_directors_award_order_replaces_the_places():
    side = PoolSpec(
        key="side", fee=500, entrants=("c", "e"), table=WTA, side=True, award_order=(("e",),)
    )
    ledger = event_ledger(pools=[side], places=[["c"], ["e"]])
    assert ledger.distributions["side"].payments[0].person == "e"


def test_a_held_pool_sits_with_the_house_until_the_end():
    pool = PoolSpec(key="main", fee=1000, entrants=("a", "b"), table=WTA)
    ledger = event_ledger(pools=[pool], places=None, registration={"a": 200, "b": 200})
    assert ledger.net() == {"a": -1200, "b": -1200, HOUSE: 2400}


def test_syndicate_and_buy_back_shares():
    sale = Sale(
        lot="1",
        price=10000,
        buyers=(("x", Fraction(3, 5)), ("y", Fraction(2, 5))),
        buy_backs=(("p", Fraction(1, 4)),),
    )
    assert dict(sale.owners) == {"x": Fraction(9, 20), "y": Fraction(3, 10), "p": Fraction(1, 4)}
    assert sale.contributions() == {"x": 4500, "y": 3000, "p": 2500}
    assert sale.winnings(101) == {"x": 46, "y": 30, "p": 25}
    assert sum(sale.winnings(101).values()) == 101


@pytest.mark.parametrize(
    ("sale", "players", "code"),
    [
        (Sale("1", 0, (("x", Fraction(1)),)), ["p"], "invalid_price"),
        (Sale("1", 100, (("x", Fraction(1, 2)),)), ["p"], "shares_not_100"),
        (
            Sale("1", 100, (("x", Fraction(1)),), (("q", Fraction(1, 10)),)),
            ["p"],
            "buy_back_not_in_lot",
        ),
        (
            Sale("1", 100, (("x", Fraction(1)),), (("p", Fraction(3, 5)),)),
            ["p"],
            "buy_back_over_limit",
        ),
    ],
)
def test_bad_sales_are_refused(sale, players, code):
    with pytest.raises(RuleViolation) as error:
        check_sale(sale, players, buy_back_limit=Fraction(1, 2))
    assert error.value.code == code


def test_a_group_lot_finishes_where_its_best_player_did_and_unsold_lots_drop_out():
    lots = {"1": ["a"], "2": ["b"], "field": ["c", "d", "e"]}
    places = [["a"], ["d"], ["b", "c"], ["e"]]
    assert lot_places(lots, places, {"1", "field"}) == [["1"], ["field"]]
    assert lot_places(lots, places, {"1", "2", "field"}) == [["1"], ["field"], ["2"]]


def test_calcutta_pool_pays_the_lots_owners():
    calcutta = CalcuttaSpec(
        lots={"1": ["a"], "2": ["b"]},
        sales=[Sale("1", 6000, (("x", Fraction(1)),)), Sale("2", 4000, (("y", Fraction(1)),))],
        table=(Decimal(70), Decimal(30)),
        rake_percent=Fraction(10),
    )
    ledger = event_ledger(pools=[], places=[["b"], ["a"]], calcutta=calcutta)
    assert ledger.net() == {"x": -6000 + 2700, "y": -4000 + 6300, HOUSE: 1000}
    assert ledger.pool_totals(CALCUTTA) == {"bid": -10000, "rake": 1000, "winnings": 9000}
