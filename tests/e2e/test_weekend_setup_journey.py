"""A weekend set up from the pages (issue 27): a signed-in user creates a club, invites a
co-director who signs in in a second browser by the emailed link, creates an event with
a capacity, required check-in and clocks required in the final; a player is refused a
final score without a clock, and the co-director enters it with a reason.

The players' entries and check-ins are arranged through the services (other journeys
drive those pages); everything this issue added is driven through the browser. With
``BOXCARS_UPDATE_SCREENSHOTS=1`` the new pages' pictures at 360 and 1366 px go to
``docs/screenshots/``.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Match, MatchStatus
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import entries as entry_services

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _pictures(page, name: str, anchor: str | None = None) -> None:
    """The page at 1366 px, then at 360 px (the same page, resized), each scrolled to
    ``anchor`` (a selector) when given."""
    folder = pictures_folder("weekend")
    for viewport, width in ((LAPTOP_1366, 1366), (PHONE_360, 360)):
        page.set_viewport_size(viewport)
        if anchor:
            page.locator(anchor).first.evaluate("e => e.scrollIntoView()")
        page.screenshot(path=str(folder / f"{name}-{width}.png"))
    page.set_viewport_size(LAPTOP_1366)


def test_club_co_director_event_and_a_clock_enforced(page_for, login, make_user, live_server):
    ann = make_user("ann")
    desk = page_for(LAPTOP_1366, "weekend-ann")
    login(desk, "ann")

    # a club from nothing: Ann directs it
    desk.get_by_role("link", name="Create a club").click()
    _pictures(desk, "club-new")
    desk.get_by_label("Club name").fill("")
    desk.get_by_role("button", name="Create the club").click()
    desk.get_by_text("Nothing was created.").wait_for()
    desk.get_by_label("Club name").fill("Weekend Club")
    desk.get_by_role("button", name="Create the club").click()
    desk.get_by_text("Weekend Club is created and you are its director.").wait_for()

    # a co-director by email
    desk.get_by_label("E-mail address", exact=True).fill("bob@example.org")
    desk.get_by_role("button", name="Invite a co-director").click()
    desk.get_by_text("bob@example.org is a director of Weekend Club").wait_for()
    _pictures(desk, "club-people")
    link = re.search(r"https?://\S+/accounts/set-password/\S+/", str(mail.outbox[-1].body))[0]

    # Bob, in a second browser, sets his password from the link and is signed in
    bob = page_for(PHONE_360, "weekend-bob")
    bob.goto(link)
    bob.get_by_label("New password", exact=True).fill("Bob-directs-9")
    bob.get_by_label("New password confirmation").fill("Bob-directs-9")
    bob.get_by_role("button", name="Set my password").click()
    bob.get_by_text("Your password is set and you are signed in as bob@example.org.").wait_for()

    # the event: capacity, check-in, clocks required in the final
    desk.goto("/tournaments/new/weekend-club/")
    desk.get_by_label("Name", exact=True).fill("Weekend Open")
    desk.get_by_label("Capacity").fill("1")
    desk.get_by_role("button", name="Create").click()
    desk.get_by_text("Ensure this value is greater than or equal to 2.").wait_for()
    assert not Tournament.objects.filter(name="Weekend Open").exists()
    desk.goto("/tournaments/new/weekend-club/")  # afresh, for the pictures
    desk.get_by_label("Name", exact=True).fill("Weekend Open")
    desk.get_by_label("Capacity").fill("4")
    desk.get_by_label("Players check in before the draw").check()
    desk.get_by_label("Per round: stage").select_option("main")
    desk.get_by_label("From round").select_option("-1")
    desk.get_by_label("Policy from that round on").select_option("required")
    _pictures(desk, "event-new-settings", "#event-settings-field")
    desk.get_by_role("button", name="Create").click()
    desk.get_by_text("Weekend Open is created (a draft): capacity 4").wait_for()
    event = Tournament.objects.get(name="Weekend Open")
    assert (event.capacity, event.check_in_required) == (4, True)

    # two players checked in and drawn (through the services): the final needs a clock
    club = event.club
    chen_user = make_user("chen")
    chen = club_services.create_player(display_name="Chen Wei", clubs=[club], user=chen_user)
    dana = club_services.create_player(display_name="Dana", clubs=[club])
    actor = actor_for_user(ann)
    for player in (chen, dana):
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    Entry.objects.filter(tournament=event).update(checked_in_at=timezone.now())
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    match = Pairing.objects.filter(tournament=event).exclude(match=None).get().match

    # Chen, without a clock, is refused the final score and told why
    player = page_for(PHONE_360, "weekend-chen")
    login(player, "chen")
    player.goto(f"/matches/{match.pk}/enter/")
    player.get_by_text("This round requires a clock: start the match clock").wait_for()
    _pictures(player, "clock-required-player", "#clock-required")
    player.locator("form.final input[name=you]").fill(str(match.length))
    player.locator("form.final input[name=opponent]").fill("0")
    player.get_by_role("button", name="Record final score").click()
    player.get_by_text("cannot be entered by a player").first.wait_for()
    assert Match.objects.get(pk=match.pk).status != MatchStatus.FINISHED

    # Bob, the co-director, overrides with a reason
    bob.goto(f"/matches/{match.pk}/enter/")
    bob.get_by_text("as a director you can, with a reason").wait_for()
    final = bob.locator("form.final")
    final.locator("input[name=score1]").fill(
        str(match.length) if match.player1_id == chen.pk else "0"
    )
    final.locator("input[name=score2]").fill(
        "0" if match.player1_id == chen.pk else str(match.length)
    )
    final.get_by_label("Reason for a result without a clock").fill("The clock's phone died")
    _pictures(bob, "clock-override-director", "form.final")
    bob.get_by_role("button", name="Record final score").click()
    bob.get_by_text("Final score recorded.").wait_for()
    done = Match.objects.get(pk=match.pk)
    assert done.status == MatchStatus.FINISHED and done.winner_id == chen.pk
    reasons = Match.history.filter(id=match.pk).values_list("history_change_reason", flat=True)
    assert "clock override by a director: The clock's phone died" in list(reasons)
    assert live_server.url in link
