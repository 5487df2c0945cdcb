"""An event read in German on a real browser (issue #41, items 4 and 9).

The big screen's body class went through the catalog (``class="Bildschirm"``), so in
German, French and Danish none of the screen's styles applied: the site header showed,
the type was small. And the names the code builds (match labels, bracket headings) were
English on German pages. Here the screen is opened in German at 1366 and 1920 px: its
body class is ``screen`` and the screen's CSS applies (the site header is hidden, the
type is 1.5rem); its match labels, the bracket's headings and the director's dashboard
read German. With ``BOXCARS_UPDATE_SCREENSHOTS=1`` the pictures go to
``docs/screenshots/``.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import pictures_folder
from tests.e2e.test_big_screen import NAMES, _knockout

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(club, director):
    return _knockout(club, director, "Nordsee Open", NAMES)


def _german(page, live_server) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])


def keeps_its_layout_in_german(screen) -> None:
    """The big screen open in German: its body class is ``screen``, so the styles only
    it gets apply (no site header, big type, the grid), and its match labels are German
    (the weekend-open journey asks this too)."""
    screen.wait_for_selector("html[lang=de]")
    screen.get_by_role("heading", name="Läuft gerade").wait_for()
    assert screen.evaluate("document.body.className") == "screen"
    assert screen.locator("header.site").is_hidden()
    assert screen.evaluate("getComputedStyle(document.body).fontSize") == "24px"
    grid = screen.evaluate("getComputedStyle(document.querySelector('.screen-grid')).display")
    assert grid == "grid"
    # the match column's full label (its title) is German
    title = screen.locator("#screen-live table.playing abbr").first.get_attribute("title")
    assert title is not None and title.startswith("Hauptrunde, Runde 1, Match")


@pytest.mark.parametrize("width", [1366, 1920])
def test_the_big_screen_keeps_its_layout_in_german(page_for, live_server, event, width):
    page = page_for({"width": width, "height": 900 if width == 1366 else 1080})
    _german(page, live_server)
    page.goto(f"/tournaments/{event.slug}/screen/")
    keeps_its_layout_in_german(page)
    page.screenshot(path=str(pictures_folder("german") / f"big-screen-de-{width}.png"))


@pytest.mark.parametrize("width", [360, 1366])
def test_the_bracket_and_dashboard_read_german(page_for, live_server, login, event, width):
    page = page_for({"width": width, "height": 740 if width == 360 else 900})
    _german(page, live_server)
    page.goto(f"/tournaments/{event.slug}/bracket/")
    page.wait_for_selector("html[lang=de]")
    html = page.locator("main").inner_html()
    assert "Viertelfinale · " in html and " Pkt." in html and " pts" not in html
    assert "Quarter-finals" not in html and "Consolation" not in html
    page.screenshot(path=str(pictures_folder("german") / f"bracket-de-{width}.png"), full_page=True)

    desk = page_for({"width": width, "height": 740 if width == 360 else 900})
    login(desk, "director")  # the login form in English, then German
    _german(desk, live_server)
    desk.goto(f"/tournaments/{event.slug}/director/")
    desk.wait_for_selector("html[lang=de]")
    html = desk.locator("main").inner_html()
    assert "Hauptrunde, Runde 1, Match 1" in html
    assert "Main, round" not in html
    desk.screenshot(path=str(pictures_folder("german") / f"director-de-{width}.png"))


@pytest.mark.parametrize("width", [360, 1366])
def test_the_new_event_preview_and_drop_map_read_german(page_for, live_server, login, club, width):
    page = page_for({"width": width, "height": 740 if width == 360 else 900})
    login(page, "director")
    _german(page, live_server)
    page.goto(f"/tournaments/new/{club.slug}/")
    page.wait_for_selector("html[lang=de]")
    page.locator("[name=name]").fill("Freitagabend")
    page.locator("[name=format]").select_option("single_elimination")
    page.locator("[name=consolation_from]").fill("1, 2")
    page.locator("[name=last_chance_from]").fill("1")
    page.locator("[name=preview_entries]").fill("24")
    page.locator("button[name=action][value=preview]").click()
    sentence = "Die Last-Chance-Runde nimmt die Verlierer der Trostrunde aus Runde 2 auf."
    page.get_by_text(sentence, exact=False).wait_for()
    preview = page.locator("#preview").inner_text()
    assert "Gewünscht: Runde 1;" in preview
    assert "Trostrunde, Runde 1" in preview and "Viertelfinale" in preview
    assert "takes the losers" not in preview and "Consolation" not in preview
    page.locator("#preview details.drops summary").click()
    drops = page.locator("#preview details.drops").inner_text()
    assert "Hauptrunde, Runde 1, Match 1" in drops and "Main, round" not in drops
    page.locator("#preview").scroll_into_view_if_needed()
    page.screenshot(
        path=str(pictures_folder("german") / f"new-event-preview-de-{width}.png"), full_page=True
    )
