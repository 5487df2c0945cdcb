"""One match's score links for its club's directors (a league or friendly match): the
match page offers them while the match is open; players and visitors are refused."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from games import score_links
from games.services import score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def test_a_directors_match_page_offers_the_links_sheet(browser, match, alice, bob):
    sheet = f"/matches/{match.pk}/links/"
    assert f'href="{sheet}"' in browser.get(f"/matches/{match.pk}/").content.decode()
    html = browser.get(sheet).content.decode()
    assert html.count("<svg") == 2
    tokens = re.findall(r'href="http://testserver/score/([^/"]+)/"', html)
    assert {score_links.read_token(t) for t in tokens} == {
        (match.pk, alice.pk),
        (match.pk, bob.pk),
    }
    assert "QR code of Alice&#x27;s score link" in html


def test_players_and_visitors_do_not_get_the_sheet(match, alice):
    sheet = f"/matches/{match.pk}/links/"
    player = Client()
    player.force_login(alice.user)
    assert f'href="{sheet}"' not in player.get(f"/matches/{match.pk}/").content.decode()
    assert player.get(sheet).status_code == 403
    assert player.post(sheet).status_code == 403
    visitor = Client().get(sheet)
    assert visitor.status_code == 302 and "/accounts/login/" in visitor["Location"]


def test_a_closed_match_has_no_links(browser, match, director, alice, bob):
    alice.email = "alice@example.org"
    alice.save()
    score_entry.record_final_score(actor=actor_for_user(director), match_id=match.pk, score=(5, 1))
    assert "/links/" not in browser.get(f"/matches/{match.pk}/").content.decode()
    html = browser.get(f"/matches/{match.pk}/links/").content.decode()
    assert "<svg" not in html and "No links for 1 closed match" in html
    browser.post(f"/matches/{match.pk}/links/")
    assert mail.outbox == []


def test_emailing_one_match_names_who_has_no_address(browser, match, alice, bob):
    bob.email = "bob@example.org"
    bob.save()
    html = browser.post(f"/matches/{match.pk}/links/", follow=True).content.decode()
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    assert "Alice" in mail.outbox[0].body and "5-point match" in mail.outbox[0].body
    assert "Emailed: Bob." in html and "(hand them their slip): Alice." in html
