"""A director's journey through the newer money pages in a real browser: the club's
master-points table (a phone), payments from the entry list (a phone), who a pool pays
and the money history (a big screen)."""

from __future__ import annotations

import pytest

from games.services.actors import actor_for_user
from money import services
from tests.tournaments.conftest import make_event  # noqa: F401  (fixture)

from .conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE_360 = {"width": 360, "height": 740}
BIG_SCREEN = {"width": 1366, "height": 900}


@pytest.fixture
def actor(director):
    return actor_for_user(director)


def _fits(page) -> None:
    """Nothing on the page is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_director_edits_the_club_table_and_records_payments(
    page_for,
    login,
    director,
    club,
    make_event,  # noqa: F811  (the fixture)
    actor,
):
    event = make_event(4, start=False)
    services.save_pool(actor=actor, tournament=event, key="main", name="Main", fee=20)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    phone = page_for(PHONE_360, name="money-entry-list-360")
    login(phone, director.username)
    phone.goto(f"/clubs/{club.slug}/master-points/table/")
    phone.get_by_label("Points per match won").fill("1")
    phone.get_by_label("From players 1").fill("2")
    phone.get_by_label("Points by place 1").fill("10/6/3/3")
    phone.get_by_role("button", name="Save as a new version").click()
    phone.get_by_text("Version 1").wait_for()
    _fits(phone)
    phone.screenshot(path=str(ARTIFACTS / "money-club-table-form-360.png"), full_page=True)

    phone.goto(f"/tournaments/{event.slug}/director/")
    phone.locator('.entry-payment[data-player="P01"] summary').click()
    phone.get_by_label("Amount P01 paid").fill("20")
    phone.get_by_label("How P01 paid").select_option("transfer")
    phone.get_by_role("button", name="Record the payment of P01").click()
    phone.get_by_text("paid 20.00, balance 0.00").wait_for()
    assert phone.url.endswith(f"/tournaments/{event.slug}/director/")
    _fits(phone)
    phone.screenshot(path=str(ARTIFACTS / "money-entry-payments-360.png"), full_page=True)

    laptop = page_for(BIG_SCREEN, name="money-history-1366")
    login(laptop, director.username)
    laptop.goto(f"/tournaments/{event.slug}/director/money/award/")
    laptop.get_by_label("Main: position 1").select_option(label="P02")
    laptop.get_by_role("button", name="Save the decision").click()
    laptop.get_by_text("Decided: 1. P02").wait_for()
    laptop.screenshot(path=str(ARTIFACTS / "money-award-1366.png"))
    laptop.goto(f"/tournaments/{event.slug}/director/money/history/")
    laptop.get_by_text("payment: P01").wait_for()
    assert laptop.get_by_text("pool: Main").count() >= 2  # created, then the award decided
