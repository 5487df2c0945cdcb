"""A director runs two side events in variants from the pages alone (issue #28): an
acey-deucey event (no cube: the entry page offers none) and a tavli event (portes,
plakoto and fevga in rotation, the score sheet naming each game's), each created on the
new-event page, its scores entered and the event finished. The club rates tavli on a
list of its own and leaves acey-deucey unrated; the standard rating list, which a
standard match moved before, is unchanged by both events."""

from __future__ import annotations

import re

import pytest

from games.models import Rating, RatingList
from games.services import match_create, score_entry
from games.services.actors import actor_for_user
from tests.factories import member
from tournaments.models import Tournament

from .conftest import LAPTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def standard_ratings() -> list[tuple[int, int, float, int]]:
    return sorted(
        (r.rating_list_id, r.player_id, r.rating, r.matches_played)
        for r in Rating.objects.filter(rating_list__variant="standard")
    )


def test_an_acey_deucey_and_a_tavli_event_leave_the_standard_list_alone(
    page_for, login, club, director
):
    ann = member(club, display_name="Ann", slug="ann")
    ben = member(club, display_name="Ben", slug="ben")
    # A standard match first: the standard lists (the club's and the site's) move.
    actor = actor_for_user(director)
    standard = match_create.create_match(actor=actor, club=club, player1=ann, player2=ben, length=3)
    score_entry.record_final_score(actor=actor, match_id=standard.pk, score=(3, 1))
    before = standard_ratings()
    assert len(before) == 4  # two players on the club's list and on the site list

    page = page_for(LAPTOP, name="variant-events")
    login(page, "director")

    # The club rates tavli on a list of its own; acey-deucey stays unrated.
    page.goto(f"/clubs/{club.slug}/settings/")
    page.get_by_role("checkbox", name="Tavli (portes, plakoto, fevga in rotation)").check()
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(rf"/clubs/{club.slug}/$"))

    def create_event(name: str, slug: str, variant: str, length: str) -> None:
        page.goto(f"/clubs/{club.slug}/")
        page.get_by_role("link", name="New tournament").click()
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_label("Format").select_option("single_elimination")
        page.get_by_label("Match length", exact=True).fill(length)
        page.get_by_label("Game played").select_option(variant)
        page.get_by_role("button", name="Create").click()
        page.wait_for_url(re.compile(rf"/tournaments/{slug}/director/$"))
        page.get_by_role("button", name="Open registration").click()
        for player in ("Ann", "Ben"):
            page.get_by_role("checkbox", name=player, exact=True).check()
        page.get_by_role("button", name="Preview").click()
        page.get_by_role("button", name="Register 2 players").click()
        page.get_by_text("Entered 2 players.").wait_for()
        page.get_by_role("button", name="Seed", exact=True).click()
        page.get_by_role("button", name=re.compile("^Start")).click()
        page.get_by_role("heading", name="Ready to play").wait_for()

    def choose(question: str, answer: str) -> None:
        page.get_by_role("group", name=question).get_by_role(
            "radio", name=answer, exact=True
        ).check()

    def open_the_match(slug: str) -> None:
        page.goto(f"/tournaments/{slug}/director/")
        page.get_by_role("link", name=re.compile("^Enter the score of")).first.click()
        page.get_by_role("heading", name="Game 1").wait_for()

    def finish(slug: str, name: str) -> None:
        page.goto(f"/tournaments/{slug}/director/")
        page.get_by_role("button", name="Finish the event").click()
        page.get_by_role("button", name="Yes, finish the event").click()
        page.get_by_text(re.compile(rf"^{name} is finished: .+ wins\.$")).wait_for()
        assert Tournament.objects.get(slug=slug).status == "finished"

    # --- Acey-deucey: a 3-point match, entered game by game without a cube.
    create_event("Acey Night", "acey-night", "acey-deucey", "3")
    event = Tournament.objects.get(slug="acey-night")
    assert event.variant == "acey-deucey"
    assert {p.match.variant for p in event.pairings.exclude(match=None)} == {"acey-deucey"}
    open_the_match("acey-night")
    assert page.locator("[data-role=variant]").inner_text() == "Acey-deucey"
    # no cube in acey-deucey: no cube, owner or dropped double on the card
    assert page.get_by_role("group", name="Cube").count() == 0
    assert page.get_by_role("radio", name="Double dropped").count() == 0
    for number, level in ((1, "Gammon"), (2, "Single")):
        choose("Who won?", "Ann")
        choose("Won by", level)
        page.get_by_role("button", name=f"Record game {number}").click()
        page.get_by_text(f"Game {number} recorded.").wait_for()
    assert page.locator(".scoreboard .won").inner_text().strip() == "Ann"
    # the match links to the rules of its variant, whose start is drawn
    page.get_by_role("link", name="Rules of this variant").click()
    page.get_by_role("heading", name="Rules of Acey-deucey").wait_for()
    assert page.locator("svg.decision-board").count() == 2  # the start and a worked turn
    finish("acey-night", "Acey Night")

    # --- Tavli: a 5-point match, portes, plakoto and fevga in turn.
    create_event("Tavli Cup", "tavli-cup", "tavli", "5")
    page.goto("/tournaments/tavli-cup/")
    assert "Tavli" in page.locator("[data-role=event-variant]").inner_text()
    open_the_match("tavli-cup")
    # tavli scores 1 or 2: no backgammon offered
    assert page.get_by_role("group", name="Won by").get_by_role("radio").count() == 2
    for number, winner, level in ((1, "Ben", "Gammon"), (2, "Ben", "Single"), (3, "Ben", "Gammon")):
        choose("Who won?", winner)
        choose("Won by", level)
        page.get_by_role("button", name=f"Record game {number}").click()
        page.get_by_text(f"Game {number} recorded.").wait_for()
    assert page.locator(".scoreboard .won").inner_text().strip() == "Ben"
    assert page.locator("[data-role=game-variant]").all_inner_texts() == [
        "Portes (tavli)",
        "Plakoto (tavli)",
        "Fevga (tavli)",
    ]
    finish("tavli-cup", "Tavli Cup")

    # The standard list is exactly as the standard match left it; tavli has its own
    # list and acey-deucey none.
    assert standard_ratings() == before
    tavli = RatingList.objects.get(club=club, variant="tavli")
    assert sorted(tavli.ratings.values_list("player__display_name", "matches_played")) == [
        ("Ann", 1),
        ("Ben", 1),
    ]
    assert not RatingList.objects.filter(variant="acey-deucey").exists()
    page.goto(f"/clubs/{club.slug}/ratings/?variant=tavli")
    page.get_by_role("cell", name="Ben", exact=True).wait_for()
