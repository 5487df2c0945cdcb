"""A visitor switches Boxcars to German from the header's picker, on a phone and a laptop;
the choice stays for the next page, and the club page shows the club's clock."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW_PHONE = {"width": 360, "height": 740}
BIG_SCREEN = {"width": 1366, "height": 900}


@pytest.mark.parametrize("viewport", [NARROW_PHONE, BIG_SCREEN], ids=["360", "1366"])
def test_the_picker_turns_the_pages_german(page_for, club, viewport):
    page = page_for(viewport, name=f"language-picker-{viewport['width']}")
    page.goto("/")
    assert page.locator("h1").inner_text() == "Clubs"
    page.get_by_label("Language").select_option("de")
    page.get_by_role("button", name="Change language").click()
    page.wait_for_selector("html[lang=de]")
    assert "Wähle deinen Club" in page.locator("main").inner_text()
    # the choice stays: the club's page is German too
    page.get_by_role("link", name=club.name).click()
    page.wait_for_selector("html[lang=de]")
    assert page.get_by_role("link", name="Anmelden").is_visible()
    # the header never widens a phone's page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]


def test_the_score_entry_hint_speaks_the_visitors_language(
    page_for, login, make_match, alice, live_server
):
    """entry.js takes its sentences from /jsi18n/, in the page's language; without that
    catalog (it failed to load) the hint still works, in English."""
    match = make_match(3)
    phone = page_for(NARROW_PHONE, name="score-entry-hint-de")
    login(phone, "alice")
    phone.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    phone.goto(f"/matches/{match.pk}/enter/")
    phone.wait_for_selector("html[lang=de]")
    hint = phone.locator("#points-hint")
    assert hint.inner_text() == "Wähle, wer gewonnen hat."
    phone.locator("fieldset[data-field=winner] label.chip").first.click()
    phone.wait_for_function("!document.getElementById('points-hint').textContent.startsWith('W')")
    said = hint.inner_text()
    assert "gewinnt" in said and "Punkt" in said and "wins" not in said

    offline = page_for(NARROW_PHONE, name="score-entry-hint-no-catalog")
    login(offline, "alice")
    offline.context.add_cookies(
        [{"name": "django_language", "value": "de", "url": live_server.url}]
    )
    # on the context, not the page: the service worker (static/js/sw.js) fetches the
    # catalog for the page once it controls it, and only a context route sees that
    offline.context.route("**/jsi18n/**", lambda route: route.abort())
    offline.goto(f"/matches/{match.pk}/enter/")
    offline.wait_for_selector("html[lang=de]")  # a German page, its catalog missing
    offline.locator("#points-hint", has_text="Choose who won.").wait_for()
    offline.locator("fieldset[data-field=winner] label.chip").first.click()
    offline.locator("#points-hint", has_text=" wins ").wait_for()
