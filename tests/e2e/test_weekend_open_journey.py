"""A weekend open from an empty database, pages only (issues 27 and 41's journeys).

The first pass (issue 27), a 32-player open: Ann signs in, creates the club and invites
Bob as co-director; Bob sets his password in a second browser (a 360 px phone) and works
beside her: while Ann bulk-registers 30 names, Bob takes the walk-ins, the last two of
whom go on the waitlist of the 32-place field. Players check in through their check-in
links (their phones, scripted as HTTP requests), Bob ticks two in by hand, two never
come; Ann drops the no-shows and the waitlist moves up. The clocks are required from the
quarter-finals. Ann seeds, starts, calls every round; one round-1 match is awarded by
forfeit; six matches are entered by hand on 360 px pages (three by players through their
score links, three by Bob on the match's entry page) and the rest through the score
links by script, each link posted to as a player's phone would (the winner enters, the
loser confirms). A quarter-final without a clock is refused; the players start the
clock from their link (as the clock page's script does) and the result goes in. Ann
finishes the event and pays the prizes from the money page. A visitor who knows only
the site's address finds the winner from the home page.

Its second pass (issue 41) on the same event: the German big screen at 1366 and 1920 px
keeps its layout (body class ``screen``); a round-2 phone queues three games offline,
the opponent records game 1 meanwhile, "keep theirs" is chosen and the two later games
are re-based and sent, not dropped; the WBGF and ABT files list the 32 who played, not
the two dropped no-shows; the club's archive, exported after the prizes were paid, is
imported as a new club with the event and its payments (the prizes' negative ones).

32 players, not the 64 of issue 27's weekend: the 64 added rounds and minutes, not
steps (a waitlist, no-shows, a forfeit, the clocks from the quarter-finals and the
prizes are all here at 32); the 64-player shapes have their own tests
(``test_big_screen.py``'s 64-player screen, ``bench``'s championship).

The other journey below: the consolation of issue 41 on PostgreSQL (real concurrency):
results of one stage posted at the same moment by phones in threads while the director
calls the next round; a consolation match made after its round's call gets its own.

The database is read only to assert; every write goes through a page or a score link.
Both run in CI (the first in the SQLite step, the second in the PostgreSQL one): the
first in about two minutes, the second in about one.
"""

from __future__ import annotations

import re
import threading
import time
from decimal import Decimal

import pytest
from django.core import mail

from core.models import Job
from games.models import Match, MatchClock, MatchStatus
from money.selectors import money_view
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    RoundCall,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors_calls import late_call_key, own_calls

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder
from .score_slips import (
    Slip,
    ThreadPhone,
    call,
    enter_by_link,
    park,
    post_form,
    round_slips,
)
from .weekend_open_steps import (
    archive_moves_the_club,
    federation_files_name_who_played,
    german_big_screen,
    offline_conflict_keeps_later_games,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eva", "Finn", "Gia", "Hugo"]
LAST = ["Abbott", "Berg", "Costa", "Dahl", "Engel", "Frost", "Grant", "Holm"]
NAMES = [f"{first} {last}" for last in LAST for first in FIRST][:30]
WALK_INS = ["Walt Inman", "Wilma Irving"]
WAITLIST = ["Lena Late", "Lars Later"]
NO_SHOWS = ["Cleo Berg", "Hugo Costa"]
BOB_TICKS = ["Ada Abbott", "Ben Abbott"]


def _round_ids(event: Tournament, stage: str = "main") -> list[int]:
    return list(event.stages.get(kind=stage).rounds.order_by("number").values_list("pk", flat=True))


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


def _club_and_ann(page_for, login, make_user, club: str):
    """Ann's first sign-in and her club, from the pages."""
    make_user("ann")  # a new account: her first sign-in, an empty database else
    desk = page_for(LAPTOP_1366, "open-ann")
    login(desk, "ann")
    desk.get_by_role("link", name="Create a club").click()
    desk.get_by_label("Club name").fill(club)
    desk.get_by_role("button", name="Create the club").click()
    desk.get_by_text(f"{club} is created and you are its director.").wait_for()
    return desk


def _new_event(desk, club_slug: str, name: str, capacity: int, fill) -> Tournament:
    """The create page, from the club page: a name, a capacity and what ``fill`` sets."""
    desk.goto(f"/clubs/{club_slug}/")
    desk.get_by_role("link", name="New tournament").first.click()
    desk.get_by_label("Name", exact=True).fill(name)
    desk.get_by_label("Capacity").fill(str(capacity))
    fill(desk)
    desk.get_by_role("button", name="Create").click()
    desk.get_by_text(f"{name} is created (a draft): capacity {capacity}").wait_for()
    return Tournament.objects.get(name=name)


def test_a_weekend_open_from_the_pages(browser, page_for, login, make_user, live_server, tmp_path):
    started = time.monotonic()
    # --- the club and its co-director -------------------------------------------------
    desk = _club_and_ann(page_for, login, make_user, "Harbour Backgammon")
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

    # --- the event: 32 places, check-in, clocks required from the quarter-finals --------

    def check_in_and_clocks(desk) -> None:
        desk.get_by_label("Players check in before the draw").check()
        desk.get_by_label("Per round: stage").select_option("main")
        desk.get_by_label("From round").select_option("-3")
        desk.get_by_label("Policy from that round on").select_option("required")

    event = _new_event(desk, "harbour-backgammon", "Harbour Open", 32, check_in_and_clocks)
    slug = event.slug
    assert (event.capacity, event.check_in_required) == (32, True)
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
    desk.get_by_role("button", name="Register 30 players").click()
    desk.get_by_text("Entered 30 players. 30 of them are new to the club.").wait_for()
    for name in WAITLIST:  # the field is full: these two wait
        bob.locator("#walk-in summary").click()
        bob.locator("#walk-in").get_by_label("Name", exact=True).fill(name)
        bob.get_by_role("button", name="Add and enter").click()
        bob.get_by_text(f"{name} is on the waitlist").wait_for()
    entries = Entry.objects.filter(tournament=event)
    assert entries.filter(status=EntryStatus.ACTIVE).count() == 32
    assert set(
        entries.filter(status=EntryStatus.WAITLISTED).values_list("player__display_name", flat=True)
    ) == set(WAITLIST)
    desk.goto(f"/tournaments/{slug}/director/")
    desk.get_by_text("2 players wait for a place. The field holds 32.").wait_for()

    # --- check-in: phones by their links, Bob's ticks, two no-shows ----------------------
    rows = desk.locator("table.check-in-list tbody tr").evaluate_all(
        """rows => rows.map(r => [r.cells[0].textContent.trim(),
                                   r.querySelector('a').getAttribute('href')])"""
    )
    assert len(rows) == 34
    phones = browser.new_context(base_url=live_server.url).request
    park(desk, bob)
    for name, href in rows:
        if name in NO_SHOWS or name in BOB_TICKS:
            continue
        answer = post_form(phones, href, {})
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
    assert active.count() == 32 and active.filter(checked_in_at__isnull=True).count() == 0
    assert set(WAITLIST) <= set(active.values_list("player__display_name", flat=True))
    assert set(
        entries.filter(status=EntryStatus.WITHDRAWN).values_list("player__display_name", flat=True)
    ) == set(NO_SHOWS)

    # --- the draw ------------------------------------------------------------------------
    desk.get_by_label("Seed").select_option("random")
    desk.get_by_role("button", name="Seed").click()
    desk.get_by_text("32 entries seeded.").wait_for()
    desk.get_by_role("button", name="Start: draw the bracket / pair round 1").click()
    desk.get_by_text("Harbour Open has started: 16 matches to play.").wait_for()
    event.refresh_from_db()
    assert event.status == TournamentStatus.RUNNING
    rounds = _round_ids(event)
    assert len(rounds) == 5  # 16, 8, quarter-finals, semi-finals, final

    # --- round 1: a forfeit, three players' hand entries, three of Bob's, the rest ------
    call(desk, slug, "Main, round 1")
    german_big_screen(page_for, live_server, slug)
    slips = round_slips(desk, slug, rounds[0])
    assert len(slips) == 16
    first, *others = slips
    desk.goto(f"/tournaments/{slug}/director/")
    ready_row = desk.locator("table.ready tbody tr").filter(has_text=first[0].player).first
    ready_row.get_by_label("Forfeit winner").select_option(label=first[1].player)
    ready_row.get_by_role("button", name="Award by forfeit").click()
    desk.get_by_role("button", name=f"Yes, award it to {first[1].player}").click()
    desk.get_by_text(re.compile(rf"{first[1].player} wins .* by forfeit")).wait_for()
    forfeited = Pairing.objects.get(tournament=event, match__pk=first[0].match_id)
    assert forfeited.match.status == MatchStatus.FORFEIT
    assert forfeited.match.winner.display_name == first[1].player

    length = others[0][0].length
    park(desk)
    for n, (winner, loser) in enumerate(others[:3]):  # three players at 360 px, by links
        phone = page_for(PHONE_360, f"open-phone-{winner.player.replace(' ', '-')}")
        _enter_on_phone(phone, winner.url, length, "" if n else "open-entry-360.png")
        phone.goto(loser.url)
        phone.get_by_role("button", name="Yes, confirm").click()
        phone.get_by_text("Confirmed. Thank you!").wait_for()
        park(phone)
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
    park(desk, bob)
    for winner, loser in others[6:]:
        enter_by_link(phones, winner, loser, length, clock=False)
    assert Pairing.objects.filter(round_id=rounds[0], winner__isnull=False).count() == 16

    # --- round 2 by links, one phone offline; from the quarter-finals a clock is required
    refused = False
    for index in range(1, 5):
        call(desk, slug, f"Main, round {index + 1}")
        slips = round_slips(desk, slug, rounds[index])
        assert len(slips) == 16 >> index, (index, len(slips))
        length = slips[0][0].length
        clock = index >= 2
        park(desk, bob)
        if clock and not refused:  # a quarter-final's phone without a clock is refused
            winner = slips[0][0]
            answer = post_form(
                phones,
                winner.path,
                {"action": "final", "you": str(length), "opponent": "0"},
            )
            assert answer.status == 400
            assert "This round requires a clock" in answer.text()
            assert "cannot be entered by a player" in answer.text()
            assert Match.objects.get(pk=winner.match_id).status != (MatchStatus.FINISHED)
            refused = True
        if index == 1:  # a phone in the basement: three games offline, a conflict
            mine, theirs = slips.pop(0)
            offline_conflict_keeps_later_games(page_for, phones, mine, theirs)
        for winner, loser in slips:
            enter_by_link(phones, winner, loser, length, clock=clock)
    assert refused
    assert MatchClock.objects.filter(match__tournament_pairing__tournament=event).count() == 7

    # --- the end: finish, places, prizes paid ------------------------------------------
    final_pairing = Pairing.objects.get(round_id=rounds[4])
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

    # 32 × 10.00 = 320.00: 160 / 80 / 40 / 40; each prize-winner still owes their fee
    view = money_view(event)
    prizes = {p.name: p.net for p in view.people if p.player is not None and p.net > 0}
    assert prizes[champion] == 15000 and prizes[runner_up] == 7000
    assert sorted(prizes.values()) == [3000, 3000, 7000, 15000]
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

    played = set(
        entries.filter(status=EntryStatus.ACTIVE).values_list("player__display_name", flat=True)
    )
    federation_files_name_who_played(desk, slug, played, NO_SHOWS)

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
    archive_moves_the_club(desk, event, tmp_path)  # last: the moved club's copy is public too
    print(f"weekend open journey: {time.monotonic() - started:.1f} s")


def _burst(base_url: str, pairs: list[tuple[Slip, Slip]], then) -> list[int]:
    """Every pair's phones enter their result at the same instant, each from a thread
    of its own, while ``then`` runs here (the director's click): the phones and the
    click wait at one barrier. Returns each entry's tries."""
    barrier = threading.Barrier(len(pairs) + 1)
    tries: list[int | BaseException] = [0] * len(pairs)

    def phone(index: int, winner: Slip, loser: Slip) -> None:
        try:
            barrier.wait()
            tries[index] = ThreadPhone(base_url).enter(winner, loser)
        except BaseException as error:  # reported below, in the test's thread
            tries[index] = error

    threads = [threading.Thread(target=phone, args=(i, *p)) for i, p in enumerate(pairs)]
    for thread in threads:
        thread.start()
    barrier.wait()
    then()
    for thread in threads:
        thread.join()
    failed = [t for t in tries if isinstance(t, BaseException)]
    assert not failed, failed
    return [t for t in tries if isinstance(t, int)]


@pytest.mark.postgres
def test_a_consolation_called_while_its_results_come_in_keeps_its_matches(
    browser, page_for, login, make_user, live_server
):
    """Issue 41, items 1 and 2, through the pages on PostgreSQL: 16 players and a
    consolation for the losers of main round 1. With consolation round 1 half played,
    the director calls consolation round 2 from the dashboard at the very moment five
    phones post results (one of consolation round 1, the four of main round 2). No
    called match is voided or moved (same match, same table, nothing void in the audit),
    and the consolation match made after the call, when the last feeder result comes,
    is called on its own: the calls panel counts from its own call.

    PostgreSQL only: on SQLite the live server's request threads share the test's one
    in-memory connection, so posts at the same moment are not concurrent writes there
    (``tests/tournaments/services/test_called_match_races.py`` is the services' race)."""
    started = time.monotonic()
    desk = _club_and_ann(page_for, login, make_user, "Quay Backgammon")

    def losers_of_round_1(desk) -> None:
        desk.get_by_label("Consolation: losers of main rounds").fill("1")

    event = _new_event(desk, "quay-backgammon", "Quay Cup", 16, losers_of_round_1)
    slug = event.slug
    desk.goto(f"/tournaments/{slug}/director/register-players/")
    desk.get_by_label("Names, one per line").fill("\n".join(NAMES[:16]))
    desk.get_by_role("button", name="Preview").click()
    desk.get_by_role("button", name="Register 16 players").click()
    desk.get_by_text("Entered 16 players.").wait_for()
    desk.goto(f"/tournaments/{slug}/director/")
    desk.get_by_label("Seed").select_option("random")
    desk.get_by_role("button", name="Seed").click()
    desk.get_by_text("16 entries seeded.").wait_for()
    desk.get_by_role("button", name="Start: draw the bracket / pair round 1").click()
    desk.get_by_text("Quay Cup has started: 8 matches to play.").wait_for()
    main, consolation = _round_ids(event), _round_ids(event, "consolation")
    phones = browser.new_context(base_url=live_server.url).request

    call(desk, slug, "Main, round 1")
    for winner, loser in round_slips(desk, slug, main[0]):
        enter_by_link(phones, winner, loser, winner.length)
    call(desk, slug, "Main, round 2")
    call(desk, slug, "Consolation, round 1")
    main_two = round_slips(desk, slug, main[1])
    by_key = dict(Pairing.objects.filter(round_id=consolation[0]).values_list("match_id", "key"))
    feeders = sorted(round_slips(desk, slug, consolation[0]), key=lambda p: by_key[p[0].match_id])
    assert [by_key[p[0].match_id] for p in feeders] == [f"consolation-r1-m{n}" for n in range(1, 5)]
    for winner, loser in feeders[:2]:  # the first consolation round-2 match is made
        enter_by_link(phones, winner, loser, winner.length)
    first = Pairing.objects.select_related("match").get(tournament=event, key="consolation-r2-m1")
    assert first.match is not None and first.match.table is not None
    kept = (first.match_id, first.match.table)

    # --- the call, at the moment five phones post ------------------------------------
    desk.goto(f"/tournaments/{slug}/director/")
    calls = desk.locator("#calls")

    def the_call() -> None:
        calls.get_by_role("button", name="Call Consolation, round 2").click()
        desk.get_by_text(re.compile(r"Round 2 called: 0 players emailed")).wait_for()

    tries = _burst(live_server.url, [feeders[2], *main_two], the_call)
    round_call = RoundCall.objects.get(round_id=consolation[1])
    called = dict(  # the consolation round-2 matches there are now, all called
        Pairing.objects.filter(round_id=consolation[1], match__isnull=False).values_list(
            "match_id", "match__table"
        )
    )
    assert called.get(kept[0]) == kept[1]

    # --- the last feeder: a consolation match made after the call --------------------
    enter_by_link(phones, *feeders[3], feeders[3][0].length)
    late = Pairing.objects.select_related("match", "entry1__player").get(
        tournament=event, key="consolation-r2-m2"
    )
    assert late.match is not None and late.match.created_at > round_call.called_at
    assert Job.objects.filter(dedupe_key=late_call_key(round_call.pk, late.match_id)).exists()
    own = own_calls([(round_call.pk, late.match_id), (round_call.pk, kept[0])])
    assert set(own) == {late.match_id} and own[late.match_id] > round_call.called_at
    desk.goto(f"/tournaments/{slug}/director/")
    lateness = desk.locator("#calls table.lateness tbody tr")
    lateness.filter(has_text=late.entry1.player.display_name).get_by_text(
        "called 0 min ago"
    ).wait_for()
    assert lateness.count() == 2  # both consolation round-2 matches, called
    desk.locator("#calls").screenshot(
        path=str(pictures_folder("weekend-open") / "open-late-call-1366.png")
    )

    # --- nothing called was voided or moved ------------------------------------------
    now = dict(
        Pairing.objects.filter(round_id=consolation[1]).values_list("match_id", "match__table")
    )
    assert {k: now[k] for k in called} == called
    assert not Match.objects.filter(club=event.club, status=MatchStatus.VOID).exists()
    assert not Pairing.objects.filter(tournament=event).exclude(replaced_matches=[]).exists()
    desk.goto(f"/matches/{kept[0]}/")
    audit = desk.locator("ol.audit").inner_text()
    assert "void" not in audit.lower(), audit
    print(f"consolation journey: {time.monotonic() - started:.1f} s, tries {tries}")
