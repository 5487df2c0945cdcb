"""The federation send is capped per club and per sender (issue #37, item 3: ten sends
of an export to an address the director chose sent ten mails with attachments)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from .conftest import agree_to_links, build_finished

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/{slug}/federation/{export}/"


@pytest.fixture(autouse=True)
def _own_cache(own_cache):
    """Rate limits and mail caps count in a cache of this test's own."""


def test_ten_sends_stop_at_the_clubs_cap_with_retry_after_and_words(
    make_event, win, actor, client_for, director, settings
):
    settings.MAIL_CAP_CLUB_PER_HOUR = 3
    settings.MAIL_CAP_CLUB_PER_DAY = 20
    event, _ids = build_finished(make_event, win, actor, n=8, fee="", pool="")
    api = client_for(director)
    saved = api.put(
        f"/api/v1/clubs/{event.club.slug}/federation-addresses/",
        {"ukbgf": "ratings@ukbgf.example"},
        format="json",
    )
    assert saved.status_code == 200
    assert agree_to_links()  # the address's owner agreed (issue #37: confirmed before sending)
    statuses = [
        api.post(API.format(slug=event.slug, export="ukbgf") + "send/").status_code
        for _ in range(10)
    ]
    assert statuses == [200] * 3 + [429] * 7
    assert len(mail.outbox) == 3
    refused = api.post(API.format(slug=event.slug, export="ukbgf") + "send/")
    assert refused.json()["code"] == "mail_cap_reached"
    assert "This club has sent all the mail" in refused.json()["detail"]
    assert 0 < int(refused["Retry-After"]) <= 3601
    # the page says it in words, and sends nothing either
    browser = Client()
    browser.force_login(director)
    answer = browser.post(
        f"/tournaments/{event.slug}/director/federation/ukbgf/send/", follow=True
    ).content.decode()
    assert "This club has sent all the mail the server allows for now" in answer
    assert len(mail.outbox) == 3


def test_the_subject_quotes_the_names_on_one_line(make_event, win, actor, client_for, director):
    event, _ids = build_finished(make_event, win, actor, n=8, fee="", pool="")
    type(event).objects.filter(pk=event.pk).update(name="Open\u0085Bcc: x@evil.example " + "y" * 90)
    api = client_for(director)
    api.put(
        f"/api/v1/clubs/{event.club.slug}/federation-addresses/",
        {"ukbgf": "ratings@ukbgf.example"},
        format="json",
    )
    assert agree_to_links()
    assert api.post(API.format(slug=event.slug, export="ukbgf") + "send/").status_code == 200
    subject = mail.outbox[-1].subject
    assert subject.startswith("UKBGF ratings: “Open Bcc: x@evil.example yyy")
    assert "…”" in subject and "\u0085" not in subject and "\n" not in subject
