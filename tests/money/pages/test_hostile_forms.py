"""Hostile input on the director's money forms: every one is a 400 with the rule in words,
never a 500 (a number too big for its column, an empty or missing choice)."""

from __future__ import annotations

import pytest

from money.models import Payment
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999999"


def post(browser, event, action, data):
    return browser.post(f"/tournaments/{event.slug}/director/money/do/{action}/", data)


@pytest.mark.parametrize("value", [HUGE, "1e400", "-1e12"])
def test_a_payment_too_large_for_the_ledger_is_refused_in_words(make_event, browser, value):
    event = make_event(4)
    player = Entry.objects.filter(tournament=event, seed=1).get().player_id
    answer = post(browser, event, "payment", {"player": player, "amount": value, "method": "cash"})
    assert answer.status_code == 400
    assert "is too large" in answer.content.decode()
    assert not Payment.objects.filter(player_id=player).exists()


def test_a_payment_without_a_player_is_refused_in_words(make_event, browser):
    event = make_event(4)
    answer = post(browser, event, "payment", {"player": "", "amount": "5", "method": "cash"})
    assert answer.status_code == 400
    assert "Choose from the list." in answer.content.decode()


@pytest.mark.parametrize(
    ("action", "field"),
    [("registration-fee", "registration_fee"), ("club", "payout_unit"), ("pool", "fee")],
)
def test_other_amounts_too_large_are_refused_in_words(make_event, browser, action, field):
    event = make_event(4)
    data = {"key": "main", "name": "Main", "preset": "winner_takes_all", "paid_by": "event"}
    data[field] = "1e400"
    answer = post(browser, event, action, data)
    assert answer.status_code == 400
    assert "is too large" in answer.content.decode()


@pytest.mark.parametrize("field", ["event_weight", "division_weight"])
def test_a_master_point_weight_too_large_is_refused_in_words(make_event, browser, field):
    event = make_event(4)
    answer = browser.post(
        f"/tournaments/{event.slug}/director/money/master-points/",
        {"formula": "", field: "5000"},
    )
    assert answer.status_code == 400
    assert "is too large" in answer.content.decode()


@pytest.mark.parametrize("value", ["١٢", "１２", "12.5\u0660"])
def test_a_payment_in_other_digits_than_ascii_is_refused_in_words(make_event, browser, value):
    """Issue #25: Decimal reads Arabic-Indic and full-width digits as 12."""
    event = make_event(4)
    player = Entry.objects.filter(tournament=event, seed=1).get().player_id
    answer = post(browser, event, "payment", {"player": player, "amount": value, "method": "cash"})
    assert answer.status_code == 400
    assert "is not an amount such as 12.50" in answer.content.decode()
    assert not Payment.objects.filter(player_id=player).exists()
