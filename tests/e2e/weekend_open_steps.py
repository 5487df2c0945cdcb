"""The second pass of the weekend open (issue 41): its steps, each what a director's or
a phone's pages do, each asserting what the issue found broken. Used by
``test_weekend_open_journey.py``; kept here to keep that module short."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from decimal import Decimal

from games.models import Game, Match, MatchStatus
from money.models import Payment
from tournaments.models import Tournament, TournamentStatus

from .conftest import PHONE_360, pictures_folder
from .score_slips import Slip, game_by_link, park, post_form
from .test_club_data_journey import import_as
from .test_german_event_pages import keeps_its_layout_in_german
from .test_offline_journey import choose, controlled


def german_big_screen(page_for, live_server, slug: str) -> None:
    """The room's screen in German at 1366 and 1920 px: its body class is ``screen``
    (not translated), so its styles apply (no site header, big type, the grid)."""
    for width, height in ((1366, 900), (1920, 1080)):
        screen = page_for({"width": width, "height": height}, f"open-screen-de-{width}")
        screen.context.add_cookies(
            [{"name": "django_language", "value": "de", "url": live_server.url}]
        )
        screen.goto(f"/tournaments/{slug}/screen/")
        keeps_its_layout_in_german(screen)
        screen.screenshot(path=str(pictures_folder("weekend-open") / f"open-screen-de-{width}.png"))
        park(screen)  # a live page: it would refresh on every result


def offline_conflict_keeps_later_games(page_for, phones, mine: Slip, theirs: Slip) -> None:
    """Mine's phone queues three games offline; their phone records game 1 its way
    meanwhile. Back online the conflict is said in words; "keep theirs" (the main
    button) keeps the server's game 1, and, the network gone again as she chooses,
    games 2 and 3 are offered again re-based on it, then sent when it returns. Their
    phone then wins the match game by game and mine confirms."""
    match = Match.objects.get(pk=mine.match_id)
    ids = {p.display_name: p.pk for p in (match.player1, match.player2)}
    me, them = ids[mine.player], ids[theirs.player]

    def score(mine_points: int, their_points: int) -> str:  # as the match reads: 1 v 2
        one, two = (mine_points, their_points)
        if me != match.player1_id:
            one, two = two, one
        return f"{one}–{two}"

    phone = page_for(PHONE_360, "open-offline-phone")
    phone.goto(mine.path)
    controlled(phone)  # the worker keeps the score link's page for offline
    phone.context.set_offline(True)
    for number, who in ((1, "You"), (2, "You"), (3, "Opponent")):
        name = mine.player if who == "You" else theirs.player
        choose(phone, "Who won?", f"{who} ({name})")
        phone.get_by_role("button", name=f"Record game {number}").click()
        phone.get_by_text(f"Game {number}: {name} wins 1 point (single).").wait_for()
    assert phone.locator("[data-status=waiting]").count() == 3
    game_by_link(phones, theirs, them)  # their phone, online: game 1 theirs

    phone.context.set_offline(False)
    phone.get_by_text("Game 1 was recorded differently while you were offline.").wait_for()
    keep = phone.locator("#offline-queue").get_by_role("button", name="Keep theirs")
    assert "primary" in (keep.get_attribute("class") or "").split()
    phone.context.set_offline(True)  # the network drops again as she chooses
    keep.click()
    rebased = "re-based on the server's games: game %d from %s"
    phone.get_by_text(rebased % (2, score(0, 1))).wait_for()
    assert phone.get_by_text(rebased % (3, score(1, 1))).is_visible()
    assert phone.locator("[data-status=refused]").count() == 0
    assert phone.locator("[data-status=waiting]").count() == 2
    phone.locator("#offline-queue").screenshot(
        path=str(pictures_folder("weekend-open") / "open-offline-rebased-360.png")
    )
    phone.context.set_offline(False)
    phone.locator("[data-status=sent]").nth(1).wait_for()
    park(phone)  # a live page: it would refresh on every result
    games = [(g.number, g.winner_id) for g in Game.objects.filter(match=match).order_by("number")]
    assert games == [(1, them), (2, me), (3, them)]
    while game_by_link(phones, theirs, them).get("status") != MatchStatus.FINISHED:
        pass  # their phone plays the match out, a single game at a time
    assert post_form(phones, mine.path, {"action": "confirm"}).ok


def download(desk, link) -> bytes:
    with desk.expect_download() as caught:
        link.click()
    return open(caught.value.path(), "rb").read()


def federation_files_name_who_played(desk, slug: str, played: set[str], absent: list[str]) -> None:
    """The director's federation page and its WBGF and ABT files (no address needed to
    preview or download): the 32 who played, ranked and counted; the absent nowhere."""
    desk.goto(f"/tournaments/{slug}/director/")
    desk.get_by_role("link", name="Federation exports").click()
    wbgf, abt = desk.locator("#export-wbgf"), desk.locator("#export-abt")
    wbgf.get_by_text("32 entrants in finishing order.").wait_for()
    abt.get_by_text(re.compile(r"× attendance 32 = ")).wait_for()
    for section in (wbgf, abt):
        assert not [name for name in absent if name in section.inner_text()]
    rows = list(
        csv.DictReader(
            io.StringIO(
                download(desk, wbgf.get_by_role("link", name=re.compile("^Download"))).decode()
            )
        )
    )
    assert {r["player"] for r in rows} == played
    assert {r["players"] for r in rows} == {"32"}
    assert max(int(r["place"]) for r in rows) <= 32
    rows = list(
        csv.DictReader(
            io.StringIO(
                download(desk, abt.get_by_role("link", name=re.compile("^Download"))).decode()
            )
        )
    )
    assert rows and {r["attendance"] for r in rows} == {"32"}
    assert {r["player"] for r in rows} <= played


def archive_moves_the_club(desk, event: Tournament, tmp_path) -> None:
    """The club's archive, exported after the prizes were paid, imported as a new club:
    the import (a job: 202, then done) keeps the event and every payment, the prizes'
    negative ones included (refused once: issue 41, item 5)."""
    desk.goto(f"/clubs/{event.club.slug}/settings/")
    desk.get_by_role("link", name="Export and spreadsheets").click()
    desk.get_by_role("button", name="Export now").click()
    desk.get_by_text("The export has started.").wait_for()
    desk.get_by_text("Done").wait_for()
    archive = tmp_path / "harbour.json.gz"
    archive.write_bytes(download(desk, desk.get_by_role("link", name="Download")))
    assert json.loads(gzip.decompress(archive.read_bytes()))["counts"]["payments"] == 4
    desk.get_by_role("link", name="Import a club from an archive").click()
    import_as(desk, archive, "harbour-moved")
    moved = Tournament.objects.get(club__slug="harbour-moved", name=event.name)
    assert moved.status == TournamentStatus.FINISHED

    def amounts(tournament: Tournament) -> list[Decimal]:
        return sorted(
            Payment.objects.filter(event__tournament=tournament).values_list("amount", flat=True)
        )

    assert amounts(moved) == amounts(event) and len(amounts(event)) == 4
    assert all(amount < 0 for amount in amounts(moved))  # the prizes paid out
