"""A match played with the clock on a phone: the players tap their halves, a reload
resumes the clock, and a flag fall decides the match as configured (lost at once, or
after one overtime). Playwright's fake clock moves the browser's time and
``server_clock`` the server's (whose reckoning is the truth: a flag falls only when the
server's own time is spent); nothing sleeps."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from games import score_links
from games.models import MatchClock

from .conftest import LAPTOP, PHONE

RUNNING = re.compile(r"\brunning\b")
T0 = datetime(2026, 11, 20, 20, 0, 0)


def _frozen_clock(page) -> None:
    """Fake time that stands still until the test moves it (fast_forward)."""
    page.clock.install(time=T0)
    page.clock.pause_at(T0 + timedelta(seconds=1))


pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _start_custom(page, *, flag_rule: str = "loss") -> None:
    page.get_by_label("Preset").select_option("custom")
    page.get_by_label("Delay per move (seconds)").fill("1")
    page.get_by_label("Reserve per player (seconds)").fill("2")
    page.get_by_label("When a flag falls").select_option(flag_rule)
    if flag_rule == "overtime":
        page.get_by_label("Overtime (seconds)").fill("2")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#clock")).to_have_attribute("data-status", "ready")


def _half(page, name: str):
    return page.get_by_role("button", name=f"End {name}'s turn")


def _wait_for_reports(page) -> None:
    """The page sends its reports in the background: wait until none is pending (the
    page counts them), then read the database."""
    expect(page.locator("#clock")).to_have_attribute("data-pending", "0")


def test_flag_fall_loses_the_match(page_for, make_match, alice, bob, server_clock):
    match = make_match(5)
    phone = page_for(PHONE, name="clock-flag-loss")
    _frozen_clock(phone)
    phone.goto(f"/score/{score_links.make_token(match, alice)}/clock/")
    _start_custom(phone)

    # Bob lost the opening roll: his tap starts Alice's time.
    _half(phone, "Bob").click()
    expect(_half(phone, "Alice")).to_have_class(RUNNING)
    # Alice takes 1.5 s: the first second is the delay, half a second comes off her reserve.
    phone.clock.fast_forward(1500)
    _half(phone, "Alice").click()
    expect(_half(phone, "Bob")).to_have_class(RUNNING)
    _wait_for_reports(phone)
    clock = MatchClock.objects.get(match=match)
    assert (clock.reserve1_ms, clock.reserve2_ms) == (1500, 2000)

    # A reload resumes the clock where it stood: Bob's time still runs.
    phone.reload()
    expect(_half(phone, "Bob")).to_have_class(RUNNING)
    expect(_half(phone, "Alice").locator('[data-role="time"]')).to_have_text("0:02")

    # Bob thinks past his delay and his reserve: his flag falls, the match is Alice's.
    server_clock.advance(5000)
    phone.clock.fast_forward(5000)
    expect(phone.locator('[data-role="message"]')).to_have_text("Bob lost on time.")
    _wait_for_reports(phone)
    match.refresh_from_db()
    assert match.status == "forfeit"
    assert match.winner_id == alice.pk

    sheet = page_for(LAPTOP, name="clock-flag-score-sheet")
    sheet.goto(f"/matches/{match.pk}/")
    expect(sheet.locator('[data-role="clock-left"]')).to_contain_text("Alice 0:02 left")
    expect(sheet.locator('[data-role="clock-left"]')).to_contain_text("Bob lost on time")


def test_overtime_first_then_the_second_flag_loses(page_for, make_match, alice, bob, server_clock):
    match = make_match(3)
    phone = page_for(PHONE, name="clock-flag-overtime")
    _frozen_clock(phone)
    phone.goto(f"/score/{score_links.make_token(match, bob)}/clock/")
    _start_custom(phone, flag_rule="overtime")

    _half(phone, "Alice").click()  # Bob's time runs
    _wait_for_reports(phone)
    server_clock.advance(4000)
    phone.clock.fast_forward(4000)
    expect(phone.locator('[data-role="message"]')).to_contain_text("overtime")
    _wait_for_reports(phone)
    match.refresh_from_db()
    assert match.status == "scheduled"  # the first flag fall only gave overtime

    phone.get_by_role("button", name="Resume").click()
    _wait_for_reports(phone)
    server_clock.advance(4000)
    phone.clock.fast_forward(4000)
    expect(phone.locator('[data-role="message"]')).to_have_text("Bob lost on time.")
    _wait_for_reports(phone)
    match.refresh_from_db()
    assert match.status == "forfeit" and match.winner_id == alice.pk


@pytest.mark.parametrize(
    ("viewport", "name"),
    [({"width": 360, "height": 740}, "clock-360"), ({"width": 1366, "height": 900}, "clock-1366")],
)
def test_clock_page_fits_a_narrow_phone_and_a_landscape_tablet(
    page_for, make_match, alice, bob, viewport, name, server_clock
):
    """The server's time stands still (``server_clock``): the page shows the server's
    figures of its answer, and a server that ran on in real time would (rightly) have
    charged a few more milliseconds than the 20 s the browser's fake clock moved."""
    match = make_match(7)
    page = page_for(viewport, name=name)
    _frozen_clock(page)
    page.goto(f"/score/{score_links.make_token(match, alice)}/clock/")
    page.get_by_role("button", name="Start").click()
    _half(page, "Bob").click()
    page.clock.fast_forward(20_000)
    expect(_half(page, "Alice").locator('[data-role="time"]')).to_have_text("13:52")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    box_alice = _half(page, "Alice").bounding_box()
    box_bob = _half(page, "Bob").bounding_box()
    # two big halves: stacked on the phone, side by side on the tablet
    if viewport["width"] < 700:
        assert box_alice["y"] + box_alice["height"] <= box_bob["y"]
    else:
        assert box_alice["x"] + box_alice["width"] <= box_bob["x"]


def test_the_table_follows_a_directors_pause(page_for, make_match, alice, bob, director):
    from games.services import clocks as clock_services
    from games.services.actors import actor_for_user

    match = make_match(5)
    phone = page_for(PHONE, name="clock-director-pause")
    _frozen_clock(phone)
    phone.goto(f"/score/{score_links.make_token(match, alice)}/clock/")
    phone.get_by_role("button", name="Start").click()
    _half(phone, "Bob").click()
    expect(_half(phone, "Alice")).to_have_class(RUNNING)
    _wait_for_reports(phone)

    clock_services.pause_clock(actor=actor_for_user(director), match_id=match.pk)
    phone.clock.fast_forward(5000)  # the table asks the server every few seconds
    expect(phone.locator("#clock")).to_have_attribute("data-status", "paused")
    expect(phone.get_by_role("button", name="Resume")).to_be_visible()


def test_the_page_shows_the_servers_reckoning_not_its_own(
    page_for, make_match, alice, bob, server_clock
):
    """The page computes no charge of its own: Alice's device reports a turn of 1.5 s,
    but the server saw 5 s go by, so it charges 3 s (its figure less the network
    tolerance) less the 1 s delay; her half then shows the server's 8 s left, not the
    9.5 s its own arithmetic would have given (``0:10``)."""
    match = make_match(5)
    phone = page_for(PHONE, name="clock-server-truth")
    _frozen_clock(phone)
    phone.goto(f"/score/{score_links.make_token(match, alice)}/clock/")
    phone.get_by_label("Preset").select_option("custom")
    phone.get_by_label("Delay per move (seconds)").fill("1")
    phone.get_by_label("Reserve per player (seconds)").fill("10")
    phone.get_by_role("button", name="Start").click()
    expect(phone.locator("#clock")).to_have_attribute("data-status", "ready")

    _half(phone, "Bob").click()
    _wait_for_reports(phone)
    server_clock.advance(5000)
    phone.clock.fast_forward(1500)
    _half(phone, "Alice").click()
    _wait_for_reports(phone)
    expect(phone.locator("#clock")).to_have_attribute("data-fresh", "1")
    assert MatchClock.objects.get(match=match).reserve1_ms == 8000
    expect(_half(phone, "Alice").locator('[data-role="time"]')).to_have_text("0:08")
    expect(_half(phone, "Bob")).to_have_class(RUNNING)


def test_a_flag_claimed_early_is_refused_and_the_page_shows_the_servers_time(
    page_for, make_match, alice, bob, server_clock
):
    """The page's display reached zero but the server's time did not: the page asks, the
    server refuses (409 ``clock_not_expired``), and the page shows the server's clock
    (the match goes on)."""
    match = make_match(5)
    phone = page_for(PHONE, name="clock-early-flag")
    _frozen_clock(phone)
    phone.goto(f"/score/{score_links.make_token(match, alice)}/clock/")
    _start_custom(phone)

    _half(phone, "Alice").click()  # Bob's time runs: 1 s delay, 2 s reserve
    _wait_for_reports(phone)
    server_clock.advance(1000)
    phone.clock.fast_forward(5000)  # the browser ran ahead of the server
    expect(phone.locator('[data-role="message"]')).to_contain_text("has not fallen")
    _wait_for_reports(phone)
    expect(phone.locator("#clock")).to_have_attribute("data-status", "running")
    expect(_half(phone, "Bob").locator('[data-role="time"]')).to_have_text("0:02")
    match.refresh_from_db()
    assert match.status != "forfeit"
    assert MatchClock.objects.get(match=match).status == "running"
