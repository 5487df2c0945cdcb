"""Issue 41 (7, 11): the prize order and a pool's payout table changed from the money
page until prizes are paid out (then refused beside the field), and the Calcutta's
form showing the table that was saved."""

from __future__ import annotations

from decimal import Decimal

import pytest

from money import selectors, services
from tournaments.models import Entry, Tournament
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

REFUSED = "Prizes are being paid out: the prize order and the payout tables can no longer change."


def post(browser, event, action, data):
    return browser.post(f"/tournaments/{event.slug}/director/money/do/{action}/", data)


def money_page(browser, event, query: str = "") -> str:
    return browser.get(f"/tournaments/{event.slug}/director/money/{query}").content.decode()


def pool(browser, event, preset: str, **more):
    return post(
        browser,
        event,
        "pool",
        {"key": "main", "name": "Main", "fee": "100", "preset": preset, "paid_by": "event", **more},
    )


def test_the_prize_order_is_changed_from_the_money_page(make_event, browser):
    event = make_event(8, consolation_from=[1])
    assert "Places pay in this order: main places, consolation 1–2" in money_page(browser, event)
    answer = post(browser, event, "prize-order", {"prize_order": "main:2, consolation:2"})
    assert answer.status_code == 302
    assert Tournament.objects.get(pk=event.pk).prize_order == ["main:2", "consolation:2"]
    page = money_page(browser, event)
    assert "Places pay in this order: main 1–2, consolation 1–2, then the other places." in page
    assert 'value="main:2, consolation:2"' in page
    bad = post(browser, event, "prize-order", {"prize_order": "main, bronze"})
    assert bad.status_code == 400
    assert 'id="prize-order-prize_order-error"' in bad.content.decode()
    assert Tournament.objects.get(pk=event.pk).prize_order == ["main:2", "consolation:2"]


def test_a_pools_table_is_changed_from_its_change_link(make_event, browser):
    event = make_event(8, consolation_from=[1])
    pool(browser, event, "50_25_12.5_12.5", rake_percent="5", remainder="house")
    page = money_page(browser, event)
    assert 'href="?pool=main#pool"' in page
    form = money_page(browser, event, "?pool=main")
    assert '<option value="50_25_12.5_12.5" selected>' in form
    assert 'id="pool-fee" name="fee" inputmode="decimal" value="100.00"' in form
    assert '<option value="house" selected>' in form
    assert pool(browser, event, "main_consolation_45_22_22_11").status_code == 302
    saved = selectors.money_view(event).pools[0]
    assert saved.table == ["45", "22", "22", "11"] and saved.paid_by == "main_consolation"
    assert '<option value="main_consolation_45_22_22_11" selected>' in money_page(
        browser, event, "?pool=main"
    )


def test_after_the_first_payout_the_page_refuses_beside_the_field(
    make_event, browser, win, actor, played
):
    event = make_event(8, consolation_from=[1])
    pool(browser, event, "50_25_12.5_12.5")
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    assert post(browser, event, "prize-order", {"prize_order": "main:2"}).status_code == 302
    first = Entry.objects.get(tournament=event, seed=1)
    services.record_payout(
        actor=actor,
        tournament=Tournament.objects.get(pk=event.pk),
        player_id=first.player_id,
        amount=Decimal("100"),
        method="cash",
    )
    assert REFUSED in money_page(browser, event)  # said before anyone tries
    answer = post(browser, event, "prize-order", {"prize_order": "main"})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert f"Prize order: {REFUSED}" in page and 'id="prize-order-prize_order-error"' in page
    assert Tournament.objects.get(pk=event.pk).prize_order == ["main:2"]
    table = pool(browser, event, "winner_takes_all")
    assert table.status_code == 400
    assert f"Payout table: {REFUSED}" in table.content.decode()
    assert selectors.money_view(event).pools[0].table == ["50", "25", "12.5", "12.5"]


def test_the_calcutta_form_shows_the_table_that_was_saved(make_event, browser):
    event = make_event(4)
    auction = f"/tournaments/{event.slug}/director/money/auction/"
    answer = post(browser, event, "calcutta", {"preset": "50_25_12.5_12.5", "rake_percent": "0"})
    assert answer.status_code == 302
    page = browser.get(auction).content.decode()
    assert '<option value="50_25_12.5_12.5" selected>' in page
    assert '<option value="winner_takes_all" selected>' not in page
    assert "Saved payout table: 50 / 25 / 12.5 / 12.5" in page
    post(browser, event, "calcutta", {"preset": "custom", "table": "70 / 30"})
    page = browser.get(auction).content.decode()
    assert '<option value="custom" selected>' in page and 'value="70 / 30"' in page
