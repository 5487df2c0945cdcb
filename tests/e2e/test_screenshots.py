"""Screenshots of the main pages on the demo data, for the manual's "Pages tour" (docs/pages.md).

Runs with the other browser tests and saves its pictures under
``artifacts/e2e/pages/``; with ``BOXCARS_UPDATE_SCREENSHOTS=1`` it writes them to
``docs/screenshots/`` instead, which is how the documented pictures are regenerated::

    BOXCARS_UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/e2e/test_screenshots.py

Each picture is the visible viewport (not the whole page) so that it stays small, and
each page is checked for the content the picture is meant to show before it is taken.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Count

from games import score_links
from games.models import Match, MatchStatus, Player, RatingChange
from tournaments import demo as tournament_demo
from tournaments.models import Entry, Pairing, PairingStatus

from .conftest import LAPTOP, PHONE, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TALL_LAPTOP = {"width": 1280, "height": 960}
BIG_SCREEN = {"width": 1366, "height": 900}
NARROW_PHONE = {"width": 360, "height": 740}
MAX_BYTES = 250_000
# The create page at 1366 px, whole: since it took capacity, check-in, the clock plan and
# the variant (issues 27 and 28) it is about 330 KB; the docs show it as it is.
MAX_BYTES_LONG_FORM = 400_000


@pytest.fixture
def demo_data(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo", stdout=io.StringIO())


def test_screenshots_of_the_main_pages(browser, live_server, demo_data):
    folder = pictures_folder("pages")
    taken: list[Path] = []

    def shot(name, url, expect, viewport=LAPTOP, login=False, print_media=False, scroll_to=None):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            if login:
                page.goto("/accounts/login/")
                page.get_by_label("Username").fill("director")
                page.get_by_label("Password").fill("boxcars-demo")
                page.get_by_role("button", name="Log in").click()
                page.wait_for_url(f"{live_server.url}/")
            response = page.goto(url)
            assert response is not None and response.status == 200, url
            page.get_by_text(expect).first.wait_for()
            if print_media:
                page.emulate_media(media="print")
            if scroll_to:
                page.get_by_text(scroll_to).first.evaluate("e => e.scrollIntoView()")
                page.evaluate("window.scrollBy(0, -24)")
            path = folder / f"{name}.png"
            page.screenshot(path=str(path))
            taken.append(path)
        finally:
            context.close()

    bracket_first_seed = (
        Entry.objects.filter(tournament__slug=tournament_demo.BRACKET_SLUG).order_by("seed").first()
    )
    finished = Match.objects.filter(status=MatchStatus.FINISHED)
    sheet = (  # a sheet that shows a turned cube if the demo has one
        (finished.filter(games__cube__gt=1).distinct() or finished)
        .annotate(games_count=Count("games"))
        .order_by("-games_count", "pk")
        .first()
    )
    live = Pairing.objects.filter(
        tournament__slug=tournament_demo.SWISS_SLUG,
        status=PairingStatus.READY,
        match__isnull=False,
    ).select_related("match", "match__player1")[0]
    rated = (
        RatingChange.objects.filter(rating_list__club__slug="demo")
        .values("player")
        .annotate(n=Count("id"))
        .order_by("-n")[0]["player"]
    )
    rated_player = Player.objects.get(pk=rated)

    shot("home", "/", "Demo Backgammon Club")
    shot("club", "/clubs/demo/", "Friday Night Bracket")
    shot(
        "bracket",
        f"/tournaments/{tournament_demo.BRACKET_SLUG}/bracket/?player={bracket_first_seed.pk}",
        "Consolation",
        viewport=TALL_LAPTOP,
    )
    shot("standings", f"/tournaments/{tournament_demo.SWISS_SLUG}/standings/", "Buchholz")
    shot("swiss-rounds", f"/tournaments/{tournament_demo.SWISS_SLUG}/bracket/", "Round 3")
    shot("match-score-sheet", f"/matches/{sheet.pk}/", "Score sheet")
    token = score_links.make_token(live.match, live.match.player1)
    shot("phone-score-entry", f"/score/{token}/", "Record game 1", viewport=PHONE)
    shot("player", f"/players/{rated_player.slug}/", "Head to head")
    shot("rating-history", f"/players/{rated_player.slug}/ratings/", "Every change")
    shot("club-ratings", "/clubs/demo/ratings/", "FIBS formula")
    shot(
        "director-dashboard",
        f"/tournaments/{tournament_demo.SWISS_SLUG}/director/",
        "Pair the next round",
        login=True,
    )
    shot(
        "big-screen",
        f"/tournaments/{tournament_demo.BRACKET_SLUG}/screen/",
        "Playing now",
        viewport=BIG_SCREEN,
    )
    shot(
        "big-screen-phone",
        f"/tournaments/{tournament_demo.BRACKET_SLUG}/screen/",
        "Playing now",
        viewport=NARROW_PHONE,
    )
    shot(
        "director-dashboard-tables",
        f"/tournaments/{tournament_demo.BRACKET_SLUG}/director/",
        "Print every score card",
        login=True,
        scroll_to="Ready to play",
    )
    in_play = Pairing.objects.filter(
        tournament__slug=tournament_demo.BRACKET_SLUG,
        status=PairingStatus.READY,
        match__isnull=False,
    ).first()
    shot(
        "round-cards-print",
        f"/tournaments/{tournament_demo.BRACKET_SLUG}/rounds/{in_play.round_id}/cards/",
        "Print every score card",
        print_media=True,
        viewport=TALL_LAPTOP,
    )
    shot("match-card-print", f"/matches/{sheet.pk}/card/", "Match score card", print_media=True)
    try:
        from chouette import demo as chouette_demo
        from chouette.models import Session
    except ImportError:  # pragma: no cover - the chouette app is part of the project
        chouette_demo = None
    if chouette_demo is not None:
        session = Session.objects.get(label=chouette_demo.DEMO_LABEL)
        shot("chouette-sheet", session.get_absolute_url(), "Ledger", viewport=TALL_LAPTOP)

    for path in taken:
        limit = MAX_BYTES_LONG_FORM if path.name.startswith("new-event-") else MAX_BYTES
        assert path.stat().st_size < limit, f"{path.name} is {path.stat().st_size} bytes"


def test_screenshots_of_the_new_event_page(browser, live_server, club, director):
    """The new-event page as a director fills it in, at 360 and 1366 px: a single
    elimination with consolation, last chance and lengths per round (its preview
    opened), and a Swiss, each showing only its own format's fields. The laptop
    pictures show the whole page; the phone ones the part about the format."""
    folder = pictures_folder("pages")
    taken: list[Path] = []

    def snap(page, width: int, name: str, scroll_to: str) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        path = folder / f"{name}-{width}.png"
        if width > 400:  # the whole form, without the page's header and footer
            page.locator("#new-event").screenshot(path=str(path))
        else:  # the phone's screen, at the format's own fields
            page.locator("legend", has_text=scroll_to).evaluate("e => e.scrollIntoView()")
            page.evaluate("window.scrollBy(0, -12)")
            page.screenshot(path=str(path))
        taken.append(path)

    for viewport in (NARROW_PHONE, BIG_SCREEN):
        width = viewport["width"]
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(15_000)

        try:
            page.goto("/accounts/login/")
            page.get_by_label("Username").fill("director")
            page.get_by_label("Password").fill("pw-for-tests-1")
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(f"{live_server.url}/")
            page.goto(f"/tournaments/new/{club.slug}/")

            page.get_by_label("Name", exact=True).fill("Friday Night")
            page.get_by_label("Format").select_option("single_elimination")
            page.get_by_label("Consolation: losers of main rounds").fill("1, 2")
            page.get_by_label("Last chance: losers of consolation rounds").fill("1")
            page.get_by_label("Match length", exact=True).fill("3")
            for label, points in (("Semi-finals", 5), ("Final", 7)):
                page.get_by_label(f"Main draw, {label}", exact=True).fill(str(points))
            page.get_by_label("Players, for the preview").fill("24")
            page.get_by_role("button", name="Preview").click()
            page.get_by_text("The last chance takes the losers of consolation round 2.").wait_for()
            assert page.get_by_label("Swiss rounds", exact=True).is_hidden()
            snap(page, width, "new-event-elimination", "Consolation and last chance")
            if width < 400:
                snap(page, width, "new-event-preview", "Preview")

            page.get_by_label("Format").select_option("swiss")
            page.get_by_label("Swiss rounds", exact=True).fill("4")
            page.get_by_label("Tie-break 1").select_option("match_wins")
            page.get_by_label("Tie-break 2").select_option("buchholz")
            page.get_by_label("Swiss, Last round").fill("7")
            page.get_by_role("button", name="Preview").click()
            page.locator("#preview").get_by_text("Round 4").wait_for()
            assert page.get_by_label("Consolation: losers of main rounds").is_hidden()
            snap(page, width, "new-event-swiss", "Rounds")
        finally:
            context.close()
    for path in taken:
        limit = MAX_BYTES_LONG_FORM if path.name.startswith("new-event-") else MAX_BYTES
        assert path.stat().st_size < limit, f"{path.name} is {path.stat().st_size} bytes"
