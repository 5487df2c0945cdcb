"""Issue 37, "Clubs among strangers": a hostile founder invites a look-alike of
somebody's address on the people page (``/clubs/{slug}/people/``).

Today's code matched the typed address with ``email__iexact`` (PostgreSQL's ``UPPER``
folds ``ı`` and ``ſ`` to ASCII) and mailed the set-password link of the account it
found to the address as typed; an existing address (a superuser's) was made a director
at once and mailed a reset link. Now addresses compare in one normal form
(``games.rules.addresses``), an existing account is only *offered* the role (it
accepts or declines signed in, ``/accounts/invitations/``) and never gets a password
link, and a look-alike in the part before @ is refused in words next to the field.
Each test runs on SQLite and, with ``DATABASE_URL``, on PostgreSQL.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.timezone import now

from games.models import AccountAddress, ClubInvitation, InvitationStatus
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db

PASSWORD = "Victors-own-pass-1"
LINK = re.compile(r"https?://\S+/accounts/set-password/(?P<uid>[^/\s]+)/\S+/")


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


@pytest.fixture
def mallory(make_user):
    return make_user("mallory")


@pytest.fixture
def mallorys_club(mallory):
    return club_services.create_club(created_by=mallory, name="Mallory Club", slug="mallory")


def invite(browser: Client, club, email: str):
    return browser.post(
        f"/clubs/{club.slug}/people/", {"action": "director", "director-email": email}
    )


def password_links_for(user) -> list[str]:
    """Every set-password link in the outbox that opens ``user``'s account."""
    found = []
    for message in mail.outbox:
        for link in LINK.finditer(str(message.body)):
            if force_str(urlsafe_base64_decode(link["uid"])) == str(user.pk):
                found.append(f"{message.to} {link[0]}")
    return found


def assert_untouched(victim, club):
    """No password link for ``victim``, no mail to them but theirs, not a director, and
    their password still theirs."""
    assert password_links_for(victim) == []
    assert not club.directors.filter(pk=victim.pk).exists()
    victim.refresh_from_db()
    assert victim.check_password(PASSWORD)
    assert all(m.to == [victim.email] for m in mail.outbox if victim.username in m.body)


@pytest.mark.parametrize(
    ("victims_address", "typed"),
    [
        ("sam@mail.example", "ſam@mail.example"),  # long s: UPPER('ſ') is 'S'
        ("kate@mail.example", "\u212aate@mail.example"),  # the Kelvin sign
        ("victor@mail.example", "victor@ｍａｉｌ.example"),  # fullwidth domain
        ("victor@mail.example", "ｖｉｃｔｏｒ@mail.example"),  # fullwidth local part
        ("victor@bücher.example", "VICTOR@xn--bcher-kva.example"),  # punycode of the domain
        ("victor@xn--bcher-kva.example", "victor@BÜCHER.example"),  # and the other way
    ],
)
def test_a_spelling_of_an_existing_address_only_offers_the_role(
    mallory, mallorys_club, make_user, victims_address, typed
):
    victim = make_user("victim", email=victims_address)
    victim.set_password(PASSWORD)
    victim.save()
    answer = invite(signed_in(mallory), mallorys_club, typed)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert_untouched(victim, mallorys_club)
    assert not any(typed in m.to for m in mail.outbox)  # nothing to the look-alike
    assert User.objects.count() == 2  # no second account for one mailbox
    offer = ClubInvitation.objects.get(user=victim)
    assert offer.status == InvitationStatus.PENDING
    page = signed_in(mallory).get(f"/clubs/{mallorys_club.slug}/people/").content.decode()
    assert 'id="pending-invitations"' in page and "victim: director, not accepted yet" in page


def test_a_dotless_i_in_the_domain_is_another_domain_and_never_victors(
    mallory, mallorys_club, make_user
):
    """The probe's own case: ``victor@maıl.example`` is the domain xn--mal-kua.example,
    a new account of its own; Victor's link never leaves, his password stays his."""
    victor = make_user("victor@mail.example", email="victor@mail.example")
    victor.set_password(PASSWORD)
    victor.save()
    answer = invite(signed_in(mallory), mallorys_club, "victor@maıl.example")
    assert answer.status_code == 302
    assert_untouched(victor, mallorys_club)
    stranger = User.objects.exclude(pk__in=[victor.pk, mallory.pk]).get()
    assert stranger.address.normalized == "victor@xn--mal-kua.example"
    assert password_links_for(stranger) and mail.outbox[-1].to == ["victor@maıl.example"]


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("vıctor@mail.example", "a letter made to look like another"),  # dotless ı
        ("vаsya@mail.example", "mixes alphabets"),  # Cyrillic а in a Latin name
        ("аdmin@example.org", "mixes alphabets"),
    ],
)
def test_a_look_alike_local_part_is_refused_in_words_next_to_the_field(
    mallory, mallorys_club, make_user, admin_user, typed, words
):
    make_user("vasya", email="vasya@mail.example")
    make_user("victor", email="victor@mail.example")
    admin_user.email = "admin@example.org"
    admin_user.save()
    answer = invite(signed_in(mallory), mallorys_club, typed)
    page = answer.content.decode()
    assert answer.status_code == 400
    error = re.search(r'id="id_director-email-error">([^<]+)<', page)
    assert error and words in error[1]
    assert mail.outbox == [] and ClubInvitation.objects.count() == 0
    assert list(mallorys_club.directors.all()) == [mallory]


def test_a_superuser_is_never_attached_nor_mailed_a_reset_link(mallory, mallorys_club, admin_user):
    admin_user.email = "admin@example.org"
    admin_user.set_password(PASSWORD)
    admin_user.save()
    answer = invite(signed_in(mallory), mallorys_club, "ADMIN@example.org")
    assert answer.status_code == 302
    assert_untouched(admin_user, mallorys_club)
    assert mail.outbox == []  # staff are sent nothing on a stranger's say-so
    assert ClubInvitation.objects.get().user == admin_user


def test_the_invited_person_accepts_or_declines_signed_in(mallory, mallorys_club, make_user):
    victor = make_user("victor", email="victor@mail.example")
    AccountAddress.objects.filter(user=victor).delete()  # made before the rows existed
    other = club_services.create_club(created_by=mallory, name="Second", slug="second")
    invite(signed_in(mallory), mallorys_club, "Victor@Mail.example")
    invite(signed_in(mallory), other, "victor@mail.example")
    again = invite(signed_in(mallory), other, "VICTOR@mail.example")
    assert again.status_code == 400 and "already has an invitation" in again.content.decode()
    # Victor's address is not confirmed: the one mail is the link to confirm it
    assert {m.to[0] for m in mail.outbox} == {"victor@mail.example"}
    assert all("/accounts/address/confirm/" in m.body for m in mail.outbox)
    assert password_links_for(victor) == []
    browser = signed_in(victor)
    page = browser.get("/accounts/invitations/").content.decode()
    first, second = ClubInvitation.objects.order_by("pk")
    assert f'id="invitation-{first.pk}"' in page and "Mallory Club invites you" in page
    stranger = signed_in(mallory).post(
        "/accounts/invitations/", {"action": "accept", "invitation": first.pk}
    )
    assert stranger.status_code == 400 and not mallorys_club.directors.filter(pk=victor.pk)
    done = browser.post(
        "/accounts/invitations/", {"action": "accept", "invitation": first.pk}, follow=True
    )
    assert "You accepted: you are director of Mallory Club." in done.content.decode()
    assert mallorys_club.directors.filter(pk=victor.pk).exists()
    no = browser.post(
        "/accounts/invitations/", {"action": "decline", "invitation": second.pk}, follow=True
    )
    assert "You declined" in no.content.decode()
    assert not other.directors.filter(pk=victor.pk).exists()
    assert (
        "pending-invitations"
        not in signed_in(mallory).get("/clubs/second/people/").content.decode()
    )
    twice = browser.post("/accounts/invitations/", {"action": "accept", "invitation": second.pk})
    assert twice.status_code == 400 and not other.directors.filter(pk=victor.pk).exists()


def test_a_confirmed_account_gets_a_notice_without_any_password_link(
    mallory, mallorys_club, make_user
):
    victor = make_user("victor", email="victor@mail.example")
    AccountAddress.objects.create(
        user=victor, email=victor.email, normalized="victor@mail.example", confirmed_at=now()
    )
    invite(signed_in(mallory), mallorys_club, "ｖictor@mail.example")
    (notice,) = mail.outbox
    assert notice.to == ["victor@mail.example"] and "/accounts/invitations/" in notice.body
    assert "set-password" not in notice.body and password_links_for(victor) == []


def test_a_players_address_that_is_an_account_offers_the_player_record(director, club, make_user):
    chen_account = make_user("chen", email="chen@example.org")
    chen = club_services.create_player(
        display_name="Chen Wei", clubs=[club], email="CHEN@example.org"
    )
    answer = signed_in(director).post(
        f"/clubs/{club.slug}/people/", {"action": "invite", "invite-player": chen.pk}
    )
    assert answer.status_code == 302
    chen.refresh_from_db()
    assert chen.user is None and password_links_for(chen_account) == []
    assert User.objects.filter(email__in=["chen@example.org", "CHEN@example.org"]).count() == 1
    offer = ClubInvitation.objects.get()
    signed_in(chen_account).post(
        "/accounts/invitations/", {"action": "accept", "invitation": offer.pk}
    )
    chen.refresh_from_db()
    assert chen.user == chen_account


def test_a_new_accounts_set_password_link_confirms_its_address(director, club):
    invite(signed_in(director), club, "Bob@Example.org")
    bob = User.objects.get(username="bob@example.org")  # its address as typed: Bob@example.org
    assert bob.address.normalized == "bob@example.org" and bob.address.confirmed_at is None
    link = LINK.search(str(mail.outbox[-1].body))[0]
    guest = Client()
    form = guest.get(link, follow=True)
    guest.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-Long-pass-4-Bob", "new_password2": "a-Long-pass-4-Bob"},
    )
    bob.address.refresh_from_db()
    assert bob.address.confirmed_at is not None


def test_a_person_changes_their_address_only_by_confirming_the_new_one(make_user):
    ann = make_user("ann", email="ann@old.example")
    other = make_user("otto", email="otto@example.org")
    browser = signed_in(ann)
    taken = browser.post(
        "/accounts/address/", {"action": "change", "address-email": "OTTO@example.org"}
    )
    assert taken.status_code == 400 and 'id="id_address-email-error"' in taken.content.decode()
    browser.post("/accounts/address/", {"action": "change", "address-email": "ann@new.example"})
    (sent,) = mail.outbox
    assert sent.to == ["ann@new.example"]
    ann.refresh_from_db()
    assert ann.email == "ann@old.example"  # the old one works until the link is followed
    link = re.search(r"https?://\S+(/accounts/address/confirm/\S+/)", str(sent.body))[1]
    assert browser.get(link).status_code == 200  # a button, nothing changed yet
    ann.refresh_from_db()
    assert ann.email == "ann@old.example"
    refused = signed_in(other).post(link)
    assert refused.status_code == 400 and "another account" in refused.content.decode()
    done = browser.post(link, follow=True)
    assert "ann@new.example is confirmed as your address." in done.content.decode()
    ann.refresh_from_db()
    assert ann.email == "ann@new.example" and ann.address.confirmed_at is not None
    stale = browser.post(link)
    assert stale.status_code in (200, 302, 400)
