"""One match's score links for its club's directors (a league or friendly match): the
match page offers them while the match is open; players and visitors are refused."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from games import score_links
from games.services import addresses, score_entry
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tests.factories import confirm_address

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
    confirm_address(match.club, "bob@example.org")
    html = browser.post(f"/matches/{match.pk}/links/", follow=True).content.decode()
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    assert "Alice" in mail.outbox[0].body and "5-point match" in mail.outbox[0].body
    assert "Emailed: Bob." in html and "(hand them their slip): Alice." in html


def test_an_unconfirmed_address_gets_no_links_and_is_named_apart(browser, match, alice, bob):
    """Bob's address was typed by a director and never confirmed: the sheet says so, and
    "Email the links" mails only Alice, whose owner confirmed hers for the club."""
    alice.email, bob.email = "alice@example.org", "bob@example.org"
    alice.save()
    bob.save()
    confirm_address(match.club, "ALICE@example.org")  # the normal form is compared
    sheet = browser.get(f"/matches/{match.pk}/links/").content.decode()
    assert "1 of 2 players have a confirmed email address." in sheet
    assert "1 player has not confirmed their address yet: hand them a slip." in sheet
    assert "Address not confirmed yet: not emailed" in sheet
    html = browser.post(f"/matches/{match.pk}/links/", follow=True).content.decode()
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    assert "Emailed: Alice." in html
    assert "1 player has not confirmed their address yet (hand them their slip): Bob." in html
    assert "No email address" not in html


def test_a_confirmation_for_another_club_does_not_count(browser, match, alice, bob, director):
    """An owner's agreement is for one club: Bob agreed to another club's mail only."""
    bob.email = "bob@example.org"
    bob.save()
    other = club_services.create_club(created_by=director, name="Other Club")
    confirm_address(other, "bob@example.org")
    browser.post(f"/matches/{match.pk}/links/")
    assert mail.outbox == []


def test_the_players_own_confirmed_account_address_counts(browser, match, alice, bob):
    """Bob registered himself: his player's address is his account's, confirmed."""
    User.objects.filter(pk=bob.user_id).update(email="bob@example.org")
    bob.refresh_from_db()
    addresses.confirm_by_password_link(bob.user)
    bob.email = "bob@example.org"
    bob.save()
    browser.post(f"/matches/{match.pk}/links/")
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]


def test_another_accounts_confirmed_address_does_not_count(browser, match, alice, bob, make_user):
    """A director typing a stranger's confirmed account address into a walk-in does not
    make it the walk-in's: its owner agreed to their account's mail, not to this club's."""
    stranger = make_user("stranger", email="bob@example.org")
    addresses.confirm_by_password_link(stranger)
    bob.email = "bob@example.org"
    bob.save()
    browser.post(f"/matches/{match.pk}/links/")
    assert mail.outbox == []
