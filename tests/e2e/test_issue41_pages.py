"""Issue 41's small pages in a real browser at 360 and 1366 px: ``/variants/`` (no
longer a 404), the Russian rules page, an acey-deucey match's chances, and an empty
draft's dashboard saying "Add players first". Each fits its width (no sideways
scroll); the pictures go to ``docs/screenshots/`` with ``BOXCARS_UPDATE_SCREENSHOTS=1``."""

from __future__ import annotations

import pytest

from games.services import score_entry
from games.services.actors import actor_for_user
from games.services.match_records import GameInput
from tournaments.services import events as event_services

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_issue_41_pages_fit_and_say_it_in_words(
    browser, live_server, login, club, director, make_match, alice, bob
):
    event_services.create_tournament(
        actor=actor_for_user(director),
        club=club,
        name="Spring Open",
        format="single_elimination",
        slug="spring-open",
    )
    match = make_match(7, variant="acey-deucey")
    for winner in (alice, alice, bob):
        score_entry.record_game(
            actor=actor_for_user(director),
            match_id=match.pk,
            game=GameInput(winner_id=winner.pk, level="single"),
        )
    pages = [
        ("variants-index", "/variants/", "Legal plays (API)"),
        ("variants-russian", "/variants/russian/", "must then be followed"),
        ("acey-deucey-chances", f"/matches/{match.pk}/", "Before the first game:"),
        ("empty-draft-dashboard", "/tournaments/spring-open/director/", "Add players first:"),
    ]
    folder = pictures_folder("issue41")
    for viewport in (PHONE_360, LAPTOP_1366):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            login(page, "director")
            for name, url, words in pages:
                page.goto(url)
                shown = page.get_by_text(words).first
                shown.wait_for()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"], (name, width)
                shown.evaluate("(n) => n.scrollIntoView({block: 'center'})")
                page.screenshot(path=str(folder / f"{name}-{viewport['width']}.png"))
        finally:
            context.close()
