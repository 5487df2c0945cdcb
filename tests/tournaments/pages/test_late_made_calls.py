"""A round call follows its round (issue 41, item 2), through the director's page, the
results API and the mail outbox.

Main round 2 is called when one of its matches is ready; the others are made as the
round-1 results come in. Each is called when it is made: its two players get their
email then, with their table, and its lateness counts from then, not from the round's
call (the weekend open's "Call Main, round 2" reached 6 players and nobody else).
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from core.models import Job
from games.models import Match
from tests.factories import confirm_address
from tournaments.models import Entry, LatePenalty, Pairing, RoundCall

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def _result(browser, key: str, event) -> None:
    """The director enters the better seed's win through the results API."""
    slot = Pairing.objects.select_related("match", "entry1__player", "entry2__player").get(
        tournament=event, key=key
    )
    better = min((slot.entry1, slot.entry2), key=lambda e: e.seed)
    n = slot.match.length
    score = [n, 0] if slot.match.player1_id == better.player_id else [0, n]
    answer = browser.post(
        f"/api/v1/matches/{slot.match_id}/result/",
        {"score": score},
        "application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert answer.status_code == 200, answer.json()


def _call(browser, event, round_id: int) -> None:
    answer = browser.post(f"/tournaments/{event.slug}/director/calls/call/", {"round": round_id})
    assert answer.status_code in (200, 302)


def _row_of(page: str, match: Match) -> str:
    names = f"{match.player1.display_name} v {match.player2.display_name}"
    (row,) = [r for r in page.split("<tr>") if names in r]
    return row


def test_a_match_made_after_its_round_was_called_is_called_when_made(
    make_event, browser, django_capture_on_commit_callbacks
):
    event = make_event(8, match_lengths={"default": 5})
    for entry in Entry.objects.filter(tournament=event).select_related("player"):
        entry.player.email = f"{entry.player.slug}@example.org"
        entry.player.save()
        confirm_address(event.club, entry.player.email)
    first = Pairing.objects.get(tournament=event, key="main-r1-m1").round_id
    with django_capture_on_commit_callbacks(execute=True):
        _call(browser, event, first)
        _result(browser, "main-r1-m1", event)
        _result(browser, "main-r1-m2", event)
    early = Pairing.objects.select_related("match__player1", "match__player2").get(
        tournament=event, key="main-r2-m1"
    )
    assert early.match_id is not None
    second = early.round_id
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _call(browser, event, second)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        p.email for p in (early.match.player1, early.match.player2)
    )

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _result(browser, "main-r1-m3", event)
        _result(browser, "main-r1-m4", event)  # main-r2-m2 is made now, after the call
    late = Pairing.objects.select_related("match__player1", "match__player2").get(
        tournament=event, key="main-r2-m2"
    )
    assert late.match is not None and late.match.table is not None
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {late.match.player1.email, late.match.player2.email}
    for player, opponent in (
        (late.match.player1, late.match.player2),
        (late.match.player2, late.match.player1),
    ):
        body = by_address[player.email].body
        assert f"Table: {late.match.table}" in body
        assert f"Opponent: {opponent.display_name}" in body
        assert re.search(r"^http://localhost:8000/score/\S+/$", str(body), re.M)

    # lateness: the round was called 10 minutes ago, the late match 2 minutes ago
    now = timezone.now()
    call = RoundCall.objects.get(round_id=second)
    RoundCall.objects.filter(pk=call.pk).update(called_at=now - timedelta(minutes=10, seconds=5))
    (own,) = Job.objects.filter(dedupe_key=f"round-call:{call.pk}:match:{late.match_id}")
    Job.objects.filter(pk=own.pk).update(created_at=now - timedelta(minutes=2, seconds=5))
    page = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    lateness = page.split('class="lateness"', 1)[1].split("</table>", 1)[0]
    early_row = _row_of(lateness, early.match)
    assert "called 10 min ago" in early_row and "late · +2" in early_row
    late_row = _row_of(lateness, late.match)
    assert "called 2 min ago" in late_row and "late · +" not in late_row
    # the late player's penalty counts from the match's own call too: none due yet
    refused = browser.post(
        f"/tournaments/{event.slug}/director/calls/penalty/",
        {"match": late.match_id, "late_entry": late.entry1_id, "confirm": "1"},
        follow=True,
    )
    assert "2 minutes since the call: no more penalty is due yet." in refused.content.decode()
    assert not LatePenalty.objects.filter(match_id=late.match_id).exists()
    # the next result settles the event again: nobody is told twice
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _result(browser, "main-r2-m1", event)
    assert mail.outbox == []
