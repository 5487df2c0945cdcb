"""Issue 41 (8): taking money at the door on a phone: a row per player with what they
owe, one button that records it, the paid marked, an undo, a search by name; with
JavaScript (htmx) each button answers its row only, without it the page comes back at
the same search."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from money.models import Payment
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def door(event, rest: str = "") -> str:
    return f"/tournaments/{event.slug}/director/money/door/{rest}"


@pytest.fixture
def event(make_event, browser):
    event = make_event(6, start=False)
    browser.post(
        f"/tournaments/{event.slug}/director/money/do/pool/",
        {"key": "main", "name": "Main", "fee": "20", "preset": "winner_takes_all"},
    )
    return event


def words(html: str) -> str:
    """The page as read (the counts are spans the page's script keeps up to date)."""
    return re.sub(r"<[^>]+>", "", html)


def player(event, seed: int):
    entries = Entry.objects.select_related("player").filter(tournament=event)
    return entries.get(player__display_name=f"P{seed:02d}").player


def test_each_row_shows_what_is_owed_and_one_button_takes_it(event, browser):
    page = browser.get(door(event)).content.decode()
    assert page.count('class="door-row"') == 6
    assert "owes 20.00 EUR" in page and "0 of 6 paid, 6 still owe." in words(page)
    first = player(event, 1)
    answer = browser.post(
        door(event, "pay/"),
        {"player": first.pk, "amount": "20.00", "method": "cash", "q": "P0"},
    )
    assert answer.status_code == 302
    assert answer["Location"] == door(event) + f"?q=P0#p-{first.pk}"
    payment = Payment.objects.get(player=first)
    assert (payment.amount, payment.method, payment.note) == (Decimal(20), "cash", "at the door")
    page = browser.get(door(event)).content.decode()
    assert page.count('class="door-row is-paid"') == 1 and "✓ paid 20.00" in page
    assert "1 of 6 paid, 5 still owe." in words(page)
    assert "Undo P01's payment of 20.00" in page


def test_with_htmx_a_button_answers_its_row_and_undo_takes_it_back(event, browser):
    second = player(event, 2)
    row = browser.post(
        door(event, "pay/"),
        {"player": second.pk, "amount": "20.00", "method": "transfer"},
        HTTP_HX_REQUEST="true",
    )
    assert row.status_code == 200
    html = row.content.decode()
    assert html.startswith(f'<li class="door-row is-paid" id="p-{second.pk}"')
    assert "<html" not in html and "✓ paid 20.00" in html
    payment = Payment.objects.get(player=second)
    assert payment.method == "transfer"
    undone = browser.post(door(event, "undo/"), {"payment": payment.pk}, HTTP_HX_REQUEST="true")
    assert undone.status_code == 200 and "owes 20.00 EUR" in undone.content.decode()
    assert not Payment.objects.filter(player=second).exists()
    again = browser.post(door(event, "undo/"), {"payment": payment.pk})
    assert again.status_code == 302
    assert "No such payment in this event." in browser.get(door(event)).content.decode()


def test_the_search_without_javascript_keeps_the_names_that_match(event, browser):
    page = browser.get(door(event) + "?q=p03").content.decode()
    assert page.count('class="door-row"') == 1 and 'data-name="p03"' in page
    nobody = browser.get(door(event) + "?q=zed").content.decode()
    assert "Nobody called “zed”." in nobody


def test_a_refused_payment_is_said_in_the_row(event, browser):
    third = player(event, 3)
    row = browser.post(
        door(event, "pay/"),
        {"player": third.pk, "amount": "-5", "method": "cash"},
        HTTP_HX_REQUEST="true",
    )
    assert row.status_code == 200
    assert 'role="alert"' in row.content.decode()
    assert not Payment.objects.filter(player=third).exists()


def test_strangers_get_no_door_page(event, client):
    assert client.get(door(event)).status_code == 302  # to the login
    assert not Payment.objects.exists()
