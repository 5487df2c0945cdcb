"""The room's big screen on a real browser: a 16-player event on a 1366×900 screen
shows every row over time (it pages by itself), and a result entered through the API
appears within seconds, without a reload."""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Pairing
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1366, "height": 900}
NAMES = [
    "Annabel Fairweather", "Bartholomew Quist", "Cecilia Duarte", "Dmitri Volkov",
    "Eleanor Pike", "Farid Haddad", "Greta Lindqvist", "Hiroshi Tanaka",
    "Imogen Blackwood", "Jasper Okafor", "Katarina Novak", "Leopold Brandt",
    "Marguerite Leclerc", "Nikolai Petrov", "Ottilie Berg", "Percival Moss",
]  # fmt: skip


@pytest.fixture
def event(club, director):
    actor = actor_for_user(director)
    tournament = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Sixteen at the Club",
        format="single_elimination",
        seeding="manual",
        consolation_from=[1],
    )
    for name in NAMES:
        player = club_services.create_player(display_name=name, clubs=[club])
        entry_services.register_entry(actor=actor, tournament_id=tournament.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def test_big_screen_pages_through_every_row_and_updates_in_place(page_for, event, director):
    page = page_for(SCREEN, name="big-screen-16-1366")
    page.goto(f"/tournaments/{event.slug}/screen/")
    page.get_by_role("heading", name="Playing now").wait_for()
    page.evaluate("window.__stillHere = true")  # gone if the page reloads

    # Not every row fits at once: some are hidden, and the page turns by itself.
    standings = page.locator("#screen-live table.standings tbody tr")
    assert standings.count() == 16
    seen: set[str] = set()
    deadline = time.monotonic() + 35
    while time.monotonic() < deadline and not all(
        any(name in text for text in seen) for name in NAMES
    ):
        # Read every shown row in one go in the page: the pager may turn the page
        # between two separate calls, and a row hidden meanwhile has no box.
        shown = page.evaluate(
            """() => [...document.querySelectorAll('#screen-live table.standings tbody tr')]
                .map(r => [r, r.getBoundingClientRect()])
                .filter(([r, b]) => b.width > 0 && b.height > 0)
                .map(([r, b]) => [r.innerText, b.y + b.height])"""
        )
        for text, bottom in shown:
            assert bottom <= SCREEN["height"]
            seen.add(text)
        page.wait_for_timeout(1000)
    missing = [name for name in NAMES if not any(name in text for text in seen)]
    assert not missing, f"never shown on the screen: {missing}"
    assert page.locator("[data-pager=standings]").inner_text().startswith("page ")

    # A game entered through the API shows within a few seconds, without a reload.
    pairing = Pairing.objects.select_related("match__player1").get(
        tournament=event, key="main-r1-m5"
    )
    match = pairing.match
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(
        f"/api/v1/matches/{match.pk}/games/", {"winner": match.player1_id}, format="json"
    )
    assert response.status_code == 201, response.content
    row = page.locator("#screen-live table.playing tbody tr", has_text=match.player1.display_name)
    started = time.monotonic()
    row.filter(has_text="1–0").or_(row.filter(has_text="0–1")).wait_for(
        state="attached", timeout=10_000
    )
    assert time.monotonic() - started < 10
    assert page.evaluate("window.__stillHere === true")
