"""A dispute at a club night: the opponent disputes a result from a 360 px phone by
score link; the director sees it at the top of the event dashboard on a laptop,
resolves it from the match page with a note, and the phone shows the ruling.

The journey's pictures go to ``artifacts/e2e/disputes/``; with
``BOXCARS_UPDATE_SCREENSHOTS=1`` they are written to ``docs/screenshots/`` for the
manual (the Disputes sections of the director's and the player's guides).
"""

from __future__ import annotations

import pytest

from games import score_links
from games.models import Dispute, Match
from games.services import clubs as club_services
from games.services import score_entry
from games.services.actors import actor_for_score_link, actor_for_user
from tournaments.models import Pairing
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_opponent_disputes_on_a_phone_and_the_director_resolves(
    page_for, login, club, director, alice, bob
):
    folder = pictures_folder("disputes")
    actor = actor_for_user(director)
    event = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Thursday Knockout",
        format="single_elimination",
        seeding="manual",
    )
    others = [club_services.create_player(display_name=n, clubs=[club]) for n in ("Carol", "Dave")]
    for player in (alice, *others, bob):  # seeds 1-4: round 1 is Alice v Bob, Carol v Dave
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    match = Pairing.objects.get(tournament=event, entry1__player=alice).match
    n = match.length
    score = (n, 1) if match.player1_id == alice.pk else (1, n)
    score_entry.record_final_score(
        actor=actor_for_score_link(alice), match_id=match.pk, score=score
    )

    # Bob, on his phone, opens his score link and disputes the result.
    phone = page_for(PHONE_360, name="dispute-phone")
    link = f"/score/{score_links.make_token(match, bob)}/"
    phone.goto(link)
    phone.get_by_text("is it right?").wait_for()
    phone.get_by_role("button", name="Dispute").click()
    phone.locator("#id_reason-error").wait_for()  # the reason is required, said next to it
    assert not Dispute.objects.exists()
    phone.get_by_label("What is wrong with the entry?").fill(
        "We stopped before the end: the last game was never played."
    )
    phone.get_by_role("button", name="Dispute").click()
    phone.get_by_text("Disputed: the club's directors will rule.").wait_for()
    assert phone.locator("#dispute").get_by_text("the last game was never played").is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    phone.locator("#dispute").screenshot(path=str(folder / "dispute-raised-phone.png"))

    # The director, on a laptop: the bracket flags the result and the match it fed...
    laptop = page_for(LAPTOP_1366, name="dispute-director")
    login(laptop, "director")
    laptop.goto(f"/tournaments/{event.slug}/bracket/")
    svg = laptop.locator("svg.bracket").first
    assert svg.locator("g.slot.disputed").count() == 1
    assert svg.locator("g.slot.fed-disputed").count() == 1
    laptop.locator(".bracket-wrap").first.screenshot(path=str(folder / "dispute-bracket.png"))
    # ... and the dispute is at the top of the event's dashboard.
    laptop.goto(f"/tournaments/{event.slug}/director/")
    listed = laptop.locator("#open-disputes")
    listed.get_by_role("heading", name="Open disputes (1)").wait_for()
    assert "the last game was never played" in listed.inner_text()
    listed.screenshot(path=str(folder / "dispute-dashboard.png"))
    listed.get_by_role("link", name="Resolve the dispute on Alice v Bob").click()
    laptop.wait_for_url(f"**/matches/{match.pk}/#dispute")
    block = laptop.locator("#dispute")
    block.get_by_role("radio", name="Keep the result").check()
    block.get_by_label("Note to the players").fill(
        "Carol watched the last game: Alice won it. The result stands."
    )
    block.screenshot(path=str(folder / "dispute-resolve-laptop.png"))
    block.get_by_role("button", name="Resolve the dispute").click()
    laptop.get_by_text("Dispute resolved: result kept as entered.").wait_for()
    assert Match.objects.get(pk=match.pk).confirmation == "confirmed"
    laptop.goto(f"/tournaments/{event.slug}/director/")
    assert laptop.locator("#open-disputes").count() == 0

    # Bob's phone: the result is final, the link has expired, and the ruling is there.
    phone.goto(link)
    ruling = phone.locator("#dispute")
    ruling.get_by_text("Result kept as entered").wait_for()
    assert "Carol watched the last game" in ruling.inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    ruling.screenshot(path=str(folder / "dispute-ruling-phone.png"))
