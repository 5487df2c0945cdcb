"""Two requests to pair the same Swiss round at once give one round (PostgreSQL locks)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core.models import Job
from tests.races import race
from tests.tournaments.conftest import pairing
from tournaments.models import Round
from tournaments.services import rounds as round_services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(*calls):
    return race(calls, capture_errors=True)


def play_round_one(event, win):
    for board in (1, 2, 3):
        p = pairing(event, f"swiss-r1-b{board}")
        win(event, p.key, p.entry1.seed)


def test_two_services_pairing_round_two_at_once_make_one_round(make_event, win, actor):
    event = make_event(6, format="swiss", swiss_rounds=3)
    play_round_one(event, win)
    results = run_together(
        lambda: round_services.pair_next_round(actor=actor, tournament_id=event.pk, round_number=2),
        lambda: round_services.pair_next_round(actor=actor, tournament_id=event.pk, round_number=2),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(r.created for r in results) == [False, True]
    assert Round.objects.filter(stage__tournament=event, number=2).count() == 1
    assert event.pairings.filter(round__number=2).count() == 3


def test_two_api_requests_for_the_next_round_start_one_job(make_event, win, director):
    event = make_event(6, format="swiss", swiss_rounds=3)
    play_round_one(event, win)

    def ask():
        client = APIClient()
        client.force_authenticate(director)
        response = client.post(
            f"/api/v1/tournaments/{event.slug}/rounds/next/", {"round": 2}, format="json"
        )
        return response.status_code, response.data["id"]

    results = run_together(ask, ask)
    assert [r[0] for r in results] == [202, 202]
    assert results[0][1] == results[1][1]
    assert Job.objects.filter(kind="tournaments.pair_round").count() == 1
    assert Round.objects.filter(stage__tournament=event, number=2).count() == 1
