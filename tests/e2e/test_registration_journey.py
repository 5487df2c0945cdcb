"""A club night's registration on a phone: the director pastes fourteen names (some
club members, typed carelessly, some newcomers), checks the preview, confirms, then
adds two walk-ins, all on a 360-pixel-wide screen from the event dashboard.

With ``BOXCARS_UPDATE_SCREENSHOTS=1`` the pictures of the new forms (360 and 1366
pixels wide) are written to ``docs/screenshots/`` for the director's guide; otherwise
under ``artifacts/e2e/registration/``.
"""

from __future__ import annotations

import re

import pytest

from games.models import Player
from games.services.actors import actor_for_user
from tests.factories import member
from tournaments.models import Entry
from tournaments.services import events as event_services

from .conftest import pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}
WIDE = {"width": 1366, "height": 860}
MEMBERS = ["Ann Smith", "Björn Berg", "Chloé Martin", "Dev Patel"]
PASTED = [
    "ann smith",
    "Bjorn  Berg",
    "CHLOE MARTIN",
    "Dev Patel",
    *(f"Guest {n}" for n in ("Alpha", "Bravo", "Charlie", "Delta", "Echo")),
    *(f"Visitor {n}" for n in ("One", "Two", "Three", "Four", "Five")),
]


def _fits(page) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width}px wide on {page.url}"


def _shot(page, name: str, locator=None) -> None:
    if locator is not None:
        locator.scroll_into_view_if_needed()
    page.screenshot(path=str(pictures_folder("registration") / f"{name}.png"))


def test_director_pastes_fourteen_names_and_adds_two_walk_ins_on_a_phone(
    page_for, login, club, director
):
    for name in MEMBERS:
        member(club, display_name=name)
    event = event_services.create_tournament(
        actor=actor_for_user(director), club=club, name="Club Night", format="swiss", swiss_rounds=4
    )
    page = page_for(NARROW, name="registration-phone")
    login(page, "director")
    page.goto(f"/tournaments/{event.slug}/director/")
    _fits(page)
    _shot(page, "registration-form-360", page.locator("#register-players"))

    page.get_by_label("Names, one per line").fill("\n".join(PASTED))
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("heading", name="Check the list").wait_for()
    _fits(page)
    assert page.get_by_text("4 to enter, 10 new to the club").is_visible()
    assert page.locator("table.preview tbody tr").count() == 14
    _shot(page, "registration-preview-360")
    assert not Entry.objects.exists()  # the preview writes nothing
    page.get_by_role("button", name="Register 14 players").click()
    page.get_by_text("Entered 14 players. 10 of them are new to the club.").wait_for()
    assert Entry.objects.filter(tournament=event).count() == 14
    assert Player.objects.count() == 14  # the four members were matched, not duplicated

    for name, rating in (("Walker One", "1620"), ("Walker Two", "")):
        page.locator("#walk-in summary").click()
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_label("Starting rating (optional)").fill(rating)
        page.get_by_role("button", name="Add and enter").click()
        page.get_by_text(f"{name} is entered.").wait_for()
    entries = page.locator(".entry-list li > span")
    assert entries.count() == 16
    assert Player.objects.get(display_name="Walker One").declared_rating == 1620

    # A walk-in with a bad address: the rule next to the field, nothing written.
    page.locator("#walk-in summary").click()
    page.get_by_label("Name", exact=True).fill("Walker Three")
    page.get_by_label("E-mail (optional)").fill("walker@")
    page.get_by_role("button", name="Add and enter").click()
    page.get_by_text("That is not an e-mail address").wait_for()
    _fits(page)
    _shot(page, "walk-in-error-360")
    assert not Player.objects.filter(display_name="Walker Three").exists()

    # Unregister asks first.
    page.goto(f"/tournaments/{event.slug}/director/")
    page.get_by_role("button", name="Unregister Guest Alpha").click()
    page.get_by_role("heading", name=re.compile("Take Guest Alpha off")).wait_for()
    _fits(page)
    _shot(page, "unregister-confirm-360")
    page.get_by_role("button", name="Yes, unregister Guest Alpha").click()
    page.get_by_text(re.compile(r"^Guest Alpha is no longer registered for ")).wait_for()
    assert Entry.objects.filter(tournament=event).count() == 15


def test_screenshots_of_the_registration_forms_on_a_laptop(page_for, login, club, director):
    for name in MEMBERS:
        member(club, display_name=name)
    member(club, display_name="Ann  Smith")  # a namesake: the preview asks which
    event = event_services.create_tournament(
        actor=actor_for_user(director), club=club, name="Club Night", format="swiss", swiss_rounds=4
    )
    page = page_for(WIDE, name="registration-laptop")
    login(page, "director")
    page.goto(f"/tournaments/{event.slug}/director/")
    _shot(page, "registration-form-1366", page.locator("#register-players"))
    page.get_by_label("Names, one per line").fill("Ann Smith\nDev Patel\nNew Face\nnew face")
    page.get_by_role("checkbox", name="Björn Berg").check()
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("heading", name="Check the list").wait_for()
    assert page.get_by_label("which one?").count() == 1
    _shot(page, "registration-preview-1366")

    page.goto(f"/clubs/{club.slug}/")
    form = page.locator("#add-player")
    _shot(page, "club-add-player-1366", form)
    page.set_viewport_size(NARROW)
    _fits(page)
    _shot(page, "club-add-player-360", form)
    page.set_viewport_size(WIDE)
    player = Player.objects.get(display_name="Dev Patel")
    page.goto(f"/players/{player.slug}/edit/")
    page.get_by_role("heading", name="Edit Dev Patel").wait_for()
    _shot(page, "player-edit-1366")
