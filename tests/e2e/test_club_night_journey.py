"""Issue 13's club night, run entirely from the pages: sixteen players in a knockout
with a progressive consolation.

The director creates the event on the club's new-event page (rounds 1-2 at 3 points,
the semi-finals at 5, the final at 7, as the preview shows), pastes fourteen names
and adds two walk-ins on the dashboard, seeds and starts, opens round 1's score cards
and score links. The players enter round 1 from 360-pixel phones by their score
links: final scores, one match game by game through the Crawford game, one final
score typed backwards then undone and entered right; one result disputed by the
opponent and corrected by the director, who resolves the dispute "I corrected it";
one match awarded by forfeit from the dashboard (asked first). The rest of the main
draw and the consolation go in as final scores from the entry page (each match to its
round's length: the semi-finals 5 points, the final 7), then the event is
finished (asked first) and the standings show the places. No admin page, no API call.
"""

from __future__ import annotations

import re

import pytest

from tests.factories import member
from tournaments.models import Tournament

from .conftest import LAPTOP

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"width": 360, "height": 740}
MEMBERS = ["Ann Smith", "Ben Okafor", "Cleo Park", "Dev Patel"]
PASTED = [
    "ann smith",
    "Ben  Okafor",
    "CLEO PARK",
    "Dev Patel",
    *(f"Guest {n}" for n in ("Alpha", "Bravo", "Charlie", "Delta", "Echo")),
    *(f"Visitor {n}" for n in ("One", "Two", "Three", "Four", "Five")),
]
WALK_INS = ["Walker One", "Walker Two"]
LENGTH = 3
#: Per-round lengths set on the create page: rounds 1-2 at 3 points, then 5 and 7.
MAIN_LENGTHS = {"Round 1": 3, "Round 2": 3, "Semi-finals": 5, "Final": 7}
#: The length each main round's matches must have (16 players: 4 rounds).
MAIN_ROUND_LENGTH = {1: 3, 2: 3, 3: 5, 4: 7}


def _slips(page) -> list[dict[str, str | None]]:
    """Round 1's matches as the score-links page lists them: the two players and each
    player's private link."""
    found = []
    for section in page.locator("section.link-match").all():
        links = {}
        for slip in section.locator("article.slip").all():
            name = slip.locator(".slip-player").inner_text().strip()
            links[name] = slip.locator(".slip-url a").get_attribute("href")
        found.append(links)
    return found


def _path(url: str) -> str:
    return "/" + url.split("://", 1)[-1].split("/", 1)[1]


def _final_by_link(phone, link: str, mine: int, theirs: int) -> None:
    phone.goto(_path(link))
    phone.get_by_role("heading", name="Or the final score only").wait_for()
    phone.get_by_role("spinbutton", name=re.compile(r"^You \(")).fill(str(mine))
    phone.get_by_role("spinbutton", name=re.compile(r"^Opponent \(")).fill(str(theirs))
    phone.get_by_role("button", name="Record final score").click()
    phone.get_by_text("Final score recorded.").wait_for()


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width}px wide on {page.url}"


def test_a_club_night_of_sixteen_run_from_the_pages(page_for, login, club, director):
    for name in MEMBERS:
        member(club, display_name=name)
    desk = page_for(LAPTOP, name="club-night-director")
    login(desk, "director")

    # The event, from the club page.
    desk.goto(f"/clubs/{club.slug}/")
    desk.get_by_role("link", name="New tournament").click()
    desk.get_by_label("Name", exact=True).fill("Club Night")
    desk.get_by_label("Format").select_option("single_elimination")
    # Only this format's groups show: no Swiss rounds, no round-robin groups.
    assert desk.get_by_label("Swiss rounds", exact=True).is_hidden()
    assert desk.get_by_label("Groups", exact=True).is_hidden()
    desk.get_by_label("Consolation: losers of main rounds").fill("1, 2")
    desk.get_by_label("Match length", exact=True).fill(str(LENGTH))
    for label, points in MAIN_LENGTHS.items():
        desk.get_by_label(f"Main draw, {label}", exact=True).fill(str(points))
    # The preview says what the main draw will play, round by round.
    desk.get_by_label("Players, for the preview").fill("16")
    desk.get_by_role("button", name="Preview").click()
    desk.get_by_role("heading", name="With 16 players").wait_for()
    shown = [
        (row.locator("td").nth(0).inner_text().strip(), int(row.locator("td").nth(2).inner_text()))
        for row in desk.locator("#preview table.preview-rounds tbody tr").all()
    ]
    main_titles = ["Round 1", "Quarter-finals", "Semi-finals", "Final"]  # 16 players
    assert shown[:4] == list(zip(main_titles, MAIN_LENGTHS.values(), strict=True))
    desk.get_by_role("button", name="Create").click()
    desk.wait_for_url(re.compile(r"/tournaments/club-night/director/$"))
    dashboard = "/tournaments/club-night/director/"

    # Fourteen pasted names (four of them members, typed carelessly), two walk-ins.
    desk.get_by_role("button", name="Open registration").click()
    desk.get_by_label("Names, one per line").fill("\n".join(PASTED))
    desk.get_by_role("button", name="Preview").click()
    desk.get_by_role("heading", name="Check the list").wait_for()
    assert desk.get_by_text("4 to enter, 10 new to the club").is_visible()
    desk.get_by_role("button", name="Register 14 players").click()
    desk.get_by_text("Entered 14 players. 10 of them are new to the club.").wait_for()
    for name in WALK_INS:
        desk.locator("#walk-in summary").click()
        desk.get_by_label("Name", exact=True).fill(name)
        desk.get_by_role("button", name="Add and enter").click()
        desk.get_by_text(f"{name} is entered.").wait_for()
    assert desk.locator(".entry-list li > span").count() == 16

    # Seed, start.
    desk.get_by_label("Seed").select_option("random")
    desk.get_by_role("button", name="Seed", exact=True).click()
    desk.get_by_text("16 entries seeded.").wait_for()
    desk.get_by_role("button", name=re.compile("^Start")).click()
    desk.get_by_role("heading", name="Ready to play").wait_for()
    assert desk.get_by_role("link", name=re.compile("^Enter the score of")).count() == 8

    # Round 1's score cards (one per match) and score links (one slip per player).
    desk.get_by_role("link", name=re.compile("^Print every score card of")).click()
    desk.get_by_role("heading", name="Club Night: score cards").wait_for()
    assert desk.get_by_text(f"{LENGTH} points · 8 matches").is_visible()
    assert desk.locator("article.score-card").count() == 8
    desk.goto(dashboard)
    desk.get_by_role("link", name=re.compile("^Score links for")).click()
    desk.get_by_role("heading", name=re.compile("^Score links")).wait_for()
    matches = _slips(desk)
    assert len(matches) == 8
    assert all(len(links) == 2 for links in matches)
    players = sorted(name for links in matches for name in links)
    assert players == sorted([*MEMBERS, *PASTED[4:], *WALK_INS])

    def pair(index: int) -> tuple[str, str, str, str]:
        (one, one_link), (two, two_link) = matches[index].items()
        return one, one_link, two, two_link

    # 1. A dispute, first (no other result yet, so nothing has moved on from it): the
    # entry says 3-0 for the wrong player; the opponent disputes from their phone...
    one, one_link, two, two_link = pair(0)
    phone = page_for(PHONE_360, name="club-night-dispute-phone")
    _final_by_link(phone, one_link, LENGTH, 0)
    opponent = page_for(PHONE_360, name="club-night-dispute-opponent")
    opponent.goto(_path(two_link))
    opponent.get_by_text("is it right?").wait_for()
    opponent.get_by_label("What is wrong with the entry?").fill(
        f"Backwards: I won {LENGTH}-0, not {one}."
    )
    opponent.get_by_role("button", name="Dispute").click()
    opponent.get_by_text("Disputed: the club's directors will rule.").wait_for()
    _fits(opponent)
    # ... and the director swaps the score on the match page, then rules.
    desk.goto(dashboard)
    disputes = desk.locator("#open-disputes")
    disputes.get_by_role("heading", name="Open disputes (1)").wait_for()
    disputes.get_by_role("link", name=re.compile("^Resolve the dispute on")).click()
    desk.get_by_role("button", name=re.compile(r"^Swap to \d–\d…$")).click()
    desk.get_by_role("heading", name=re.compile("^Swap the final score")).wait_for()
    desk.get_by_role("button", name=re.compile("^Yes, make it")).click()
    desk.get_by_text("Final score now").wait_for()
    block = desk.locator("#dispute")
    block.get_by_role("radio", name="I corrected it").check()
    block.get_by_label("Note to the players").fill("Swapped: the scoresheet shows it backwards.")
    block.get_by_role("button", name="Resolve the dispute").click()
    desk.get_by_text("Dispute resolved: result corrected.").wait_for()
    assert desk.locator(".scoreboard .won").inner_text().strip() == two
    opponent.goto(_path(two_link))
    ruling = opponent.locator("#dispute")
    ruling.get_by_text("Result corrected").wait_for()
    assert "the scoresheet shows it backwards" in ruling.inner_text()
    _fits(opponent)

    # 2. Game by game on a phone, through the Crawford game.
    one, one_link, two, two_link = pair(1)
    phone.goto(_path(one_link))

    def choose(question: str, answer: str) -> None:
        phone.get_by_role("group", name=question).get_by_role(
            "radio", name=answer, exact=True
        ).check()

    choose("Who won?", f"You ({one})")
    choose("Won by", "Gammon")
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Game 1 recorded.").wait_for()
    assert phone.get_by_text("Crawford game: no doubling").is_visible()
    choose("Who won?", f"Opponent ({two})")
    choose("Won by", "Single")
    phone.get_by_role("button", name="Record game 2").click()
    phone.get_by_text("Game 2 recorded.").wait_for()
    assert not phone.get_by_text("Crawford game: no doubling").is_visible()
    choose("Who won?", f"You ({one})")
    choose("Won by", "Single")
    phone.get_by_role("button", name="Record game 3").click()
    phone.get_by_text("Game 3 recorded.").wait_for()
    assert phone.locator(".scoreboard .won").inner_text().strip() == one
    # The score sheet marks game 2 as the Crawford game and game 3 as post-Crawford.
    crawford = phone.locator("table.sheet tbody tr.crawford")
    assert crawford.count() == 1
    assert crawford.locator("td").first.inner_text().startswith("2")
    assert crawford.locator(".tag:visible", has_text=re.compile("^Crawford$")).count() == 1
    last = phone.locator("table.sheet tbody tr").nth(2)
    assert last.locator(".tag:visible", has_text="post-Crawford").count() == 1
    _fits(phone)

    # 3. A final score typed backwards, undone, entered right.
    one, one_link, two, two_link = pair(2)
    _final_by_link(phone, one_link, 1, LENGTH)
    assert phone.locator(".scoreboard .won").inner_text().strip() == two
    phone.get_by_role("button", name=f"Undo final score: you 1, opponent {LENGTH}").click()
    phone.get_by_text("Final score taken back.").wait_for()
    phone.get_by_role("spinbutton", name=f"You ({one})").fill(str(LENGTH))
    phone.get_by_role("spinbutton", name=f"Opponent ({two})").fill("1")
    phone.get_by_role("button", name="Record final score").click()
    phone.get_by_text("Final score recorded.").wait_for()
    assert phone.locator(".scoreboard .won").inner_text().strip() == one

    # 4. A forfeit from the dashboard, asked first.
    one, _, two, _ = pair(3)
    desk.goto(dashboard)
    row = desk.locator("table.ready tr", has_text=f"{one} v {two}")
    row.get_by_label("Forfeit winner").select_option(label=one)
    row.get_by_role("button", name="Award by forfeit").click()
    desk.get_by_role("heading", name=re.compile(f"to {re.escape(one)} by forfeit")).wait_for()
    desk.get_by_role("button", name=f"Yes, award it to {one}").click()
    desk.get_by_text(re.compile(f"^{re.escape(one)} wins .+ by forfeit\\.$")).wait_for()
    assert desk.locator("table.ready tr", has_text=f"{one} v {two}").count() == 0

    # 5. The other four: final scores by score link from phones.
    for index in range(4, 8):
        one, one_link, two, _ = pair(index)
        _final_by_link(phone, one_link, LENGTH, 1)
        assert phone.locator(".scoreboard .won").inner_text().strip() == one
        _fits(phone)

    # The rest of the main draw and the consolation: final scores on the entry page,
    # each to its match's length (the semi-finals 5 points, the final 7).
    played = 0
    lengths_seen: dict[int, int] = {}
    while True:
        desk.goto(dashboard)
        link = desk.get_by_role("link", name=re.compile("^Enter the score of"))
        if link.count() == 0:
            break
        link.first.click()
        desk.get_by_role("heading", name="Or the final score only").wait_for()
        head = desk.locator(".match-head p.muted").inner_text()
        length = int(re.search(r"(\d+)-point match", head).group(1))
        main_round = re.search(r"Main round (\d+)", head)
        if main_round:  # the per-round lengths set on the create page
            lengths_seen[int(main_round.group(1))] = length
        first = desk.locator(".scoreboard .who").first.inner_text().strip()
        for name in (n.strip() for n in desk.locator(".scoreboard .who").all_inner_texts()):
            desk.get_by_role("spinbutton", name=name, exact=True).fill(
                str(length) if name == first else "0"
            )
        desk.get_by_role("button", name="Record final score").click()
        desk.get_by_text("Final score recorded.").wait_for()
        played += 1
        assert played < 30, "the event never ran out of matches"
    assert desk.get_by_text("Nothing ready.").is_visible()
    assert lengths_seen == {r: MAIN_ROUND_LENGTH[r] for r in (2, 3, 4)}

    # Finish, asked first.
    desk.get_by_role("button", name="Finish the event").click()
    assert Tournament.objects.get(slug="club-night").status == "running"
    desk.get_by_role("button", name="Yes, finish the event").click()
    desk.get_by_text(re.compile(r" is finished: .+ wins\.$")).wait_for()
    assert Tournament.objects.get(slug="club-night").status == "finished"

    # The standings give the places; the overview names the winner.
    desk.goto("/tournaments/club-night/standings/")
    winner = desk.locator("p.champion").inner_text().removeprefix("Winner: ").strip()
    rows = desk.locator("table.standings tbody tr")
    assert rows.count() == 16
    assert rows.nth(0).locator("td.place").inner_text().strip() == "1"
    assert rows.nth(0).locator("td.name").inner_text().strip() == winner
    assert rows.nth(1).locator("td.place").inner_text().strip() == "2"
    # the no-show is out (no consolation for them): their consolation opponent went
    # through by walkover, so two players "won by forfeit" and one "forfeited"
    tags = desk.locator("table.standings .tag").all_inner_texts()
    assert tags.count("forfeited") == 1 and tags.count("won by forfeit") == 2, tags
    desk.goto("/tournaments/club-night/")
    assert desk.locator("p.champion").inner_text().strip() == f"Winner: {winner}"
