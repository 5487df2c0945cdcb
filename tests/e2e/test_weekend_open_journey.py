"""A 64-player weekend open from an empty database, pages only (issue 27's journey).

Ann signs in, creates the club and invites Bob as co-director; Bob sets his password in
a second browser (a 360 px phone) and works beside her: while Ann bulk-registers 62
names, Bob takes the walk-ins, the last two of whom go on the waitlist of the 64-place
field. Players check in through their check-in links (their phones, scripted as HTTP
requests), Bob ticks two in by hand, two never come; Ann drops the no-shows and the
waitlist moves up. The clocks are required from the quarter-finals. Ann seeds, starts,
calls every round; one round-1 match is awarded by forfeit; six matches are entered by
hand on 360 px pages (three by players through their score links, three by Bob on the
match's entry page) and the rest through the score links by script, each link posted
to as a player's phone would (the winner enters, the loser confirms). A quarter-final
without a clock is refused; the players start the clock from their link (as the clock
page's script does) and the result goes in. Ann finishes the event and pays the prizes
from the money page. Last, a visitor who knows only the site's address finds the
winner from the home page.

The database is read only to assert; every write goes through a page or a score link.
Slow (minutes): ``make test`` runs it, CI does not.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.core import mail

from games.models import Match, MatchClock, MatchStatus
from money.selectors import money_view
from tournaments.models import Entry, EntryStatus, Pairing, Tournament, TournamentStatus

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eva", "Finn", "Gia", "Hugo"]
LAST = ["Abbott", "Berg", "Costa", "Dahl", "Engel", "Frost", "Grant", "Holm"]
NAMES = [f"{first} {last}" for last in LAST for first in FIRST][:62]
WALK_INS = ["Walt Inman", "Wilma Irving"]
WAITLIST = ["Lena Late", "Lars Later"]
NO_SHOWS = ["Cleo Berg", "Hugo Frost"]
BOB_TICKS = ["Ada Abbott", "Ben Abbott"]
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


def _csrf(html: str) -> str:
    found = CSRF.search(html)
    assert found, "the page has no form"
    return found[1]


def _post_form(api, url: str, data: dict[str, str]):
    """What a phone does with a form: load the page, post the form with its token."""
    page = api.get(url)
    assert page.ok, (url, page.status)
    return api.post(url, form={"csrfmiddlewaretoken": _csrf(page.text()), **data})


def _round_slips(desk, slug: str, round_id: int) -> list[tuple[Slip, Slip]]:
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


def _park(*pages) -> None:
    """Leave the live pages while the phones post: the dashboards refresh themselves on
    every change, and SQLite's shared in-memory test database locks a table for the
    whole of a write (PostgreSQL does not), so a refresh racing a post would fail."""
    for page in pages:
        page.goto("about:blank")


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def _enter_by_link(api, winner: Slip, loser: Slip, length: int, *, clock: bool) -> None:
    """The winner's phone enters the final score, the loser's confirms it; in a round
    that requires a clock the players start one from their link first (the clock page's
    script posts to the clock API with the link's token)."""
    if clock:  # what static/js/clock.js does on the link's clock page
        page = api.get(_path(winner.url) + "clock/").text()
        clock_api, token = CLOCK_API.search(page)[1], CLOCK_LINK.search(page)[1]
        started = api.post(
            clock_api,
            data={"preset": "usbgf"},
            headers={"X-Score-Link": token, "Idempotency-Key": f"start-{token[-12:]}"},
        )
        assert started.status == 201, started.text()
    done = _post_form(
        api,
        _path(winner.url),
        {"action": "final", "you": str(length), "opponent": "0"},
    )
    assert done.ok and "Final score recorded." in done.text(), done.text()[-2000:]
    confirmed = _post_form(api, _path(loser.url), {"action": "confirm"})
    assert confirmed.ok, confirmed.status


def _match_of_link(url: str) -> int:
    from games import score_links

    parsed = score_links.read_token(url.rstrip("/").rsplit("/", 1)[1])
    assert parsed is not None
    return parsed[0]


def _round_ids(event: Tournament) -> list[int]:
    return list(
        event.stages.get(kind="main").rounds.order_by("number").values_list("pk", flat=True)
    )


def _call(desk, slug: str, label: str) -> None:
    desk.goto(f"/tournaments/{slug}/director/")
    desk.locator("#calls").get_by_role("button", name=f"Call {label}").click()
    desk.get_by_text(
        re.compile(r"Round \d+ called: 0 players emailed, \d+ without email")
    ).wait_for()


def _enter_on_phone(phone, url: str, length: int, picture: str = "") -> None:
    """A player's hand entry on a 360 px phone: the form fits and the button is seen."""
    phone.goto(url)
    if picture:  # a look at the phone's page
        phone.screenshot(path=str(pictures_folder("weekend-open") / picture), full_page=True)
    final = phone.locator("form.final")
    final.locator("input[name=you]").fill(str(length))
    final.locator("input[name=opponent]").fill("0")
    button = final.get_by_role("button", name="Record final score")
    box = button.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    button.click()
    phone.get_by_text("Final score recorded.").wait_for()


def test_a_64_player_weekend_open_from_the_pages(browser, page_for, login, make_user, live_server):
    started = time.monotonic()
    make_user("ann")  # a new account: her first sign-in, an empty database else
    desk = page_for(LAPTOP_1366, "open-ann")
    login(desk, "ann")

    # --- the club and its co-director -------------------------------------------------
    desk.get_by_role("link", name="Create a club").click()
    desk.get_by_label("Club name").fill("Harbour Backgammon")
    desk.get_by_role("button", name="Create the club").click()
    desk.get_by_text("Harbour Backgammon is created and you are its director.").wait_for()
    desk.get_by_label("E-mail address", exact=True).fill("bob@example.org")
    desk.get_by_role("button", name="Invite a co-director").click()
    desk.get_by_text("bob@example.org is a director of Harbour Backgammon").wait_for()
    link = re.search(r"https?://\S+/accounts/set-password/\S+/", str(mail.outbox[-1].body))[0]

    bob = page_for(PHONE_360, "open-bob")
    bob.goto(link)
    bob.get_by_label("New password", exact=True).fill("Bob-directs-9")
    bob.get_by_label("New password confirmation").fill("Bob-directs-9")
    bob.get_by_role("button", name="Set my password").click()
    bob.get_by_text("you are signed in as bob@example.org").wait_for()

    # --- the event: 64 places, check-in, clocks required from the quarter-finals --------
    desk.goto("/clubs/harbour-backgammon/")
    desk.get_by_role("link", name="New tournament").first.click()
    desk.get_by_label("Name", exact=True).fill("Harbour Open")
    desk.get_by_label("Capacity").fill("64")
    desk.get_by_label("Players check in before the draw").check()
    desk.get_by_label("Per round: stage").select_option("main")
    desk.get_by_label("From round").select_option("-3")
    desk.get_by_label("Policy from that round on").select_option("required")
    desk.get_by_role("button", name="Create").click()
    desk.get_by_text("Harbour Open is created (a draft): capacity 64").wait_for()
    event = Tournament.objects.get(name="Harbour Open")
    slug = event.slug
    assert (event.capacity, event.check_in_required) == (64, True)
    desk.goto(f"/tournaments/{slug}/director/")
    desk.get_by_role("button", name="Open registration").click()
    desk.get_by_text("Registration for Harbour Open is open.").wait_for()

    # the prize pool before anyone pays: 10.00 a player, 50/25/12.5/12.5, published
    desk.goto(f"/tournaments/{slug}/director/money/")
    pool = desk.locator("#pool")
    pool.get_by_label(re.compile(r"^Entry fee")).fill("10.00")
    pool.get_by_label("Payout table").select_option(label="50 / 25 / 12.5 / 12.5")
    pool.get_by_role("button", name="Save the pool").click()
    desk.get_by_text("Saved.").wait_for()

    # --- registration: Ann's list and Bob's walk-ins at the same time --------------------
    desk.goto(f"/tournaments/{slug}/director/register-players/")
    desk.get_by_label("Names, one per line").fill("\n".join(NAMES))
    desk.get_by_role("button", name="Preview").click()
    bob.goto(f"/tournaments/{slug}/director/")
    for name in WALK_INS:  # Bob at the door while Ann reads her preview
        bob.locator("#walk-in summary").click()
        bob.locator("#walk-in").get_by_label("Name", exact=True).fill(name)
        bob.get_by_role("button", name="Add and enter").click()
        bob.get_by_text(f"{name} is entered").wait_for()
    desk.get_by_role("button", name="Register 62 players").click()
    desk.get_by_text("Entered 62 players. 62 of them are new to the club.").wait_for()
    for name in WAITLIST:  # the field is full: these two wait
        bob.locator("#walk-in summary").click()
        bob.locator("#walk-in").get_by_label("Name", exact=True).fill(name)
        bob.get_by_role("button", name="Add and enter").click()
        bob.get_by_text(f"{name} is on the waitlist").wait_for()
    entries = Entry.objects.filter(tournament=event)
    assert entries.filter(status=EntryStatus.ACTIVE).count() == 64
    assert set(
        entries.filter(status=EntryStatus.WAITLISTED).values_list("player__display_name", flat=True)
    ) == set(WAITLIST)
    desk.goto(f"/tournaments/{slug}/director/")
    desk.get_by_text("2 players wait for a place. The field holds 64.").wait_for()

    # --- check-in: phones by their links, Bob's ticks, two no-shows ----------------------
    rows = desk.locator("table.check-in-list tbody tr").evaluate_all(
        """rows => rows.map(r => [r.cells[0].textContent.trim(),
                                   r.querySelector('a').getAttribute('href')])"""
    )
    assert len(rows) == 66
    phones = browser.new_context(base_url=live_server.url).request
    _park(desk, bob)
    for name, href in rows:
        if name in NO_SHOWS or name in BOB_TICKS:
            continue
        answer = _post_form(phones, href, {})
        assert "You are checked in." in answer.text(), name
    bob.goto(f"/tournaments/{slug}/director/")
    for name in BOB_TICKS:
        bob.get_by_role("button", name=f"Check in {name}", exact=True).click()
        bob.get_by_text(f"{name} is checked in.").wait_for()
    desk.goto(f"/tournaments/{slug}/director/")
    desk.get_by_role("button", name="Drop 2 no-shows").click()
    desk.get_by_text(f"Not checked in: {', '.join(sorted(NO_SHOWS))}").wait_for()
    desk.get_by_role("button", name="Yes, drop them").click()
    desk.get_by_text(
        f"2 no-show(s) dropped: {', '.join(sorted(NO_SHOWS))}. "
        f"Moved up from the waitlist: {', '.join(WAITLIST)}."
    ).wait_for()
    active = entries.filter(status=EntryStatus.ACTIVE)
    assert active.count() == 64 and active.filter(checked_in_at__isnull=True).count() == 0
    assert set(WAITLIST) <= set(active.values_list("player__display_name", flat=True))
    assert set(
        entries.filter(status=EntryStatus.WITHDRAWN).values_list("player__display_name", flat=True)
    ) == set(NO_SHOWS)

    # --- the draw ------------------------------------------------------------------------
    desk.get_by_label("Seed").select_option("random")
    desk.get_by_role("button", name="Seed").click()
    desk.get_by_text("64 entries seeded.").wait_for()
    desk.get_by_role("button", name="Start: draw the bracket / pair round 1").click()
    desk.get_by_text("Harbour Open has started: 32 matches to play.").wait_for()
    event.refresh_from_db()
    assert event.status == TournamentStatus.RUNNING
    rounds = _round_ids(event)
    assert len(rounds) == 6  # 32, 16, 8, quarter-finals, semi-finals, final

    # --- round 1: a forfeit, three players' hand entries, three of Bob's, the rest ------
    _call(desk, slug, "Main, round 1")
    slips = _round_slips(desk, slug, rounds[0])
    assert len(slips) == 32
    first, *others = slips
    desk.goto(f"/tournaments/{slug}/director/")
    ready_row = desk.locator("table.ready tbody tr").filter(has_text=first[0].player).first
    ready_row.get_by_label("Forfeit winner").select_option(label=first[1].player)
    ready_row.get_by_role("button", name="Award by forfeit").click()
    desk.get_by_role("button", name=f"Yes, award it to {first[1].player}").click()
    desk.get_by_text(re.compile(rf"{first[1].player} wins .* by forfeit")).wait_for()
    forfeited = Pairing.objects.get(tournament=event, match__pk=_match_of_link(first[0].url))
    assert forfeited.match.status == MatchStatus.FORFEIT
    assert forfeited.match.winner.display_name == first[1].player

    length = others[0][0].length
    _park(desk)
    for n, (winner, loser) in enumerate(others[:3]):  # three players at 360 px, by links
        phone = page_for(PHONE_360, f"open-phone-{winner.player.replace(' ', '-')}")
        _enter_on_phone(phone, winner.url, length, "" if n else "open-entry-360.png")
        phone.goto(loser.url)
        phone.get_by_role("button", name="Yes, confirm").click()
        phone.get_by_text("Confirmed. Thank you!").wait_for()
        _park(phone)
    for winner, loser in others[3:6]:  # Bob, from the dashboard, on his phone
        bob.goto(f"/tournaments/{slug}/director/")
        bob.get_by_role("link", name=f"Enter the score of {winner.player} v {loser.player}").or_(
            bob.get_by_role("link", name=f"Enter the score of {loser.player} v {winner.player}")
        ).click()
        final = bob.locator("form.final")
        final.get_by_label(winner.player, exact=True).fill(str(length))
        final.get_by_label(loser.player, exact=True).fill("0")
        button = final.get_by_role("button", name="Record final score")
        box = button.bounding_box()
        assert box and box["x"] + box["width"] <= 360, box  # fits his phone
        button.click()
        bob.get_by_text("Final score recorded.").wait_for()
    _park(desk, bob)
    for winner, loser in others[6:]:
        _enter_by_link(phones, winner, loser, length, clock=False)
    assert Pairing.objects.filter(round_id=rounds[0], winner__isnull=False).count() == 32

    # --- rounds 2 and 3 by links; from the quarter-finals a clock is required ------------
    refused = False
    for index in range(1, 6):
        _call(desk, slug, f"Main, round {index + 1}")
        slips = _round_slips(desk, slug, rounds[index])
        assert len(slips) == 32 >> index, (index, len(slips))
        length = slips[0][0].length
        clock = index >= 3
        _park(desk, bob)
        if clock and not refused:  # a quarter-final's phone without a clock is refused
            winner = slips[0][0]
            answer = _post_form(
                phones,
                _path(winner.url),
                {"action": "final", "you": str(length), "opponent": "0"},
            )
            assert answer.status == 400
            assert "This round requires a clock" in answer.text()
            assert "cannot be entered by a player" in answer.text()
            assert Match.objects.get(pk=_match_of_link(winner.url)).status != (MatchStatus.FINISHED)
            refused = True
        for winner, loser in slips:
            _enter_by_link(phones, winner, loser, length, clock=clock)
    assert refused
    assert MatchClock.objects.filter(match__tournament_pairing__tournament=event).count() == 7

    # --- the end: finish, places, prizes paid ------------------------------------------
    final_pairing = Pairing.objects.get(round_id=rounds[5])
    champion = final_pairing.winner.player.display_name
    final_loser = (
        final_pairing.entry2
        if final_pairing.winner == final_pairing.entry1
        else final_pairing.entry1
    )
    runner_up = final_loser.player.display_name
    desk.goto(f"/tournaments/{slug}/director/")
    desk.get_by_role("button", name="Finish the event").click()
    desk.get_by_role("button", name="Yes, finish the event").click()
    desk.get_by_text(f"Harbour Open is finished: {champion} wins").wait_for()
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED

    # 64 × 10.00 = 640.00: 320 / 160 / 80 / 80; each prize-winner still owes their fee
    view = money_view(event)
    prizes = {p.name: p.net for p in view.people if p.player is not None and p.net > 0}
    assert prizes[champion] == 31000 and prizes[runner_up] == 15000
    assert sorted(prizes.values()) == [7000, 7000, 15000, 31000]
    desk.goto(f"/tournaments/{slug}/director/money/")
    for name, cents in prizes.items():
        amount = f"{Decimal(cents) / 100:.2f}"
        desk.get_by_role("button", name=f"{name} was paid out {amount} cash").click()
        desk.get_by_text(f"{amount} paid out to {name}").wait_for()
    view = money_view(event)
    assert all(p.balance == 0 for p in view.people if p.name in prizes)
    desk.locator("#payment").screenshot(
        path=str(pictures_folder("weekend-open") / "open-prizes-paid-1366.png")
    )

    # --- a visitor who knows only the address ---------------------------------------------
    visitor = page_for(LAPTOP_1366, "open-visitor")
    visitor.goto("/")
    visitor.get_by_role("link", name="Events").first.click()
    visitor.get_by_role("link", name="Harbour Open").click()
    visitor.get_by_text(f"Winner: {champion}").wait_for()
    assert visitor.url.endswith(f"/tournaments/{slug}/")
    phone = page_for(PHONE_360, "open-visitor-phone")
    phone.goto("/")
    phone.get_by_role("link", name="Events").first.click()
    phone.get_by_role("link", name="Harbour Open").click()
    phone.get_by_text(f"Winner: {champion}").wait_for()
    print(f"weekend open journey: {time.monotonic() - started:.1f} s")
