"""What the exports refuse, and the qualification and exclusion cases a small event
shows through the API (the 32-player event is in test_finished_event.py)."""

from __future__ import annotations

import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend

from games.models import Match

from .conftest import agree_to_links, build_finished

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/{slug}/federation/{export}/"


class RefusingBackend(BaseEmailBackend):
    """A mail server that refuses every message."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPException("550 refused")


def test_only_a_finished_event_is_exported(make_event, client_for, director):
    event = make_event(4)
    response = client_for(director).get(API.format(slug=event.slug, export="wbgf"))
    assert response.status_code == 409
    assert response.json()["code"] == "tournament_not_finished"
    sent = client_for(director).post(API.format(slug=event.slug, export="wbgf") + "send/")
    assert sent.status_code == 409 and mail.outbox == []


def test_strangers_and_bad_choices_are_refused(make_event, win, actor, client_for, make_user):
    event, _ids = build_finished(make_event, win, actor, n=8, fee="", pool="")
    assert client_for(None).get(API.format(slug=event.slug, export="wbgf")).status_code == 401
    stranger = client_for(make_user("stranger"))
    refused = stranger.get(API.format(slug=event.slug, export="wbgf"))
    assert refused.status_code == 403 and refused.json()["code"] == "directors_only"
    assert stranger.get(f"/api/v1/clubs/{event.club.slug}/federation-addresses/").status_code == 403
    director = client_for(event.club.directors.first())
    unknown = director.get(API.format(slug=event.slug, export="fibs"))
    assert unknown.status_code == 400 and unknown.json()["field"] == "export"
    division = director.get(API.format(slug=event.slug, export="abt"), {"division": "masters"})
    assert division.status_code == 400 and division.json()["code"] == "unknown_division"
    for bad_places in ("x", "\u00b2", "0", "17"):
        places = director.get(API.format(slug=event.slug, export="abt"), {"places": bad_places})
        assert places.status_code == 400 and places.json()["field"] == "places"
    long = director.put(
        f"/api/v1/clubs/{event.club.slug}/federation-addresses/",
        {"ukbgf": "a" * 250 + "@uk.example"},
        format="json",
    )
    assert long.status_code == 400 and long.json()["field"] == "ukbgf"
    bad = director.put(
        f"/api/v1/clubs/{event.club.slug}/federation-addresses/",
        {"wbgf": "not an address"},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["field"] == "wbgf"
    assert (
        director.get(f"/api/v1/clubs/{event.club.slug}/federation-addresses/").json()["wbgf"] == ""
    )


def test_a_small_cheap_short_event_fails_each_wbgf_check(
    make_event, win, actor, client_for, director, settings
):
    event, _ids = build_finished(
        make_event, win, actor, n=8, fee="20", pool="", match_lengths={"default": 5}
    )
    body = client_for(director).get(API.format(slug=event.slug, export="wbgf")).json()["summary"]
    assert body["qualifies"] is False
    assert {c["code"]: c["passed"] for c in body["checks"]} == {
        "field_size": False,
        "match_length": False,
        "buy_in": False,
    }
    assert len(body["entrants"]) == 8  # every entrant all the same
    wbif = client_for(director).get(API.format(slug=event.slug, export="wbif")).json()["summary"]
    assert wbif["files"] == []
    assert {e["reason"] for e in wbif["excluded"]} == {"forfeit", "too_short"}
    bmab = client_for(director).get(API.format(slug=event.slug, export="bmab")).json()["summary"]
    assert len(bmab["files"]) == 2  # BMAB takes short matches; WBIF does not
    client_for(director).put(
        f"/api/v1/clubs/{event.club.slug}/federation-addresses/",
        {"wbgf": "results@wbgf.example"},
        format="json",
    )
    agree_to_links()
    settings.EMAIL_BACKEND = "tests.tournaments.federation.test_refusals.RefusingBackend"
    refused = client_for(director).post(API.format(slug=event.slug, export="wbgf") + "send/")
    assert refused.status_code == 409 and refused.json()["code"] == "mail_failed"


def test_a_friendly_event_has_no_rated_match(make_event, win, actor, client_for, director):
    event, _ids = build_finished(make_event, win, actor, n=8, rated=False)
    assert not Match.objects.filter(tournament_pairing__tournament=event, rated=True).exists()
    body = client_for(director).get(API.format(slug=event.slug, export="ukbgf")).json()["summary"]
    assert body["matches"] == []
    assert {e["reason"] for e in body["excluded"]} == {"forfeit", "unrated"}


def test_the_federation_page_is_for_directors(make_event, client, make_user, director):
    event = make_event(4)
    client.force_login(make_user("stranger"))
    assert client.get(f"/tournaments/{event.slug}/director/federation/").status_code == 404
    client.force_login(director)
    page = client.get(f"/tournaments/{event.slug}/director/federation/")
    assert page.status_code == 200 and 'id="not-finished"' in page.content.decode()
    bad = client.post(
        f"/tournaments/{event.slug}/director/federation/addresses/", {"ukbgf": "nope"}
    )
    assert bad.status_code == 400 and "valid email" in bad.content.decode()
    client.post(
        f"/tournaments/{event.slug}/director/federation/addresses/", {"ukbgf": "r@ukbgf.example"}
    )
    assert (
        client.get(f"/api/v1/clubs/{event.club.slug}/federation-addresses/").json()["ukbgf"]
        == "r@ukbgf.example"
    )
