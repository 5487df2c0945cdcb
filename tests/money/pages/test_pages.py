"""The money pages: the director's page and its forms, the auction, the payout sheet,
the public page, the CSV."""

from __future__ import annotations

import pytest
from django.test import Client

from money import selectors, services
from tournaments.models import Entry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


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


def test_payments_from_the_directors_entry_list(make_event, browser, make_user):
    """The entry list of the director's page marks who paid what and when, through the
    same money service, and comes back to the entry list."""
    from money.models import Payment

    event = make_event(4, start=False)
    assert (
        post(browser, event, "pool", {"key": "main", "name": "Main", "fee": "20"}).status_code
        == 302
    )
    page = f"/tournaments/{event.slug}/director/"
    html = browser.get(page).content.decode()
    p01 = Entry.objects.get(tournament=event, player__display_name="P01")
    assert 'aria-label="Record the payment of P01"' in html
    assert "paid 0.00, balance -20.00" in html and 'value="20.00"' in html
    answer = post(
        browser,
        event,
        "payment",
        {"player": p01.player_id, "amount": "20.00", "method": "transfer", "next": page},
    )
    assert answer.status_code == 302 and answer["Location"] == page
    html = browser.get(page).content.decode()
    assert "paid 20.00, balance 0.00" in html and "last: Transfer" in html
    owing = post(
        browser,
        event,
        "payment",
        {"player": p01.player_id, "amount": "", "method": "owing", "next": page},
    )
    assert owing.status_code == 302
    assert [p.method for p in Payment.objects.filter(player_id=p01.player_id)] == [
        "transfer",
        "owing",
    ]
    # a bad amount is refused with the rule in words, nothing written
    bad = post(
        browser,
        event,
        "payment",
        {"player": p01.player_id, "amount": "x", "method": "cash", "next": page},
    )
    assert bad.status_code == 400 and "is not an amount such as 12.50." in bad.content.decode()
    assert Payment.objects.filter(player_id=p01.player_id).count() == 2
    # an off-site next is ignored: back to the money page
    away = post(
        browser,
        event,
        "payment",
        {"player": p01.player_id, "amount": "1", "method": "cash", "next": "https://evil.example/"},
    )
    assert away["Location"] == f"/tournaments/{event.slug}/director/money/#payment"
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    refused = stranger.post(
        f"/tournaments/{event.slug}/director/money/do/payment/",
        {"player": p01.player_id, "amount": "5", "method": "cash", "next": page},
    )
    assert (
        refused.status_code == 404 and Payment.objects.filter(player_id=p01.player_id).count() == 3
    )


def test_award_order_page(make_event, browser, make_user):
    from money.models import Pool

    event = make_event(4, start=False)
    assert (
        post(browser, event, "pool", {"key": "main", "name": "Main", "fee": "20"}).status_code
        == 302
    )
    entries = {
        e.player.display_name: e.pk
        for e in Entry.objects.filter(tournament=event).select_related("player")
    }
    url = f"/tournaments/{event.slug}/director/money/award/"
    html = browser.get(url).content.decode()
    assert "Paid by the places." in html and 'aria-label="Main: position 1"' in html
    # P03 first; P01 and P04 share second
    ok = browser.post(
        url,
        {
            "key": "main",
            "place": [entries["P03"], entries["P01"], entries["P04"], ""],
            "tie": ["2"],
        },
    )
    assert ok.status_code == 302 and ok["Location"] == f"{url}#award-main"
    assert Pool.objects.get(key="main").award_order == [
        [entries["P03"]],
        [entries["P01"], entries["P04"]],
    ]
    assert "Decided: 1. P03; 2. P01 = P04" in browser.get(url).content.decode()
    twice = browser.post(url, {"key": "main", "place": [entries["P03"], entries["P03"]]})
    assert twice.status_code == 400 and "Each entry is listed once." in twice.content.decode()
    assert Pool.objects.get(key="main").award_order == [
        [entries["P03"]],
        [entries["P01"], entries["P04"]],
    ]
    assert browser.post(url, {"key": "main", "clear": "1"}).status_code == 302
    assert Pool.objects.get(key="main").award_order is None
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(url).status_code == 404
    assert stranger.post(url, {"key": "main", "place": [entries["P01"]]}).status_code == 404
    assert Pool.objects.get(key="main").award_order is None


def test_money_history_page(make_event, browser, make_user, director):
    event = make_event(4, start=False)
    post(browser, event, "pool", {"key": "main", "name": "Main", "fee": "20"})
    post(browser, event, "pool", {"key": "main", "name": "Main", "fee": "25"})
    p01 = Entry.objects.get(tournament=event, player__display_name="P01")
    post(browser, event, "payment", {"player": p01.player_id, "amount": "25", "method": "cash"})
    html = browser.get(f"/tournaments/{event.slug}/director/money/history/").content.decode()
    assert "payment: P01" in html and "pool: Main" in html
    assert "<del>20.00</del> → <ins>25.00</ins>" in html  # the fee changed, before and after
    assert html.index("payment: P01") < html.index("<del>20.00</del>")  # newest first
    assert director.username in html
    assert "table: <ins>100</ins>" in html  # stored fixed-point, never "1E+2"
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(f"/tournaments/{event.slug}/director/money/history/").status_code == 404


def test_money_history_shows_who_is_in_a_side_pool_and_a_lot(make_event, browser):
    """A change of a side pool's entrants (or a lot's entries) alone is a version in the
    history: before and after, by name."""
    event = make_event(4, start=False)
    names = {e.player.display_name: e.pk for e in Entry.objects.filter(tournament=event)}
    post(browser, event, "pool", {"key": "side", "name": "Side", "fee": "5", "side": "on"})
    assert (
        post(browser, event, "entrants", {"key": "side", "entries": [names["P01"]]}).status_code
        == 302
    )
    post(browser, event, "entrants", {"key": "side", "entries": [names["P01"], names["P02"]]})
    post(browser, event, "calcutta", {"preset": "winner_takes_all", "rake_percent": "0"})
    post(browser, event, "lot", {"label": "The field", "entries": [names["P03"], names["P04"]]})
    html = browser.get(f"/tournaments/{event.slug}/director/money/history/").content.decode()
    assert "<del>P01</del> → <ins>P01, P02</ins>" in html
    assert "<ins>P01</ins>" in html  # the first entrant, added to an empty pool
    assert "P03, P04" in html  # the lot's entries


def test_the_entry_lists_amount_reads_back_in_german(make_event, browser):
    """Shown in German, the prefilled amount is still "20.00" (the browser sends it back
    as it stands; "20,00" would be refused), and it records as shown."""
    event = make_event(4, start=False)
    post(browser, event, "pool", {"key": "main", "name": "Main", "fee": "20"})
    page = f"/tournaments/{event.slug}/director/"
    html = browser.get(page, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "bezahlt 0,00, Saldo -20,00" in html  # the text follows the language
    assert 'value="20.00"' in html and 'value="20,00"' not in html  # the field does not
    p01 = Entry.objects.get(tournament=event, player__display_name="P01")
    answer = post(
        browser, event, "payment", {"player": p01.player_id, "amount": "20.00", "method": "cash"}
    )
    assert answer.status_code == 302
    assert selectors.money_view(event).people[0].balance == 0


def test_the_money_history_speaks_the_pages_language(make_event, browser):
    """Field names, chosen values and what changed are translated, not the models' English
    names and stored values ("paid by: event", "method: cash")."""
    event = make_event(4, start=False)
    post(browser, event, "pool", {"key": "main", "name": "Main", "fee": "20"})
    p01 = Entry.objects.get(tournament=event, player__display_name="P01")
    post(browser, event, "payment", {"player": p01.player_id, "amount": "20", "method": "cash"})
    url = f"/tournaments/{event.slug}/director/money/history/"
    english = browser.get(url).content.decode()
    assert "payment: P01" in english and "method: <ins>Cash</ins>" in english
    german = browser.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Zahlung: P01" in german and "Topf: Main" in german
    assert "Zahlungsart: <ins>Bargeld</ins>" in german and "Startgeld: <ins>20,00</ins>" in german
    assert "bezahlt nach:" in german and "paid by" not in german


def test_the_award_page_without_pools_says_where_to_add_one(make_event, browser):
    event = make_event(4, start=False)
    html = browser.get(f"/tournaments/{event.slug}/director/money/award/").content.decode()
    assert "No pools yet." in html
    assert f'href="/tournaments/{event.slug}/director/money/#pool"' in html


def test_the_directors_buttons_are_named_in_the_pages_language(make_event, browser):
    """What a screen reader says for the entry list's and the money page's buttons was
    English on a German page ("Unregister P01")."""
    event = make_event(4, start=False)
    post(browser, event, "pool", {"key": "main", "name": "Main", "fee": "20"})
    html = browser.get(f"/tournaments/{event.slug}/director/", HTTP_ACCEPT_LANGUAGE="de")
    assert 'aria-label="P01 abmelden"' in html.content.decode()
    money = browser.get(f"/tournaments/{event.slug}/director/money/", HTTP_ACCEPT_LANGUAGE="de")
    page = money.content.decode()
    assert 'aria-label="P01 hat 20,00 bar bezahlt"' in page
    assert 'aria-label="P01 als offen vermerken"' in page


def test_prizes_are_paid_out_from_the_page_once_the_event_is_finished(
    make_event, browser, win, actor, played
):
    """The winner's row offers "Paid out 40.00 cash" once the event is finished; the
    payout is a payment of minus the amount, the balance comes to zero, the page says
    it in words; before the finish, above what is owed, or twice, it is refused next
    to the payments with nothing written."""
    event = make_event(4)
    pool = {"key": "main", "name": "Main", "fee": "10", "preset": "winner_takes_all"}
    assert post(browser, event, "pool", {**pool, "paid_by": "event"}).status_code == 302
    winner = Entry.objects.get(tournament=event, seed=1)
    early = post(
        browser, event, "payout", {"player": winner.player_id, "amount": "30", "method": "cash"}
    )
    assert early.status_code == 400 and "once the event is finished" in early.content.decode()
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    page = browser.get(f"/tournaments/{event.slug}/director/money/").content.decode()
    assert "P01 was paid out 30.00 cash" in page  # 40.00 won less the 10.00 fee
    too_much = post(
        browser, event, "payout", {"player": winner.player_id, "amount": "31", "method": "cash"}
    )
    assert too_much.status_code == 400
    assert "The event owes P01 30.00: pay out at most that." in too_much.content.decode()
    done = browser.post(
        f"/tournaments/{event.slug}/director/money/do/payout/",
        {"player": winner.player_id, "amount": "30.00", "method": "cash"},
        follow=True,
    )
    assert "30.00 paid out to P01." in done.content.decode()
    people = {p.name: p for p in selectors.money_view(event).people}
    assert (people["P01"].paid, people["P01"].balance) == (-3000, 0)
    assert "P01 was paid out" not in done.content.decode()  # nothing left to pay
    again = post(
        browser, event, "payout", {"player": winner.player_id, "amount": "1", "method": "cash"}
    )
    assert again.status_code == 400
    assert selectors.money_view(event).event.payments.count() == 1
