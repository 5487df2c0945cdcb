"""Invitations and addresses in the browser (issue #37, items 1 and 2): a stranger who
founds a club cannot take over an account with a look-alike address, and a person with
an account is asked, signed in, before any club makes them anything.

Mallory founds a club and tries Victor's address three ways on her club's people page:
with a dotless ı before the @ (refused next to the field, in words), with a dotless ı in
the domain (``xn--mal-kua.example`` once IDNA-encoded, another domain: a new account for
that address, and Victor's untouched), and in capitals (Victor's own account: no
password link, he is asked). Victor, on his phone, confirms his address from his account
page, finds the invitation from the link on his name, declines it, then accepts a second
one. Last he changes his address: the link goes to the new one, and the old one stays
his until he follows it.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from games.models import Club
from games.services import clubs as club_services

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LINK = re.compile(r"https?://\S+")


def _link_in(message) -> str:
    found = LINK.search(str(message.body))
    assert found, message.body
    return found[0]


def _invite(desk, slug: str, email: str) -> None:
    desk.goto(f"/clubs/{slug}/people/")
    desk.get_by_label("E-mail address", exact=True).fill(email)
    desk.get_by_role("button", name="Invite a co-director").click()


def test_a_look_alike_address_takes_nothing_and_the_real_one_is_asked(page_for, login, make_user):
    victor = make_user("victor", email="victor@mail.example")
    mallory = make_user("mallory")
    club = club_services.create_club(created_by=mallory, name="Mallory's Club", slug="mallorys")

    # --- Victor confirms his own address, from the link on his name ---------------------
    phone = page_for(PHONE_360, name="invitation-victor-360")
    login(phone, "victor")
    phone.locator("header.site a.who").click()
    phone.wait_for_url("**/accounts/address/")
    phone.get_by_text("Not confirmed yet").wait_for()
    mail.outbox.clear()
    phone.get_by_role("button", name="Send me a link to confirm it").click()
    phone.get_by_text("A link went to victor@mail.example").wait_for()
    assert [m.to for m in mail.outbox] == [["victor@mail.example"]]
    phone.goto(_link_in(mail.outbox[0]))
    phone.get_by_role("button", name="Confirm this address").click()
    phone.get_by_text("victor@mail.example is confirmed as your address.").wait_for()
    assert phone.get_by_text("You confirmed it.").count() == 1

    # --- Mallory's three tries ----------------------------------------------------------
    desk = page_for(LAPTOP_1366, name="invitation-mallory-1366")
    login(desk, "mallory")
    mail.outbox.clear()
    _invite(desk, club.slug, "v\u0131ctor@mail.example")  # dotless ı before the @
    field = desk.locator(".field").filter(has=desk.get_by_label("E-mail address", exact=True))
    field.get_by_text("holds a letter made to look like another").wait_for()
    assert mail.outbox == []

    _invite(desk, club.slug, "victor@ma\u0131l.example")  # dotless ı in the domain
    desk.get_by_text("victor@ma\u0131l.example is a director of Mallory's Club").wait_for()
    assert [m.to for m in mail.outbox] == [["victor@ma\u0131l.example"]]  # not Victor's
    stranger = User.objects.get(email="victor@ma\u0131l.example")
    assert stranger.pk != victor.pk and stranger.address.normalized == "victor@xn--mal-kua.example"
    victor.refresh_from_db()
    assert victor.email == "victor@mail.example" and victor.check_password("pw-for-tests-1")
    assert not club.directors.filter(pk=victor.pk).exists()

    mail.outbox.clear()
    _invite(desk, club.slug, "VICTOR@mail.example")  # his account, in capitals
    desk.get_by_text("VICTOR@mail.example has an account: they are asked to accept").wait_for()
    assert [m.to for m in mail.outbox] == [["victor@mail.example"]]  # his stored address
    assert "set-password" not in str(mail.outbox[0].body)
    assert not club.directors.filter(pk=victor.pk).exists()  # not until he accepts

    # --- Victor declines, then accepts a second invitation ------------------------------
    phone.locator("header.site a.who").click()
    phone.get_by_role("link", name="Your invitations").click()
    offer = phone.locator(".invitations li").filter(has_text="Mallory's Club invites you")
    offer.get_by_text("Invited by mallory.").wait_for()
    offer.get_by_role("button", name="Decline").click()
    phone.get_by_text("You declined: nothing changed for you at Mallory's Club.").wait_for()
    phone.get_by_text("No invitation is waiting for you.").wait_for()
    assert not club.directors.filter(pk=victor.pk).exists()

    _invite(desk, club.slug, "victor@mail.example")
    desk.get_by_text("victor@mail.example has an account: they are asked").wait_for()
    phone.reload()
    phone.get_by_role("button", name="Accept").click()
    phone.get_by_text("You accepted: you are").wait_for()
    assert Club.objects.get(pk=club.pk).directors.filter(pk=victor.pk).exists()
    victor.refresh_from_db()
    assert victor.check_password("pw-for-tests-1")  # his password still his

    # --- a new address: the link goes to it, the old one stays until it is followed ----
    mail.outbox.clear()
    phone.goto("/accounts/address/")
    phone.get_by_label("E-mail address").fill("victor@new.example")
    phone.get_by_role("button", name="Send the link").click()
    phone.get_by_text(
        "A link went to victor@new.example: follow it, signed in, to confirm it. Until "
        "then your address stays victor@mail.example."
    ).wait_for()
    assert [m.to for m in mail.outbox] == [["victor@new.example"]]
    assert User.objects.get(pk=victor.pk).email == "victor@mail.example"
    phone.goto(_link_in(mail.outbox[0]))
    phone.get_by_role("button", name="Confirm this address").click()
    phone.get_by_text("victor@new.example is confirmed as your address.").wait_for()
    assert User.objects.get(pk=victor.pk).email == "victor@new.example"
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width  # the account page fits the phone
    pictures = pictures_folder("invitations")  # the manual's (docs/directors.md)
    phone.screenshot(path=str(pictures / "account-address-360.png"), full_page=True)
    desk.screenshot(path=str(pictures / "club-people-invitation-1366.png"), full_page=True)
