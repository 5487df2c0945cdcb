"""Issue 41 (7, 11) in the browser: the director sets the prize order and changes a
pool's payout table from the money page, saves the Calcutta's 50/25/12.5/12.5 and finds
it still chosen; pictures of the changed sections at 360, 390 and 1366 px."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import actor, make_event  # noqa: F401  (fixtures)
from tournaments.models import Tournament

from .conftest import LAPTOP_1366, PHONE, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_prize_order_pool_table_and_calcutta_table_from_the_pages(
    page_for,
    login,
    make_event,  # noqa: F811
):
    event = make_event(8, consolation_from=[1])
    money = f"/tournaments/{event.slug}/director/money/"
    pictures = pictures_folder("money-prizes")
    page = page_for(PHONE_360, name="money-prizes-360")
    login(page, "director")

    page.goto(money)
    pool = page.locator("#pool")
    pool.get_by_label("Entry fee").fill("20")
    pool.get_by_label("Payout table").select_option("50_25_12.5_12.5")
    pool.get_by_role("button", name="Save the pool").click()
    page.get_by_text("Saved.").first.wait_for()

    # The prize order, changed after the event was created.
    order = page.locator("#prize-order")
    order.get_by_label("Prize order").fill("main:2, consolation:2")
    order.get_by_role("button", name="Save the prize order").click()
    page.get_by_text("Places pay in this order: main 1–2, consolation 1–2").wait_for()
    assert Tournament.objects.get(pk=event.pk).prize_order == ["main:2", "consolation:2"]
    order.get_by_label("Prize order").fill("main, bronze")
    order.get_by_role("button", name="Save the prize order").click()
    page.locator("#prize-order-prize_order-error").wait_for()
    _fits(page)
    page.locator("#prize-order").screenshot(path=str(pictures / "money-prize-order-360.png"))

    # The pool's table, changed from its Change link: the form holds what was saved.
    page.goto(money)
    page.get_by_role("link", name="Change pool Main").click()
    assert page.locator("#pool-preset").input_value() == "50_25_12.5_12.5"
    assert page.locator("#pool-fee").input_value() == "20.00"
    page.locator("#pool-preset").select_option("main_consolation_45_22_22_11")
    page.locator("#pool").get_by_role("button", name="Save the pool").click()
    page.get_by_text("table 45 / 22 / 22 / 11").wait_for()
    _fits(page)

    # The Calcutta: what was saved is what the form shows.
    page.goto(f"{money}auction/")
    setup = page.locator("#calcutta")
    setup.get_by_label("Payout table").select_option("50_25_12.5_12.5")
    setup.get_by_role("button", name="Save the Calcutta").click()
    page.get_by_text("Saved.").first.wait_for()
    assert page.locator("#c-preset").input_value() == "50_25_12.5_12.5"
    page.get_by_text("Saved payout table: 50 / 25 / 12.5 / 12.5").wait_for()
    _fits(page)
    page.locator("#calcutta").screenshot(path=str(pictures / "money-calcutta-table-360.png"))

    for viewport, size in ((PHONE, "390"), (LAPTOP_1366, "1366")):
        other = page_for(viewport, name=f"money-prizes-{size}")
        login(other, "director")
        other.goto(money)
        _fits(other)
        other.locator("#prize-order").screenshot(
            path=str(pictures / f"money-prize-order-{size}.png")
        )
        other.locator("#pool").screenshot(path=str(pictures / f"money-pool-form-{size}.png"))
        other.goto(f"{money}auction/")
        other.locator("#calcutta").screenshot(
            path=str(pictures / f"money-calcutta-table-{size}.png")
        )
    page.goto(money)
    page.locator("#pool").screenshot(path=str(pictures / "money-pool-form-360.png"))
