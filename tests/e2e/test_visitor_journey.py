"""A visitor, not signed in, follows a running tournament: from the home page to the
club, to the event, its SVG bracket with one player's path, the standings, the Swiss
rounds and the room's big screen. The phone part first, then a laptop."""

from __future__ import annotations

import io
import re

import pytest

from tests.factories import member
from tournaments import demo
from tournaments.models import Entry

from .conftest import LAPTOP, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann",
    "Ben",
    "Cid",
    "Dee",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ida",
    "Jon",
    "Kim",
    "Lou",
    "Max",
]


@pytest.fixture
def running_events(club, director):
    """The demo's partly played 13-player bracket (main, consolation, last chance)
    and its Swiss at round 3, built through the services."""
    for name in NAMES:
        member(club, display_name=f"{name} Player", slug=name.lower())
    demo.seed(club=club, director=director, stdout=io.StringIO())


def test_visitor_browses_bracket_and_standings(page_for, running_events):
    phone = page_for(PHONE, name="visitor-phone-standings")
    phone.goto("/")
    phone.get_by_role("link", name="Test Club").click()
    phone.get_by_role("heading", name="Tournaments").wait_for()
    phone.get_by_role("link", name="Friday Night Bracket").click()
    phone.get_by_role("heading", name="Friday Night Bracket").wait_for()
    assert phone.get_by_role("link", name="Director").count() == 0  # visitors only read

    # The bracket: one SVG per stage, the players' names drawn in it.
    phone.get_by_role("link", name="Bracket").click()
    phone.wait_for_url(re.compile(r"/tournaments/demo-friday-bracket/bracket/$"))
    stages = phone.locator("svg.bracket")
    assert stages.count() == 3
    assert [h.strip() for h in phone.locator("section:has(svg.bracket) h2").all_inner_texts()] == [
        "Main",
        "Consolation",
        "Last chance",
    ]
    main = stages.first
    assert main.locator("g.slot").count() == 15  # 16-slot draw: 8 + 4 + 2 + 1
    drawn = main.text_content()
    assert all(f"{name} Player" in drawn for name in NAMES)
    assert main.locator("g.slot.st-bye").count() == 3  # 16 - 13 byes
    assert main.locator("a g.slot").count() > 0  # played and live boxes open their match

    # One player's path: every highlighted box holds that player, and no other does.
    followed = Entry.objects.filter(tournament__slug=demo.BRACKET_SLUG).order_by("seed").first()
    name = followed.player.display_name
    # the option reads "name (x% to win)" once the odds are in: pick it by its entry
    phone.get_by_label("Follow a player").select_option(value=str(followed.pk))
    phone.get_by_role("button", name="Show path").click()
    phone.wait_for_url(re.compile(rf"\?player={followed.pk}$"))
    path = phone.locator("svg.bracket g.slot.path")
    assert path.count() >= 1
    for box in path.all():
        assert name in box.text_content()
    for box in phone.locator("svg.bracket g.slot:not(.path)").all():
        assert name not in box.text_content()

    # The standings: everyone, ranked.
    phone.get_by_role("link", name="Standings").click()
    table = phone.locator("table.standings")
    table.wait_for()
    rows = table.locator("tbody tr")
    assert rows.count() == len(NAMES)
    assert rows.first.locator("td").first.inner_text().strip() == "1"


def test_visitor_sees_swiss_rounds_and_the_big_screen(page_for, running_events):
    laptop = page_for(LAPTOP, name="visitor-big-screen")
    laptop.goto("/clubs/test-club/")
    laptop.get_by_role("link", name="Tuesday Swiss").click()
    laptop.get_by_role("link", name="Rounds").click()
    for number in (1, 2, 3):
        laptop.get_by_role("heading", name=re.compile(rf"^Round {number}\b")).wait_for()
    round_three = laptop.locator("table").nth(2).locator("tbody tr")
    assert round_three.count() == 5  # nine players: four boards and a bye
    assert laptop.get_by_text("bye").count() >= 3  # one per round

    laptop.get_by_role("link", name="Big screen").click()
    laptop.get_by_role("heading", name="Playing now").wait_for()
    # it refreshes in place (htmx refetches a fragment on a live notice, or polls it
    # while offline), not by reloading the page
    assert laptop.locator("#screen-live").get_attribute("hx-trigger") == "sse:changed, live:poll"
    playing = laptop.locator("section", has_text="Playing now").locator("tbody tr")
    assert playing.count() == 4  # round 3's four matches, none played yet
    standings = laptop.locator("section", has_text="Standings").locator("tbody tr")
    assert standings.count() == 9
