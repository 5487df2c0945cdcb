"""A Celery worker's pool child SIGKILLed while a Swiss pairing job is committing: the
job is delivered again, finds the round (pairing is idempotent) and succeeds, and
the round is the one a clean run pairs.

Pairing takes well under a second, too short to aim a kill at, so the test holds a
lock the job's transaction needs at the end: Django's foreign keys are checked at
COMMIT on PostgreSQL, and checking a new match's players takes a share lock on their
rows. Holding one player row ``FOR UPDATE`` stops the job in its COMMIT, with every
row of the round written; that is where the child is killed. Its COMMIT was already
sent, so PostgreSQL completes it once the lock is released: the write survives its
worker, the job row still says "running", and the redelivered task must not pair the
round twice.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from core.models import DomainEvent, Job
from games.models import Player
from games.services import clubs as club_services
from games.services import score_entry
from games.services.actors import actor_for_user
from tournaments.models import Pairing, Round
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

from .conftest import celery_broker, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.faults,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = 8


def _swiss_after_round_one(director, name: str):
    """A 3-round Swiss of eight, round 1 played (the higher seed wins)."""
    actor = actor_for_user(director)
    club = club_services.create_club(created_by=director, name=f"{name} Club")
    event = event_services.create_tournament(
        actor=actor, club=club, name=name, format="swiss", swiss_rounds=3
    )
    for i in range(PLAYERS):
        player = club_services.create_player(display_name=f"S{i}", clubs=[club])
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    for p in Pairing.objects.filter(tournament=event).select_related("match"):
        score_entry.record_final_score(actor=actor, match_id=p.match_id, score=(p.match.length, 0))
    return event


def _round_two(event) -> list[tuple[str, str]]:
    """Round 2's pairings by player name, in board order."""
    return [
        (p.entry1.player.display_name, p.entry2.player.display_name if p.entry2 else "bye")
        for p in Pairing.objects.filter(tournament=event, round__number=2)
        .select_related("entry1__player", "entry2__player")
        .order_by("pk")
    ]


def _a_backend_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


def _hold_player_lock(player_id: int, locked: threading.Event, release: threading.Event):
    try:
        with transaction.atomic():
            Player.objects.select_for_update().get(pk=player_id)
            locked.set()
            release.wait(60)
    finally:
        connection.close()


def test_pairing_job_survives_its_worker_child_being_killed_at_commit(
    own_redis, start_worker, make_user
):
    worker = start_worker(own_redis.url)
    director = make_user("pairing-killed-director")
    client = APIClient()
    client.force_authenticate(director)

    with celery_broker(own_redis.url):  # the results' events go to our worker too
        killed_event = _swiss_after_round_one(director, "Killed Swiss")
        clean_event = _swiss_after_round_one(director, "Clean Swiss")
        wait_until(  # rating updates of round 1 done: only the pairing will wait below
            lambda: not DomainEvent.objects.filter(handled_at__isnull=True).exists(),
            30,
            "the round-1 events",
        )
        # Given a player of the killed event locked, so the pairing stops in its COMMIT
        locked, release = threading.Event(), threading.Event()
        player_id = killed_event.entries.order_by("pk").first().player_id
        holder = threading.Thread(target=_hold_player_lock, args=(player_id, locked, release))
        holder.start()
        assert locked.wait(10)
        try:
            response = client.post(
                f"/api/v1/tournaments/{killed_event.slug}/rounds/next/", {}, format="json"
            )
            assert response.status_code == 202, response.content
            job_id = response.data["id"]
            wait_until(_a_backend_waits_on_a_lock, 30, "the pairing to wait in its commit")
            assert Job.objects.get(pk=job_id).status == "running"
            # When the pool child running it is killed, then the lock released
            (child,) = worker.children()
            os.kill(child, signal.SIGKILL)
            wait_until(lambda: child not in worker.children(), 10, "the child to die")
        finally:
            release.set()
            holder.join(10)
        killed_at = time.monotonic()
        # Then the job is delivered again and succeeds without pairing twice
        wait_until(
            lambda: Job.objects.get(pk=job_id).status in ("succeeded", "failed"),
            60,
            "the redelivered pairing job",
        )
        recovered = time.monotonic() - killed_at
        job = Job.objects.get(pk=job_id)
        assert job.status == "succeeded", job.error
        assert job.attempts == 2
        assert (job.result["round"], job.result["pairings"]) == (2, PLAYERS // 2)
        assert job.result["created"] is False  # the killed attempt's COMMIT went through
        assert Round.objects.filter(stage__tournament=killed_event, number=2).count() == 1

        # and the round is the one a clean run pairs for the same event
        clean = client.post(
            f"/api/v1/tournaments/{clean_event.slug}/rounds/next/", {}, format="json"
        )
        wait_until(
            lambda: Job.objects.get(pk=clean.data["id"]).status == "succeeded",
            60,
            "the clean pairing job",
        )
    assert "WorkerLostError" in worker.log()
    killed_round, clean_round = _round_two(killed_event), _round_two(clean_event)
    assert len(killed_round) == PLAYERS // 2
    assert killed_round == clean_round
    print(
        f"\npairing child killed in its COMMIT; the retry found round 2 and succeeded "
        f"{recovered:.1f} s after the kill (attempt {job.attempts})"
    )
