"""Every dashboard action says what it did, in words (issue #27 item 8): "Done." told a
director nothing about who was emailed or which match was awarded."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Player
from tests.factories import confirm_address
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def _said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_start_seed_and_finish_say_what_happened(make_event, browser, win):
    event = make_event(4, start=False, name="Thursday Cup")
    base = f"/tournaments/{event.slug}/director/"
    assert _said(browser.post(base + "seed/", {"method": "random"}, follow=True)) == [
        "4 entries seeded."
    ]
    assert _said(browser.post(base + "start/", follow=True)) == [
        "Thursday Cup has started: 2 matches to play."
    ]
    for p in event.pairings.filter(status="ready"):
        win(event, p.key, min(p.entry1.seed, p.entry2.seed))
    final = event.pairings.get(status="ready")
    win(event, final.key, 1)
    champion = event.entries.get(seed=1).player.display_name
    said = _said(browser.post(base + "finish/", {"confirm": "1"}, follow=True))
    assert said == [f"Thursday Cup is finished: {champion} wins."]


def test_a_forfeit_names_the_winner_and_the_match_asked_and_done(make_event, browser):
    event = make_event(4, name="Forfeit Night")
    pairing = Pairing.objects.select_related("entry1__player").get(
        tournament=event, slot=0, round__number=1
    )
    base = f"/tournaments/{event.slug}/director/"
    winner = pairing.entry1.player.display_name
    asked = browser.post(base + "forfeit/", {"pairing": pairing.key, "winner": pairing.entry1_id})
    assert f"Award Semi-final 1 to {winner} by forfeit?" in asked.content.decode()
    said = _said(
        browser.post(
            base + "forfeit/",
            {"pairing": pairing.key, "winner": pairing.entry1_id, "confirm": "1"},
            follow=True,
        )
    )
    assert said == [f"{winner} wins Semi-final 1 by forfeit."]


def test_a_round_call_says_who_was_emailed_and_who_was_not(make_event, browser):
    event = make_event(4, name="Call Night")
    Player.objects.filter(display_name__in=["P01", "P02"]).update(email="")
    Player.objects.filter(display_name__in=["P03", "P04"]).update(email="p@example.org")
    confirm_address(event.club, "p@example.org")
    round_id = event.pairings.filter(status="ready").values_list("round_id", flat=True).first()
    response = browser.post(
        f"/tournaments/{event.slug}/director/calls/call/", {"round": round_id}, follow=True
    )
    said = _said(response)
    assert len(said) == 1 and said[0].startswith("Round 1 called: 2 players emailed, 2 without")
    assert "P01" in said[0] and "P02" in said[0] and "tell them in the room" in said[0]
    assert "not confirmed" not in said[0]


def test_a_round_call_names_who_has_not_confirmed_their_address(make_event, browser):
    event = make_event(4, name="Call Night")
    Player.objects.filter(display_name__in=["P01", "P02"]).update(email="p@example.org")
    Player.objects.filter(display_name__in=["P03", "P04"]).update(email="q@example.org")
    confirm_address(event.club, "q@example.org")
    round_id = event.pairings.filter(status="ready").values_list("round_id", flat=True).first()
    response = browser.post(
        f"/tournaments/{event.slug}/director/calls/call/", {"round": round_id}, follow=True
    )
    (said,) = _said(response)
    assert said.startswith("Round 1 called: 2 players emailed.")
    assert said.endswith(
        "2 players have not confirmed their address yet, so were not emailed: P01, P02 "
        "(tell them in the room)."
    )


def test_a_table_names_the_match(make_event, browser):
    event = make_event(2, name="Table Night")
    pairing = event.pairings.get(status="ready")
    said = _said(
        browser.post(
            f"/tournaments/{event.slug}/director/table/",
            {"match": pairing.match_id, "table": "7"},
            follow=True,
        )
    )
    assert said == ["Final is at table 7."]
