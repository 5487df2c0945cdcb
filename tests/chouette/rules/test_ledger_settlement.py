"""The running ledger and the settlement (docs/rules.md, "The chouette")."""

from collections.abc import Hashable
from decimal import Decimal

import pytest

from chouette.rules import Ledger, Transfer, minimum_transfers, money_totals, settle
from games.rules.errors import RuleViolation


def test_ledger_running_totals():
    ledger = Ledger(["a", "b", "c"])
    ledger.record({"a": 2, "b": -1, "c": -1})
    row = ledger.record({"a": -4, "b": 2, "c": 2})
    assert row.game == 2
    assert dict(row.totals) == {"a": -2, "b": 1, "c": 1}
    assert [dict(r.payouts) for r in ledger.rows] == [
        {"a": 2, "b": -1, "c": -1},
        {"a": -4, "b": 2, "c": 2},
    ]
    assert sum(ledger.totals.values()) == 0


def test_ledger_refuses_a_game_that_does_not_sum_to_zero():
    ledger = Ledger(["a", "b"])
    with pytest.raises(RuleViolation) as error:
        ledger.record({"a": 2, "b": -1})
    assert error.value.code == "ledger_not_zero_sum"
    assert ledger.rows == ()


def test_ledger_newcomers_and_leavers_keep_totals():
    ledger = Ledger.from_games([{"a": 1, "b": -1}, {"a": 1, "c": -1}], players=["a", "b"])
    assert dict(ledger.totals) == {"a": 2, "b": -1, "c": -1}
    ledger.add_player("d")
    assert ledger.totals["d"] == 0


def test_money_is_exact_to_the_cent():
    totals: dict[Hashable, int] = {"a": 7, "b": -3, "c": -4}
    assert money_totals(totals, Decimal("0.25")) == {
        "a": Decimal("1.75"),
        "b": Decimal("-0.75"),
        "c": Decimal("-1.00"),
    }
    assert money_totals(totals, Decimal("2"))["a"] == Decimal("14.00")


@pytest.mark.parametrize(
    ("stake", "code"),
    [
        (Decimal("0.125"), "stake_below_cent"),
        (Decimal("0"), "invalid_stake"),
        (Decimal("-1"), "invalid_stake"),
        (Decimal("NaN"), "invalid_stake"),
        (1.5, "invalid_stake"),
    ],
)
def test_bad_stakes_refused(stake, code):
    with pytest.raises(RuleViolation) as error:
        settle({"a": 1, "b": -1}, stake)
    assert (error.value.code, error.value.field) == (code, "stake")


def test_settle_refuses_totals_that_do_not_sum_to_zero():
    with pytest.raises(RuleViolation) as error:
        settle({"a": 1, "b": 0}, Decimal("1.00"))
    assert error.value.code == "ledger_not_zero_sum"


def test_settlement_uses_zero_sum_groups():
    # {a, e} and {b, c, d} square separately: 1 + 2 transfers, where a naive greedy
    # matching largest with largest would use 4.
    totals: dict[Hashable, int] = {"a": 5, "b": 4, "c": -2, "d": -2, "e": -5}
    transfers = settle(totals, Decimal("1.00"))
    assert len(transfers) == 3
    assert Transfer("e", "a", Decimal("5.00")) in transfers


def test_settlement_nothing_to_pay():
    assert settle({"a": 0, "b": 0, "c": 0}, Decimal("5.00")) == []


def test_settlement_amounts_in_money():
    transfers = settle({"a": 3, "b": -3}, Decimal("2.50"))
    assert transfers == [Transfer("b", "a", Decimal("7.50"))]


def test_greedy_fallback_beyond_the_exact_limit_still_squares():
    balances: dict[Hashable, int] = {i: (i + 1) * (-1) ** i for i in range(9)}
    balances[9] = -sum(balances.values())
    transfers = minimum_transfers(balances, exact_limit=3)
    left = dict(balances)
    for payer, payee, amount in transfers:
        left[payer] += amount
        left[payee] -= amount
    assert all(v == 0 for v in left.values())
    assert len(transfers) <= len(balances) - 1
