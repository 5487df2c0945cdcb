"""Live pages in real browsers (docs/live.md): the big screen open in one browser shows
a game the director enters in another within 2 seconds, without a reload; with its live
connection blocked the screen says it is offline and still follows by polling."""

from __future__ import annotations

import pytest

from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Pairing
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1366, "height": 900}
NAMES = ["Annabel Fairweather", "Bartholomew Quist", "Cecilia Duarte", "Dmitri Volkov"]
STREAM = "**/live/stream/**"


@pytest.fixture
def event(club, director):
    actor = actor_for_user(director)
    tournament = event_services.create_tournament(
        actor=actor, club=club, name="Live Night", format="single_elimination", seeding="manual"
    )
    for name in NAMES:
        player = club_services.create_player(display_name=name, clubs=[club])
        entry_services.register_entry(actor=actor, tournament_id=tournament.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def open_screen(page, event) -> list[str]:
    """Open the big screen; returns the list every navigation of the page is added to."""
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.goto(f"/tournaments/{event.slug}/screen/")
    page.get_by_role("heading", name="Playing now").wait_for()
    page.evaluate("window.__stillHere = true")  # gone if the page reloads
    return navigations


def enter_game(page, match, number: int) -> None:
    """The director records game ``number`` of ``match`` as won by its first player."""
    page.goto(f"/matches/{match.pk}/enter/")
    page.get_by_role("group", name="Who won?").get_by_role(
        "radio", name=match.player1.display_name, exact=True
    ).check()
    page.get_by_role("button", name=f"Record game {number}").click()
    page.get_by_text(f"Game {number} recorded.").wait_for()


def score_row(screen, match):
    return screen.locator(
        "#screen-live table.playing tbody tr", has_text=match.player1.display_name
    )


def test_a_game_entered_in_one_browser_shows_on_the_big_screen_in_another(
    page_for, login, event, director
):
    match = (
        Pairing.objects.select_related("match__player1")
        .get(tournament=event, key="main-r1-m1")
        .match
    )
    screen = page_for(SCREEN, name="live-big-screen")
    navigations = open_screen(screen, event)
    root = screen.locator("[data-live-root]")
    screen.locator("[data-live-root][data-live-state=online]").wait_for()
    assert score_row(screen, match).filter(has_text="0–0").count() == 1

    desk = page_for(name="live-director-desk")
    login(desk, director.username)
    enter_game(desk, match, 1)
    # Within 2 seconds of the answer, without a reload: only a notice and a fragment.
    row = score_row(screen, match)
    row.filter(has_text="1–0").or_(row.filter(has_text="0–1")).wait_for(timeout=2_000)
    # The fragment swapped in listens too: a second game shows the same way.
    enter_game(desk, match, 2)
    row.filter(has_text="2–0").or_(row.filter(has_text="0–2")).wait_for(timeout=2_000)
    assert screen.evaluate("window.__stillHere === true")
    assert len(navigations) == 1  # the first load only
    assert root.get_attribute("data-live-state") == "online"
    assert screen.locator("[data-live-badge]").is_hidden()


def test_with_the_stream_blocked_the_screen_says_offline_and_still_follows(
    page_for, login, event, director
):
    match = (
        Pairing.objects.select_related("match__player1")
        .get(tournament=event, key="main-r1-m2")
        .match
    )
    screen = page_for(SCREEN, name="live-big-screen-offline")
    screen.route(STREAM, lambda route: route.abort())
    navigations = open_screen(screen, event)
    badge = screen.locator("[data-live-badge]")
    badge.wait_for(state="visible")
    assert "Offline" in badge.inner_text() and "5 s" in badge.inner_text()

    desk = page_for(name="live-director-desk-offline")
    login(desk, director.username)
    enter_game(desk, match, 1)
    row = score_row(screen, match)
    row.filter(has_text="1–0").or_(row.filter(has_text="0–1")).wait_for(timeout=12_000)
    assert screen.evaluate("window.__stillHere === true")
    assert len(navigations) == 1

    # The connection comes back: the badge goes away and the screen listens again.
    screen.unroute(STREAM)
    screen.locator("[data-live-root][data-live-state=online]").wait_for(timeout=45_000)
    assert badge.is_hidden()
