"""A pairing job through a real Celery worker: 202, progress, one round."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core.models import Job
from games.services import clubs as club_services
from games.services import score_entry
from games.services.actors import actor_for_user
from tournaments.models import Pairing, Round
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_the_worker_pairs_the_next_swiss_round(live_worker, wait_for, make_user):
    director = make_user("pairing-director")
    actor = actor_for_user(director)
    club = club_services.create_club(created_by=director, name="Pairing Club")
    event = event_services.create_tournament(
        actor=actor, club=club, name="Worker Swiss", format="swiss", swiss_rounds=3
    )
    for i in range(8):
        player = club_services.create_player(display_name=f"W{i}", clubs=[club])
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    for p in Pairing.objects.filter(tournament=event).select_related("match"):
        score_entry.record_final_score(actor=actor, match_id=p.match_id, score=(p.match.length, 0))
    client = APIClient()
    client.force_authenticate(director)
    response = client.post(f"/api/v1/tournaments/{event.slug}/rounds/next/", {}, format="json")
    assert response.status_code == 202
    job_id = response.data["id"]
    wait_for(lambda: Job.objects.get(pk=job_id).status in ("succeeded", "failed"), what="the job")
    job = Job.objects.get(pk=job_id)
    assert job.status == "succeeded", job.error
    assert job.result["round"] == 2 and job.result["pairings"] == 4
    assert job.done == job.total == 2
    assert Round.objects.filter(stage__tournament=event, number=2).count() == 1
    again = client.post(
        f"/api/v1/tournaments/{event.slug}/rounds/next/", {"round": 2}, format="json"
    )
    assert again.data["id"] == job_id
