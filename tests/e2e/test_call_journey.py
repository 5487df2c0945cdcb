"""A round called in the room: the director ticks who is here, draws, calls round 1
(each player is emailed table, opponent, length and link), sees "called N min ago",
applies a late penalty after confirming it, and the score sheet shows it. A player
checks in from a 360 px phone with their link.

Pictures go to ``artifacts/e2e/calls/`` (with ``BOXCARS_UPDATE_SCREENSHOTS=1``, to
``docs/screenshots/``).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.services.actors import actor_for_user
from tests.factories import confirm_address
from tournaments.models import Entry, LatePenalty, Pairing, RoundCall
from tournaments.services import check_in
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_director_checks_in_calls_a_round_and_applies_a_late_penalty(
    page_for, login, club, director, alice, bob, settings
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    folder = pictures_folder("calls")
    actor = actor_for_user(director)
    event = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Thursday Knockout",
        format="single_elimination",
        seeding="manual",
        check_in_required=True,
        match_lengths={"default": 7},
    )
    for player in (alice, bob):
        player.email = f"{player.slug}@example.org"
        player.save()
        confirm_address(club, player.email)  # they agreed to the club's mail
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    alice_entry = Entry.objects.get(tournament=event, player=alice)

    # Alice checks in from her phone with her link.
    phone = page_for(PHONE_360, name="calls-phone")
    phone.goto(f"/tournaments/{event.slug}/check-in/{check_in.check_in_token(alice_entry)}/")
    phone.get_by_role("button", name="I am here: check in").click()
    phone.get_by_text("You are checked in").wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.screenshot(path=str(folder / "check-in-phone.png"))

    # The director ticks Bob, starts the event and calls round 1.
    laptop = page_for(LAPTOP_1366, name="calls-director")
    login(laptop, "director")
    laptop.goto(f"/tournaments/{event.slug}/director/")
    laptop.get_by_role("button", name="Check in Bob").click()
    laptop.locator("#check-in").screenshot(path=str(folder / "check-in-dashboard.png"))
    laptop.get_by_role("button", name="Start: draw the bracket / pair round 1").click()
    laptop.get_by_role("button", name="Call Main, round 1").click()
    # the director reads who the call reached by email, and who must be told in the room
    laptop.get_by_text(re.compile(r"^Round 1 called: \d+ players emailed")).wait_for()
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bob@example.org"]

    # Eleven minutes later Bob is still not there.
    RoundCall.objects.update(called_at=timezone.now() - timedelta(minutes=11, seconds=2))
    pairing = Pairing.objects.select_related("entry1", "entry2").get(tournament=event)
    bob_entry = pairing.entry1 if pairing.entry1.player_id == bob.pk else pairing.entry2
    laptop.goto(f"/tournaments/{event.slug}/director/")
    calls_card = laptop.locator("#calls")
    calls_card.get_by_text("called 11 min ago").wait_for()
    calls_card.screenshot(path=str(folder / "calls-dashboard.png"))
    calls_card.get_by_role("button", name="Bob is late: apply the penalty").click()
    laptop.get_by_text("Alice gets 2 penalty point(s)").wait_for()
    assert not LatePenalty.objects.exists()
    laptop.get_by_role("button", name="Yes, apply it").click()
    laptop.get_by_text("Late penalty applied: 2 point(s).").wait_for()
    assert LatePenalty.objects.get().late_player_id == bob_entry.player_id

    laptop.goto(f"/matches/{pairing.match_id}/")
    sheet = laptop.locator("table.sheet")
    sheet.get_by_role("cell", name="Late penalty", exact=True).wait_for()
    assert "Alice" in sheet.inner_text()
    sheet.screenshot(path=str(folder / "late-penalty-sheet.png"))
