"""Bad input on every money form, through the pages as a director posts it: a 400 (never
a 5xx), the rule in words right beside the field it names (``<p class="error"
id="<form>-<field>-error">``: "<label>: <rule>", the field marked invalid), the form's
summary pointing there ("Not saved. See <label> below."), and nothing written (every
money row, its history included, as it was)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.apps import apps

from money import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

MONEY = "/tournaments/{slug}/director/money/"


def money_rows() -> dict[str, list[dict[str, Any]]]:
    """Every row of every money model (history included): what "nothing written" means."""
    return {
        model.__name__: list(model._default_manager.order_by("pk").values())
        for model in apps.get_app_config("money").get_models()
    }


def field_error(page: str, element_id: str) -> str:
    found = re.search(rf'<p class="error" id="{re.escape(element_id)}">(.*?)</p>', page)
    assert found, f"no error beside the field #{element_id}"
    return html.unescape(found.group(1))


def _text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_a_rule_about_a_hidden_field_is_written_in_the_summary(browser, event_with_money):
    """Removing a pool that is not there names the pool, a hidden input: the rule is in
    the form's summary, as there is no field to write it beside."""
    url = MONEY.format(slug=event_with_money.slug) + "do/delete-pool/"
    before = money_rows()
    answer = browser.post(url, {"key": "nope"})
    assert answer.status_code == 400
    text = _text(answer.content.decode())
    assert "Not saved. Pool: " in text and "See Pool below." not in text
    assert money_rows() == before


@pytest.fixture
def event_with_money(make_event, actor):
    """An event with a main pool with buy-backs, a Calcutta and one lot sold."""
    event = make_event(4)
    services.save_pool(
        actor=actor,
        tournament=event,
        key="main",
        name="Main",
        fee=20,
        buy_back_fee=10,
        buy_back_until_round=1,
    )
    services.configure_calcutta(actor=actor, tournament=event)
    seeds = {e.seed: e for e in Entry.objects.filter(tournament=event)}
    lot = services.add_lot(actor=actor, tournament=event, label="", entry_ids=[seeds[1].pk])
    services.sell_lot(
        actor=actor, tournament=event, lot_id=lot.pk, price=50, buyers=[(seeds[2].player_id, 100)]
    )
    event.lot_id = lot.pk
    event.seeds = seeds
    return event


def _cases(event: Any) -> list[tuple[str, str, dict[str, Any], str, str]]:
    """(url, error element id, posted, label words, rule words) for each form."""
    lot, player, other = str(event.lot_id), event.seeds[1].player_id, event.seeds[3].player_id
    act = MONEY.format(slug=event.slug) + "do/{}/"
    pool = {"key": "main", "name": "Main", "preset": "winner_takes_all"}
    return [
        (act.format("pool"), "pool-fee-error", {**pool, "fee": "abc"}, "Entry fee",
         "'abc' is not an amount such as 12.50."),
        (act.format("pool"), "pool-table-error",
         {**pool, "fee": "20", "preset": "custom", "table": "50 / 40"}, "Payout table",
         "The percentages sum to 90, not 100."),
        (act.format("pool"), "pool-buy_back_until_round-error",
         {**pool, "buy_back_until_round": "two"}, "Buy-backs open for players out by round",
         "Enter a whole number such as 3."),
        (act.format("registration-fee"), "registration-fee-registration_fee-error",
         {"registration_fee": "1e400"}, "Registration fee", "is too large"),
        (act.format("club"), "club-payout_unit-error", {"currency": "EUR", "payout_unit": "x"},
         "Smallest unit paid out", "'x' is not an amount"),
        (act.format("payment"), "payment-player-error", {"player": "", "amount": "5"},
         "Player", "Choose from the list."),
        (act.format("payment"), "payment-amount-error",
         {"player": player, "amount": "١٢", "method": "cash"}, "Amount", "is not an amount"),
        (act.format("buy-back"), "buy-back-entry-main-error", {"key": "main", "entry": "x"},
         "Player", "Choose from the list."),
        (act.format("buy-back"), "buy-back-entry-main-error",
         {"key": "main", "entry": "99999999999999999999999"}, "Player",
         "Choose from the list."),
        (act.format("split"), "split-entries-error", {"entries": ["1", "x"]}, "Players",
         "Choose from the list."),
        (act.format("calcutta"), "calcutta-rake_percent-error",
         {"preset": "winner_takes_all", "rake_percent": "ten"}, "Rake %", "is not an amount"),
        (act.format("lot"), "lot-entries-error", {"label": "A", "entries": ["abc"]},
         "Players in the lot", "Choose from the list."),
        (act.format("sale"), f"sale-price-{lot}-error", {"lot": lot, "price": "lots"}, "Price",
         "is not an amount"),
        (act.format("sale"), f"sale-buyer-{lot}-error",
         {"lot": lot, "price": "50", "buyer": [player, other], "share": ["70", "20"]},
         "Buyers", "shares sum to 90 %"),
        (act.format("lot-buy-back"), f"lot-buy-back-percent-{lot}-error",
         {"lot": lot, "entry": event.seeds[1].pk, "percent": "half"}, "Buy-back %",
         "is not an amount"),
        (MONEY.format(slug=event.slug) + "award/", "award-main-place-error",
         {"key": "main", "place": ["P01"]}, "Who a pool pays", "Choose from the list."),
        (MONEY.format(slug=event.slug) + "master-points/", "master-points-event_weight-error",
         {"formula": "usbgf-2019", "event_weight": "5000"}, "Event weight", "is too large"),
    ]  # fmt: skip


def test_every_form_refuses_bad_input_beside_the_field(browser, event_with_money):
    cases = _cases(event_with_money)
    for url, element_id, posted, label, rule in cases:
        before = money_rows()
        answer = browser.post(url, posted)
        assert answer.status_code == 400, (element_id, answer.status_code)
        page = answer.content.decode()
        beside = field_error(page, element_id)
        assert beside.startswith(f"{label}: ") and rule in beside, element_id
        assert f"Not saved. See {label} below." in _text(page), element_id
        assert money_rows() == before, f"{element_id}: something was written"


def test_a_refused_field_is_marked_invalid(browser, event_with_money):
    url = MONEY.format(slug=event_with_money.slug) + "do/pool/"
    page = browser.post(url, {"key": "main", "fee": "abc"}).content.decode()
    marked = re.search(r'<div class="field invalid"><label for="pool-fee">', page)
    assert marked, "the entry fee's field is not marked invalid"
    assert page.count('class="field invalid"') == 1


def test_an_error_shows_in_the_one_lot_it_belongs_to(browser, event_with_money, actor):
    """Each lot has its own sale form: the rule shows beside the lot that was posted."""
    event = event_with_money
    other = services.add_lot(actor=actor, tournament=event, label="", entry_ids=[event.seeds[2].pk])
    url = MONEY.format(slug=event.slug) + "do/sale/"
    page = browser.post(url, {"lot": other.pk, "price": "lots"}).content.decode()
    assert "is not an amount" in field_error(page, f"sale-price-{other.pk}-error")
    assert f'id="sale-price-{event.lot_id}-error"' not in page


@pytest.mark.parametrize(
    ("posted", "element_id", "label", "rule"),
    [
        (
            {"form": "table", "per_match_won": "1", "min_players": ["eight"],
             "max_players": [""], "points": ["10/6"]},
            "table-min_players-error", "From players", "Enter a whole number such as 3.",
        ),
        (
            {"form": "table", "per_match_won": "1", "min_players": ["8"], "max_players": [""],
             "points": ["10/six"]},
            "table-points-error", "Points by place", "'six' is not an amount",
        ),
        (
            {"form": "table", "per_match_won": "many", "min_players": [""],
             "max_players": [""], "points": [""]},
            "table-per_match_won-error", "Points per match won", "is not an amount",
        ),
        (
            {"form": "season", "day": "first", "month": "9"},
            "season-day-error", "Starts on day", "Enter a whole number such as 3.",
        ),
        (
            {"form": "season", "day": "31", "month": "2"},
            "season-day-error", "Starts on day", "",
        ),
    ],
)  # fmt: skip
def test_the_club_points_table_refuses_bad_input_beside_the_field(
    browser, make_event, posted, element_id, label, rule
):
    club = make_event(4).club
    url = f"/clubs/{club.slug}/master-points/table/"
    before = money_rows()
    answer = browser.post(url, posted)
    assert answer.status_code == 400
    page = answer.content.decode()
    beside = field_error(page, element_id)
    assert beside.startswith(f"{label}: ") and rule in beside
    assert f"Not saved. See {label} below." in _text(page)
    assert money_rows() == before


def test_a_refused_form_folded_away_is_shown_open(browser, event_with_money):
    """The rule is beside the field only if the field can be seen: the folded "record
    another payment" form, and a sold lot's "correct the sale" form, open when theirs is
    the refusal (and stay folded otherwise)."""
    event = event_with_money
    act = MONEY.format(slug=event.slug) + "do/{}/"
    page = browser.get(MONEY.format(slug=event.slug)).content.decode()
    assert '<details class="card form" open>' not in page
    page = browser.post(
        act.format("payment"), {"player": event.seeds[1].player_id, "amount": "abc"}
    ).content.decode()
    assert '<details class="card form" open><summary><strong>Record another payment' in page
    page = browser.post(act.format("sale"), {"lot": event.lot_id, "price": "x"}).content.decode()
    lot = re.search(rf'<article class="lot card" id="lot-{event.lot_id}".*?</article>', page, re.S)
    assert lot and "<details open>" in lot.group(0)
    assert "is not an amount" in field_error(lot.group(0), f"sale-price-{event.lot_id}-error")
