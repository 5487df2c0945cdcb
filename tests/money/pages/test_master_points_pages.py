"""Master points: the director awards them, the club's table and its CSV."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from money.master_points import event_points
from tournaments.models import Entry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def test_an_event_awards_master_points_to_the_club_table(make_event, director, win, actor, played):
    event = make_event(4, match_lengths={"default": 9})
    browser = Client()
    browser.force_login(director)
    bad = browser.post(
        f"/tournaments/{event.slug}/director/money/master-points/",
        {"formula": "usbgf-2019", "event_weight": "-1"},
    )
    assert bad.status_code == 400 and "A weight is a decimal number from 0." in bad.content.decode()
    ok = browser.post(
        f"/tournaments/{event.slug}/director/money/master-points/",
        {"formula": "usbgf-2019", "event_weight": "1", "division_weight": "1"},
    )
    assert ok.status_code == 302
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    points = event_points(event)
    seeds = {e.seed: e.player_id for e in Entry.objects.filter(tournament=event)}
    # 4 players: base 0.6 x 2 = 1.2; winner 1.2 + two 9-point wins (1.00 each)
    assert points[seeds[1]] == Decimal("3.20")
    assert points[seeds[2]] == Decimal("0.84") + Decimal("1.00")
    assert points[seeds[3]] == points[seeds[4]] == Decimal("0.50")  # (1/2 + 1/3) / 2 x 1.2
    table = Client().get(f"/clubs/{event.club.slug}/master-points/").content.decode()
    assert table.index("P01") < table.index("P02") and "3.20" in table
    csv = Client().get(f"/clubs/{event.club.slug}/master-points/?format=csv").content.decode()
    assert "1,P01,3.20,1" in csv


def test_master_points_api(make_event, director, win, actor, played):
    from rest_framework.test import APIClient

    event = make_event(4, match_lengths={"default": 9})
    client = APIClient()
    client.force_authenticate(director)
    bad = client.put(
        f"/api/v1/tournaments/{event.slug}/money/master-points/",
        {"formula": "acbl", "event_weight": "1"},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["field"] == "formula"
    ok = client.put(
        f"/api/v1/tournaments/{event.slug}/money/master-points/",
        {"formula": "usbgf-2019", "event_weight": "2"},
        format="json",
    )
    assert ok.status_code == 200
    assert ok.json() == {
        "formula": "usbgf-2019",
        "club_table_version": None,
        "event_weight": "2.000",
        "division_weight": "1.000",
        "points": [],
    }
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    answer = APIClient().get(f"/api/v1/tournaments/{event.slug}/money/master-points/").json()
    assert answer["points"][0] == {
        "player": answer["points"][0]["player"],
        "name": "P01",
        "points": "6.40",
    }
    table = APIClient().get(f"/api/v1/clubs/{event.club.slug}/master-points/").json()
    assert table[0]["name"] == "P01" and table[0]["points"] == "6.40"
    assert APIClient().put(
        f"/api/v1/tournaments/{event.slug}/money/master-points/", {}, format="json"
    ).status_code in (401, 403)


def test_the_club_page_links_every_visitor_to_the_clubs_master_points(club):
    """The leaderboard is public, so the club page shows its link to anyone; it was
    reachable only from an event's money page."""
    page = Client().get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    link = f'href="/clubs/{club.slug}/master-points/"'
    html = page.content.decode()
    assert link in html and "Masterpunkte" in html[html.index(link) :][:200]
