"""Issue 41: "the open chouette ledger widens a 390 px page to 401 px". On a phone the
ledger folds to the totals; opened to every column it scrolls inside its own frame,
and the page must never scroll sideways (the document's ``scrollWidth`` measured in
Chromium at 390, 360 and 1366 px, with six long names, a partner-sized table and the
Jacoby rule's notes under the ledger, which say its single gammons in words)."""

from __future__ import annotations

import pytest

from games.services import clubs as club_services
from tests.chouette.helpers import client as api_client
from tests.chouette.helpers import member as chouette_member
from tests.chouette.helpers import sessions_url

from .conftest import LAPTOP_1366, PHONE, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIX = ["Alexandra", "Benedikt", "Cordelia", "Dominik", "Evangeline", "Florian"]
WIDTH = "() => document.documentElement.scrollWidth"


@pytest.fixture
def session(club, director):
    six = [club_services.create_player(display_name=n, clubs=[club]) for n in SIX]
    api = api_client(director)
    opened = api.post(
        sessions_url(),
        {
            "club": club.slug,
            "stake": "1.00",
            "players": [p.pk for p in six],
            "rules": {"jacoby": True},
        },
        format="json",
    )
    assert opened.status_code == 201, opened.json()
    sid = opened.json()["id"]
    for number in range(4):
        box = api.get(sessions_url(sid)).json()["box"]["id"]
        members = [chouette_member(p) for p in six if p.pk != box]
        recorded = api.post(
            sessions_url(sid, "games/"),
            {"winner": "team" if number % 2 else "box", "level": "gammon", "members": members},
            format="json",
        )
        assert recorded.status_code == 201, recorded.json()
    return sid


def test_the_open_ledger_fits_390_px(browser, live_server, login, session):
    folder = pictures_folder("chouette")
    for viewport in (PHONE, PHONE_360, LAPTOP_1366):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            login(page, "director")
            page.goto(f"/chouette/sessions/{session}/")
            page.get_by_role("heading", name="Ledger").wait_for()
            width = viewport["width"]
            assert page.evaluate(WIDTH) <= width
            if width < 600:
                page.get_by_text("Every game, every player").click()  # open the ledger
                page.locator("table.ledger th", has_text="Florian").wait_for()
            assert page.evaluate(WIDTH) <= width, f"the page scrolls sideways at {width} px"
            notes = page.locator("[data-role=jacoby-single]")
            assert notes.count() == 4
            assert notes.first.is_visible()
            page.get_by_role("heading", name="Ledger").evaluate(
                "(h) => h.scrollIntoView({block: 'start'})"
            )
            if width != PHONE["width"]:
                page.screenshot(path=str(folder / f"chouette-ledger-open-{width}.png"))
        finally:
            context.close()
