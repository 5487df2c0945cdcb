"""A player signs in on a small phone and reaches their score entry from the home page
in one tap; and pictures of the player's home and of the director's score-link sheet
(screen and print) for the manual.

The pictures go to ``artifacts/e2e/pages/``, or with ``BOXCARS_UPDATE_SCREENSHOTS=1``
to ``docs/screenshots/`` (as in ``test_screenshots.py``).
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Player
from tournaments import demo as tournament_demo
from tournaments.models import Pairing, PairingStatus

from .conftest import pictures_folder
from .test_screenshots import MAX_BYTES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1366, "height": 860}
A4 = {"width": 794, "height": 1123}  # an A4 page at 96 dpi


def test_player_taps_from_home_to_their_score_entry(page_for, login, make_match, alice):
    match = make_match(5)
    phone = page_for(SMALL_PHONE, name="player-home-one-tap")
    login(phone, "alice")
    card = phone.locator(".your-match")
    assert "Bob" in card.inner_text() and "5-point match" in card.inner_text()
    enter = phone.get_by_role("link", name="Enter the score")
    box = enter.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SMALL_PHONE["height"]  # no scroll
    assert box["width"] >= 280  # a thumb-sized button across the phone
    enter.click()
    phone.wait_for_url(f"**/matches/{match.pk}/enter/")
    phone.get_by_role("button", name="Record game 1").wait_for()
    assert alice.display_name in phone.locator(".scoreboard").inner_text()


def test_screenshots_of_the_players_home_and_the_link_sheet(browser, live_server, db):
    call_command("seed_demo", stdout=io.StringIO())
    folder = pictures_folder("pages")
    ready = list(
        Pairing.objects.filter(
            tournament__slug=tournament_demo.SWISS_SLUG,
            status=PairingStatus.READY,
            match__isnull=False,
        ).select_related("match__player1", "match__player2", "round")
    )
    round_id = ready[0].round_id
    me = ready[0].match.player1
    user = get_user_model().objects.create_user(me.slug, password="pw-for-tests-1")
    Player.objects.filter(pk=me.pk).update(user=user)
    for pairing in ready[::2]:  # some players gave an address
        Player.objects.filter(pk=pairing.match.player2_id).update(email="p@example.org")
    taken = []

    def shot(name, url, expect, viewport, username, password, print_media=False):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            page.goto("/accounts/login/")
            page.get_by_label("Username").fill(username)
            page.get_by_label("Password").fill(password)
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(f"{live_server.url}/")
            response = page.goto(url)
            assert response is not None and response.status == 200, url
            page.get_by_text(expect).first.wait_for()
            if print_media:
                page.emulate_media(media="print")
            path = folder / f"{name}.png"
            page.screenshot(path=str(path))
            taken.append(path)
        finally:
            context.close()

    player = (me.slug, "pw-for-tests-1")
    director = ("director", "boxcars-demo")
    shot("player-home-phone", "/", "Enter the score", SMALL_PHONE, *player)
    shot("player-home-laptop", "/", "Your events", WIDE, *player)
    links = f"/tournaments/{tournament_demo.SWISS_SLUG}/director/rounds/{round_id}/links/"
    shot("score-links-sheet", links, "Email the links", WIDE, *director)
    shot("score-links-print", links, "Email the links", A4, *director, print_media=True)
    for path in taken:
        assert path.stat().st_size < MAX_BYTES, f"{path.name} is {path.stat().st_size} bytes"
