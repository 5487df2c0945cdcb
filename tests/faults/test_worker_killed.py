"""A Celery worker's pool child SIGKILLed in the middle of a rating recomputation: the
job is delivered again, runs to success, and the ratings equal a clean run.

Why the pool child: that is the process doing the work (and the one the kernel's OOM
killer picks); the worker's main process sees it die and, because tasks are
``acks_late`` with ``task_reject_on_worker_lost``, puts the message back on the queue
at once for the replacement child. The recomputation is one transaction per list, so
the killed attempt's writes die with its database connection.
"""

from __future__ import annotations

import os
import signal
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.db import OperationalError, transaction
from rest_framework.test import APIClient

from core.models import Job
from games.models import Club, Match, MatchSource, MatchStatus, Rating, RatingChange, RatingList
from games.services import clubs as club_services
from games.services import ratings as rating_services

from .conftest import celery_broker, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.faults,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = 120
MATCHES = 20_000  # a recomputation of a few seconds on this machine


def _club_with_history(director) -> Club:
    """A club with a long history of finished rated matches (bulk rows: the list is
    rebuilt from scratch by the job, so nothing needs rating beforehand)."""
    club = club_services.create_club(created_by=director, name="Killed Worker Club")
    players = [
        club_services.create_player(display_name=f"K{i}", clubs=[club]) for i in range(PLAYERS)
    ]
    start = datetime(2020, 1, 1, tzinfo=UTC)
    rows = []
    for i in range(MATCHES):
        a, b = players[(i * 7) % PLAYERS], players[(i * 11 + 1) % PLAYERS]
        if a == b:
            b = players[(i * 11 + 2) % PLAYERS]
        length = (1, 3, 5, 7)[i % 4]
        winner = a if (i * 13) % 5 < 3 else b
        rows.append(
            Match(
                club=club,
                player1=a,
                player2=b,
                length=length,
                rated=True,
                status=MatchStatus.FINISHED,
                source=MatchSource.IMPORTED,
                score1=length if winner == a else 0,
                score2=length if winner == b else 0,
                winner=winner,
                final_score_only=True,
                confirmation="confirmed",
                finished_at=start + timedelta(minutes=i),
            )
        )
    Match.objects.bulk_create(rows, batch_size=5000)
    return club


def _list_is_locked(rating_list_id: int) -> bool:
    """True while another transaction (the recomputation) holds the list's row lock."""
    try:
        with transaction.atomic():
            RatingList.objects.select_for_update(nowait=True).filter(pk=rating_list_id).exists()
    except OperationalError:
        return True
    return False


def _snapshot(rating_list_id: int) -> tuple[dict, int]:
    ratings = {
        r.player_id: (round(r.rating, 9), r.experience, r.matches_played)
        for r in Rating.objects.filter(rating_list_id=rating_list_id)
    }
    return ratings, RatingChange.objects.filter(rating_list_id=rating_list_id).count()


def _start_recomputation(client: APIClient, club) -> tuple[int, int]:
    """A director asks for a recomputation; returns (job id, list id) once the job is
    running and inside its transaction (it holds the list's row lock)."""
    response = client.post(f"/api/v1/clubs/{club.slug}/ratings/recompute/")
    assert response.status_code == 202, response.content
    job_id = response.data["id"]
    wait_until(
        lambda: client.get(f"/api/v1/jobs/{job_id}/").data["status"] == "running",
        30,
        "the job to start",
    )
    list_id = Job.objects.get(pk=job_id).params["list"]
    wait_until(lambda: _list_is_locked(list_id), 30, "the recomputation to lock its list")
    return job_id, list_id


def _wait_for_end(job_id: int) -> Job:
    wait_until(
        lambda: Job.objects.get(pk=job_id).status in ("succeeded", "failed"),
        120,
        "the redelivered job to finish",
    )
    return Job.objects.get(pk=job_id)


def _assert_as_a_clean_run(job: Job, list_id: int) -> None:
    """The retried job succeeded on its second attempt, and a clean from-scratch
    recomputation finds nothing to change."""
    assert job.status == "succeeded", job.error
    assert job.attempts == 2  # the killed run and the retry; the first never finished
    assert job.result["matches"] == MATCHES
    after_retry = _snapshot(list_id)
    assert after_retry[1] == 2 * MATCHES
    clean = rating_services.recompute_list(rating_list_id=list_id)
    assert (clean.matches, clean.drifted_players) == (MATCHES, 0)
    assert _snapshot(list_id) == after_retry


def test_recomputation_survives_its_worker_child_being_killed(own_redis, start_worker, make_user):
    # Given a worker on our own Redis and a club with 20,000 rated matches
    worker = start_worker(own_redis.url)
    director = make_user("killed-director")
    club = _club_with_history(director)
    client = APIClient()
    client.force_authenticate(director)

    with celery_broker(own_redis.url):
        # When the pool child running the recomputation is killed
        job_id, list_id = _start_recomputation(client, club)
        (child,) = worker.children()
        os.kill(child, signal.SIGKILL)
        killed_at = time.monotonic()
        # Then the worker requeues the job, a new child runs it, and it succeeds
        job = _wait_for_end(job_id)
        recovered = time.monotonic() - killed_at
    assert child not in worker.children()
    assert "WorkerLostError" in worker.log()
    # and the ratings equal a clean from-scratch recomputation
    _assert_as_a_clean_run(job, list_id)
    print(
        f"\nworker child killed inside a {MATCHES}-match recomputation's transaction; "
        f"job succeeded on attempt {job.attempts}, {recovered:.1f} s after the kill"
    )


def test_recomputation_survives_the_whole_worker_being_killed(own_redis, start_worker, make_user):
    """Nobody is left to requeue the task: it stays unacknowledged in Redis until it is
    ``CELERY_VISIBILITY_TIMEOUT`` seconds old, then a worker restores it. Production
    keeps an hour (above the longest job); the replacement worker here uses 3 s."""
    worker = start_worker(own_redis.url)
    director = make_user("vanished-director")
    club = _club_with_history(director)
    client = APIClient()
    client.force_authenticate(director)

    with celery_broker(own_redis.url):
        # When the worker's main process and its child are both killed mid-job
        job_id, list_id = _start_recomputation(client, club)
        (child,) = worker.children()
        os.kill(worker.process.pid, signal.SIGKILL)
        os.kill(child, signal.SIGKILL)
        worker.process.wait(timeout=10)
        killed_at = time.monotonic()
        assert Job.objects.get(pk=job_id).status == "running"  # and nobody runs it
        # Then a new worker restores the unacknowledged task once it is old enough
        time.sleep(3.5)
        start_worker(own_redis.url, CELERY_VISIBILITY_TIMEOUT="3")
        job = _wait_for_end(job_id)
        recovered = time.monotonic() - killed_at
    _assert_as_a_clean_run(job, list_id)
    print(
        f"\nwhole worker killed inside a {MATCHES}-match recomputation; job succeeded on "
        f"attempt {job.attempts} in a new worker, {recovered:.1f} s after the kill"
    )
