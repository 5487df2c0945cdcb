"""A director runs a six-player bracket through the pages alone:
create the event from the club page, register (tick, preview, confirm), seed, start,
enter every result on the match entry page, and finish once the champion shows on the
bracket (confirming it)."""

from __future__ import annotations

import re

import pytest

from tests.factories import member
from tournaments.models import Tournament

from .conftest import LAPTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Zoe", "Ann", "Ben", "Cid", "Dee", "Eve"]
CHAMPION = "Zoe"  # wins every match she plays; elsewhere the first-named player wins


def test_director_runs_a_bracket_from_registration_to_champion(page_for, login, club):
    for name in NAMES:
        member(club, display_name=name, slug=name.lower())
    page = page_for(LAPTOP, name="director-bracket-champion")
    login(page, "director")

    # From the club page to the new-event form.
    page.goto(f"/clubs/{club.slug}/")
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name", exact=True).fill("Club Cup")
    page.get_by_label("Format").select_option("single_elimination")
    page.get_by_label("Match length", exact=True).fill("3")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/tournaments/club-cup/director/$"))

    # Registration: open it, register everyone from the club, seed, start.
    page.get_by_role("button", name="Open registration").click()
    for name in NAMES:
        page.get_by_role("checkbox", name=name, exact=True).check()
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Register 6 players").click()
    page.get_by_text("Entered 6 players.").wait_for()
    entries = page.locator(".entry-list li > span")
    assert sorted(entries.all_inner_texts()) == sorted(NAMES)
    page.get_by_label("Seed").select_option("random")
    page.get_by_role("button", name="Seed", exact=True).click()
    page.get_by_text("6 entries seeded.").wait_for()
    page.get_by_role("button", name=re.compile("^Start")).click()
    page.get_by_role("heading", name="Ready to play").wait_for()
    assert Tournament.objects.get(slug="club-cup").status == "running"

    # Every ready match, from the dashboard to the entry page: the final score.
    played = 0
    while True:
        page.goto("/tournaments/club-cup/director/")
        link = page.get_by_role("link", name=re.compile("^Enter the score of"))
        if link.count() == 0:
            break
        link.first.click()
        page.get_by_role("heading", name="Or the final score only").wait_for()
        one, two = (n.strip() for n in page.locator(".scoreboard .who").all_inner_texts())
        winner = two if two == CHAMPION else one
        for name in (one, two):
            page.get_by_role("spinbutton", name=name, exact=True).fill(
                "3" if name == winner else "1"
            )
        page.get_by_role("button", name="Record final score").click()
        page.get_by_text("Final score recorded.").wait_for()
        assert page.locator(".scoreboard .won").inner_text().strip() == winner
        played += 1
        assert played < 20, "the bracket never ran out of matches"
    assert played == 5  # six players, two byes: two first-round matches, semis, final
    assert page.get_by_text("Nothing ready.").is_visible()

    # The champion shows on the bracket, whose boxes lead to the matches.
    page.get_by_role("link", name="Bracket").click()
    page.get_by_text(f"Champion: {CHAMPION}").wait_for()
    assert page.locator("svg.bracket text", has_text=CHAMPION).count() == 3  # R1 bye, SF, F
    assert page.locator("svg.bracket a").count() == played

    # Finish the event.
    page.goto("/tournaments/club-cup/director/")
    page.get_by_role("button", name="Finish the event").click()
    assert Tournament.objects.get(slug="club-cup").status == "running"  # asked, not done
    page.get_by_role("button", name="Yes, finish the event").click()
    page.get_by_text(re.compile(r"^Club Cup is finished: .+ wins\.$")).wait_for()
    assert Tournament.objects.get(slug="club-cup").status == "finished"
    page.goto("/tournaments/club-cup/bracket/")
    page.get_by_text(f"Champion: {CHAMPION}").wait_for()
