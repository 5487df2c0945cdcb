"""Invitations and sign-in codes are capped per club and per director (issue #37, item
3: 25 co-director invitations to strangers' addresses sent 25 mails and made 25
accounts). Through the club's people page, as the probe did."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from games.services import clubs as club_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(own_cache):
    """Rate limits and mail caps count in a cache of this test's own."""


def _browser(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_25_invitations_to_strangers_stop_at_the_cap_in_words(club, director, settings):
    settings.MAIL_CAP_CLUB_PER_HOUR = 10
    settings.MAIL_CAP_CLUB_PER_DAY = 40
    browser = _browser(director)
    accounts = User.objects.count()
    answers = [
        browser.post(
            f"/clubs/{club.slug}/people/",
            {"action": "director", "director-email": f"stranger{n}@example.org"},
        )
        for n in range(25)
    ]
    assert [a.status_code for a in answers] == [302] * 10 + [400] * 15
    assert len(mail.outbox) == 10
    assert User.objects.count() == accounts + 10
    assert "This club has sent all the mail the server allows for now" in (
        answers[-1].content.decode()
    )


def test_the_cap_per_director_spans_clubs_and_codes_count(club, director, settings, make_user):
    settings.MAIL_CAP_USER_PER_HOUR = 3
    other = club_services.create_club(created_by=director, name="Second Club")
    players = [club_services.create_player(display_name=f"P{n}", clubs=[other]) for n in range(2)]
    browser = _browser(director)
    first = [
        browser.post(
            f"/clubs/{club.slug}/people/",
            {"action": "director", "director-email": f"x{n}@example.org"},
        ).status_code
        for n in range(2)
    ]
    code = browser.post(
        f"/clubs/{other.slug}/people/", {"action": "code", "code-player": players[0].pk}
    )
    refused = browser.post(
        f"/clubs/{other.slug}/people/", {"action": "code", "code-player": players[1].pk}
    )
    assert first == [302, 302] and code.status_code == 200
    assert refused.status_code == 400
    assert "You have sent all the mail the server allows for now" in refused.content.decode()
    players[1].refresh_from_db()
    assert players[1].user_id is None  # nothing written for the refused code
    # another director of the club is not held back by this one's cap
    colleague = make_user("colleague")
    club.directors.add(colleague)
    assert (
        _browser(colleague)
        .post(
            f"/clubs/{club.slug}/people/",
            {"action": "director", "director-email": "y@example.org"},
        )
        .status_code
        == 302
    )
