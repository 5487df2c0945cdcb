"""Issue 13's second journey: a director runs a 24-player main draw with progressive
consolation and a last chance through the pages alone, and the last chance is played.

With 24 entries the first consolation round is only byes and walkovers, so the last
chance takes the losers of consolation round 2; the create page's preview and the
dashboard's drop map say so, the bracket's "Last chance" stage fills with those
players, and its matches are played to the end, whose standings give last-chance
places.
"""

from __future__ import annotations

import re

import pytest

from tests.factories import member
from tournaments.models import Tournament

from .conftest import LAPTOP

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NAMES = [f"Player {letter}" for letter in "ABCDEFGHIJKLMNOPQRSTUVWX"]  # 24
DASHBOARD = "/tournaments/club-open/director/"


def _play_next(page, skip: str | None = None) -> tuple[str, str, str] | None:
    """Enter the final score of the dashboard's first ready match (the first-named
    player wins 1–0), passing over matches whose label starts with ``skip``; its label,
    winner and loser, or None when nothing (else) is ready."""
    page.goto(DASHBOARD)
    rows = page.locator("table.ready tbody tr").filter(
        has=page.get_by_role("link", name=re.compile("^Enter the score of"))
    )
    if skip is not None:
        rows = rows.filter(has_not=page.locator("td:nth-child(2)", has_text=re.compile(f"^{skip}")))
    if rows.count() == 0:
        return None
    row = rows.first
    label = row.locator("td").nth(1).inner_text().strip()
    row.get_by_role("link", name=re.compile("^Enter the score of")).click()
    page.get_by_role("heading", name="Or the final score only").wait_for()
    one, two = (n.strip() for n in page.locator(".scoreboard .who").all_inner_texts())
    page.get_by_role("spinbutton", name=one, exact=True).fill("1")
    page.get_by_role("spinbutton", name=two, exact=True).fill("0")
    page.get_by_role("button", name="Record final score").click()
    page.get_by_text("Final score recorded.").wait_for()
    assert page.locator(".scoreboard .won").inner_text().strip() == one
    return label, one, two


def test_twenty_four_players_main_consolation_and_last_chance_play_the_last_chance(
    page_for, login, club
):
    for name in NAMES:
        member(club, display_name=name)
    page = page_for(LAPTOP, name="last-chance-journey")
    login(page, "director")

    # The event, with consolation and last chance, from the create page.
    page.goto(f"/clubs/{club.slug}/")
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name", exact=True).fill("Club Open")
    page.get_by_label("Format").select_option("single_elimination")
    page.get_by_label("Consolation: losers of main rounds").fill("1, 2")
    page.get_by_label("Last chance: losers of consolation rounds").fill("1")
    page.get_by_label("Match length", exact=True).fill("1")
    # The preview, before anything exists, says which round will feed the last chance.
    page.get_by_label("Players, for the preview").fill("24")
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("heading", name="With 24 players").wait_for()
    assert (
        page.locator("#preview")
        .get_by_text("The last chance takes the losers of consolation round 2.")
        .is_visible()
    )
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/tournaments/club-open/director/$"))

    # Twenty-four names pasted, previewed, confirmed.
    page.get_by_role("button", name="Open registration").click()
    page.get_by_label("Names, one per line").fill("\n".join(NAMES))
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("heading", name="Check the list").wait_for()
    assert page.locator("table.preview tbody tr").count() == 24
    page.get_by_role("button", name="Register 24 players").click()
    page.get_by_text("Entered 24 players.").wait_for()
    assert sorted(page.locator(".entry-list li > span").all_inner_texts()) == NAMES

    # The drop map says the last chance is fed by consolation round 2, and why.
    drop_map = page.locator("section.card", has=page.get_by_role("heading", name="Drop map"))
    assert drop_map.get_by_text(
        "The last chance takes the losers of consolation round 2."
    ).is_visible()
    assert drop_map.get_by_text("Asked: round 1;").is_visible()

    page.get_by_label("Seed").select_option("random")
    page.get_by_role("button", name="Seed", exact=True).click()
    page.get_by_text(re.compile(r"^\d+ entries seeded\.$")).wait_for()
    page.get_by_role("button", name=re.compile("^Start")).click()
    page.get_by_role("heading", name="Ready to play").wait_for()
    assert Tournament.objects.get(slug="club-open").status == "running"

    # Results from the pages, last-chance matches left for later, until all eight
    # matches of consolation round 2 are played.
    played: list[tuple[str, str, str]] = []
    consolation_two_losers: set[str] = set()
    while len(consolation_two_losers) < 8:
        result = _play_next(page, skip="Last chance")
        assert result is not None, f"nothing ready after {len(played)} matches"
        played.append(result)
        if result[0].startswith("Consolation, round 2,"):
            consolation_two_losers.add(result[2])
    assert not any(label.startswith("Last chance") for label, _, _ in played)
    page.goto(DASHBOARD)
    ready = page.locator("table.ready tbody tr td:nth-child(2)").all_inner_texts()
    assert sum(label.startswith("Last chance") for label in ready) == 4

    # The bracket's "Last chance" stage shows those eight players, not byes.
    page.get_by_role("link", name="Bracket").click()
    page.get_by_role("heading", name="Last chance").wait_for()
    last_chance = page.locator('svg.bracket[aria-label="Last chance bracket"]')
    shown = [
        re.sub(r"^\d+\. ", "", text.strip())  # "12. Player C": the seed, then the name
        for text in last_chance.locator("text.name").all_text_contents()
    ]
    first_column = [name for name in shown if name in NAMES]
    assert len(first_column) == 8 and "bye" not in shown
    assert set(first_column) == consolation_two_losers

    # Play on to the end: the last chance's matches are played through the pages.
    while (result := _play_next(page)) is not None:
        played.append(result)
        assert len(played) <= 45, "more matches than the draw holds"
    last_chance_played = [p for p in played if p[0].startswith("Last chance")]
    assert len(played) == 45  # main 23, consolation 15 (round 1 all byes), last chance 7
    assert len(last_chance_played) == 7
    assert {p for _, one, two in last_chance_played for p in (one, two)} == consolation_two_losers
    final_label, last_chance_winner, last_chance_runner_up = last_chance_played[-1]
    assert final_label == "Last chance final"

    page.goto("/tournaments/club-open/bracket/")
    assert last_chance.locator("text.name.won", has_text=last_chance_winner).count() == 3

    # Finish; the standings give the last chance's winner and runner-up their places.
    page.goto(DASHBOARD)
    page.get_by_role("button", name="Finish the event").click()
    page.get_by_role("button", name="Yes, finish the event").click()
    page.get_by_text(re.compile(r" is finished: .+ wins\.$")).wait_for()
    assert Tournament.objects.get(slug="club-open").status == "finished"
    page.goto("/tournaments/club-open/standings/")
    places = {
        row.locator("td.name").inner_text().strip(): row.locator("td.place").inner_text().strip()
        for row in page.locator("table.standings tbody tr").all()
    }
    assert places[last_chance_winner] == "Last chance 1"
    assert places[last_chance_runner_up] == "Last chance 2"
