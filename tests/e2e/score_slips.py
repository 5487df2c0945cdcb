"""The weekend-open journeys' phones: the score links a director's link sheet hands out,
and what a player's phone does with one (load the page, post its form with the page's
token; start a clock as the clock page's script does; post a game to the API as the
offline queue does).

Two kinds of phone: Playwright's request context (one thread, the journeys' bulk) and
:class:`ThreadPhone`, plain ``urllib`` with its own cookies, for phones that post at the
same moment from real threads (Playwright's sync API belongs to one thread).
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CLOCK_API = re.compile(r'data-api="([^"]+)"')
CLOCK_LINK = re.compile(r'data-link="([^"]+)"')


@dataclass
class Slip:
    player: str
    url: str
    meta: str  # "Table 3 · 5-point match"

    @property
    def length(self) -> int:
        return int(re.search(r"(\d+)-point match", self.meta)[1])

    @property
    def path(self) -> str:
        return "/" + self.url.split("/", 3)[3]

    @property
    def token(self) -> str:
        return self.url.rstrip("/").rsplit("/", 1)[1]

    @property
    def match_id(self) -> int:
        from games import score_links

        parsed = score_links.read_token(self.token)
        assert parsed is not None
        return parsed[0]


def csrf(html: str) -> str:
    found = CSRF.search(html)
    assert found, "the page has no form"
    return found[1]


def post_form(api, url: str, data: dict[str, str]):
    """What a phone does with a form: load the page, post the form with its token."""
    page = api.get(url)
    assert page.ok, (url, page.status)
    return api.post(url, form={"csrfmiddlewaretoken": csrf(page.text()), **data})


def round_slips(desk, slug: str, round_id: int) -> list[tuple[Slip, Slip]]:
    """The round's score links, as the director's link sheet shows them (a pair a
    match, open matches only)."""
    desk.goto(f"/tournaments/{slug}/director/rounds/{round_id}/links/")
    blocks = desk.locator("section.link-match").evaluate_all(
        """sections => sections.map(s => Array.from(s.querySelectorAll('article.slip')).map(
            a => [a.querySelector('.slip-player').textContent.trim(),
                  a.querySelector('.slip-url a').getAttribute('href'),
                  a.querySelector('.slip-meta').textContent.trim()]))"""
    )
    return [(Slip(*one), Slip(*two)) for one, two in blocks]


def park(*pages) -> None:
    """Leave the live pages while the phones post: the dashboards refresh themselves on
    every change, and SQLite's shared in-memory test database locks a table for the
    whole of a write (PostgreSQL does not), so a refresh racing a post would fail."""
    for page in pages:
        page.goto("about:blank")


def enter_by_link(api, winner: Slip, loser: Slip, length: int, *, clock: bool = False) -> None:
    """The winner's phone enters the final score, the loser's confirms it; in a round
    that requires a clock the players start one from their link first (the clock page's
    script posts to the clock API with the link's token)."""
    if clock:  # what static/js/clock.js does on the link's clock page
        page = api.get(winner.path + "clock/").text()
        clock_api, token = CLOCK_API.search(page)[1], CLOCK_LINK.search(page)[1]
        started = api.post(
            clock_api,
            data={"preset": "usbgf"},
            headers={"X-Score-Link": token, "Idempotency-Key": f"start-{token[-12:]}"},
        )
        assert started.status == 201, started.text()
    done = post_form(api, winner.path, {"action": "final", "you": str(length), "opponent": "0"})
    assert done.ok and "Final score recorded." in done.text(), done.text()[-2000:]
    confirmed = post_form(api, loser.path, {"action": "confirm"})
    assert confirmed.ok, confirmed.status


def game_by_link(api, slip: Slip, winner_id: int) -> dict:
    """One game posted to the API with a score link, as the offline queue sends it."""
    answer = api.post(
        f"/api/v1/matches/{slip.match_id}/games/",
        data={"winner": winner_id},
        headers={"X-Score-Link": slip.token, "Idempotency-Key": str(uuid.uuid4())},
    )
    assert answer.status == 201, answer.text()
    return answer.json()


def call(desk, slug: str, label: str) -> None:
    """The director calls a round from the dashboard's calls panel."""
    desk.goto(f"/tournaments/{slug}/director/")
    desk.locator("#calls").get_by_role("button", name=f"Call {label}").click()
    desk.get_by_text(
        re.compile(r"Round \d+ called: 0 players emailed, \d+ without email")
    ).wait_for()


class ThreadPhone:
    """A phone for one thread: its own cookies, plain HTTP to the live server."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def _open(self, path: str, body: bytes | None = None) -> tuple[int, str]:
        request = urllib.request.Request(self.base_url + path, data=body)
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")

    def post_form(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        status, page = self._open(path)
        assert status == 200, (path, status)
        form = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf(page), **data})
        return self._open(path, form.encode())

    def enter(self, winner: Slip, loser: Slip, tries: int = 5) -> int:
        """The winner enters the final score and the loser confirms; a refusal because
        the bracket moved under the entry ("try again") is tried again, as a player
        would. Returns how many tries the entry took."""
        for attempt in range(1, tries + 1):
            status, text = self.post_form(
                winner.path, {"action": "final", "you": str(winner.length), "opponent": "0"}
            )
            if status == 200 and "Final score recorded." in text:
                status, text = ThreadPhone(self.base_url).post_form(
                    loser.path, {"action": "confirm"}
                )
                assert status == 200, (status, text[-1500:])
                return attempt
            assert "try again" in text, (status, text[-1500:])
        raise AssertionError(f"{winner.player}'s entry never went in")
