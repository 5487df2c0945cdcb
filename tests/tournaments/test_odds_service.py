"""Event odds through the services: the job after results, snapshots, the API."""

from __future__ import annotations

import pytest

from games.models import Job
from tournaments.models import OddsSnapshot
from tournaments.services import odds as odds_services

pytestmark = pytest.mark.django_db


def test_compute_odds_of_a_fresh_bracket_is_exact_and_sums_to_one(make_event):
    event = make_event(8, consolation_from=[1])
    snapshot = odds_services.compute_odds(tournament_id=event.pk)
    assert snapshot.method == "exact"
    wins = [row["win"] for row in snapshot.entries.values()]
    assert sum(wins) == pytest.approx(1.0, abs=1e-5)
    assert len(snapshot.entries) == 8
