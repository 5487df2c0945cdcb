"""The money pages: the director's page and its forms, the auction, the payout sheet,
the public page, the CSV."""

from __future__ import annotations

import pytest
from django.test import Client

from money import selectors, services
from tournaments.models import Entry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def post(browser, event, action, data):
    return browser.post(f"/tournaments/{event.slug}/director/money/do/{action}/", data)


def test_director_sets_up_a_pool_and_marks_payments(make_event, browser, win, actor, played):
    event = make_event(4)
    answer = post(
        browser,
        event,
        "pool",
        {
            "key": "main",
            "name": "Main",
            "fee": "20",
            "rake_percent": "10",
            "preset": "winner_takes_all",
            "paid_by": "event",
            "remainder": "first",
        },
    )
    assert answer.status_code == 302
    page = browser.get(f"/tournaments/{event.slug}/director/money/").content.decode()
    assert "Paid 20.00 cash" in page and "-20.00" in page
    first = Entry.objects.filter(tournament=event, seed=1).get()
    assert (
        post(
            browser,
            event,
            "payment",
            {"player": first.player_id, "amount": "20.00", "method": "cash"},
        ).status_code
        == 302
    )
    second = Entry.objects.filter(tournament=event, seed=2).get()
    post(browser, event, "payment", {"player": second.player_id, "amount": "0", "method": "owing"})
    view = selectors.money_view(event)
    people = {p.name: p for p in view.people}
    assert people["P01"].balance == 0 and people["P02"].owing_marked
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    sheet = browser.get(f"/tournaments/{event.slug}/director/money/payout-sheet/").content.decode()
    assert "72.00 EUR" in sheet and "P01" in sheet  # 80 - 10 % rake
    assert "pays" in sheet
    csv = browser.get(f"/tournaments/{event.slug}/director/money/ledger.csv")
    assert csv["Content-Type"] == "text/csv" and "P01,Main,payout,72.00" in csv.content.decode()


def test_a_bad_table_is_refused_next_to_the_form(make_event, browser):
    event = make_event(4)
    answer = post(
        browser,
        event,
        "pool",
        {"key": "main", "name": "Main", "fee": "20", "preset": "custom", "table": "50 / 40"},
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Not saved." in page and "Payout table: The percentages sum to 90, not 100." in page
    answer = post(
        browser,
        event,
        "pool",
        {"key": "main", "name": "Main", "fee": "abc", "preset": "winner_takes_all"},
    )
    assert (
        answer.status_code == 400
        and "Entry fee: &#x27;abc&#x27; is not an amount" in answer.content.decode()
    )


def test_auction_page_sells_lots_to_a_syndicate(make_event, browser):
    event = make_event(4)
    assert (
        post(
            browser,
            event,
            "calcutta",
            {"preset": "winner_takes_all", "rake_percent": "5", "buy_back_limit": "50"},
        ).status_code
        == 302
    )
    seeds = {e.seed: e for e in Entry.objects.filter(tournament=event)}
    post(browser, event, "lot", {"label": "", "entries": [seeds[1].pk]})
    post(browser, event, "lot", {"label": "The field", "entries": [seeds[3].pk, seeds[4].pk]})
    lot = selectors.money_view(event).calcutta.lots.get(label="P01")
    answer = post(
        browser,
        event,
        "sale",
        {
            "lot": lot.pk,
            "price": "50",
            "buyer": [seeds[3].player_id, seeds[4].player_id, "", ""],
            "share": ["70", "30", "", ""],
        },
    )
    assert answer.status_code == 302
    answer = post(
        browser,
        event,
        "sale",
        {
            "lot": lot.pk,
            "price": "50",
            "buyer": [seeds[3].player_id, seeds[4].player_id],
            "share": ["70", "20"],
        },
    )
    assert answer.status_code == 400 and "shares sum to 90 %" in answer.content.decode()
    post(browser, event, "lot-buy-back", {"lot": lot.pk, "entry": seeds[1].pk, "percent": "20"})
    page = browser.get(f"/tournaments/{event.slug}/director/money/auction/").content.decode()
    assert "Sold for 50.00 EUR" in page and "P01: 20.00 %" in page and "P03: 56.00 %" in page
    public = Client().get(f"/tournaments/{event.slug}/money/").content.decode()
    assert "The field" in public and "unsold" in public and "P04 24.00 %" in public


def test_strangers_get_no_director_money_page(make_event, make_user):
    event = make_event(4)
    client = Client()
    client.force_login(make_user("stranger"))
    assert client.get(f"/tournaments/{event.slug}/director/money/").status_code == 404
    assert client.post(f"/tournaments/{event.slug}/director/money/do/pool/", {}).status_code == 404


def test_public_page_hides_what_the_club_does_not_publish(make_event, actor):
    event = make_event(4)
    services.save_pool(actor=actor, tournament=event, key="main", name="Main", fee=10)
    assert "Main" in Client().get(f"/tournaments/{event.slug}/money/").content.decode()
    services.save_club_money(
        actor=actor,
        tournament=event,
        currency="EUR",
        payout_unit=1,
        publish_payouts=False,
        publish_calcutta=False,
    )
    page = Client().get(f"/tournaments/{event.slug}/money/").content.decode()
    assert "does not publish its payouts" in page


def test_a_player_sees_their_own_money_on_the_payouts_page(make_event, make_user, actor):
    event = make_event(4)
    services.save_pool(actor=actor, tournament=event, key="main", name="Main", fee=10)
    entry = Entry.objects.filter(tournament=event, seed=2).select_related("player").get()
    user = make_user("p2")
    entry.player.user = user
    entry.player.save()
    client = Client()
    client.force_login(user)
    page = client.get(f"/tournaments/{event.slug}/money/").content.decode()
    assert "Your money" in page and "you owe <strong>10.00</strong>" in page
    assert "Your money" not in Client().get(f"/tournaments/{event.slug}/money/").content.decode()
