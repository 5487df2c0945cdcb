"""The whole Celery worker SIGKILLed in the middle of a rating recomputation, with the
broker's visibility timeout left at its production hour: the job's heartbeat stops,
the sweep (beat) declares it lost within ``JOB_HEARTBEAT_TIMEOUT`` and retries it as a
new job, the retry succeeds, and the ratings equal a clean recomputation. The original
task, delivered again once the visibility timeout passes, changes nothing.

Before heartbeats the job stayed ``running, attempts 1`` for an hour and every new
recompute request was answered with that stuck job.

Both workers run beat embedded (``-B``) with a sweep every second and a heartbeat bound
of a few seconds, shorter than the recomputation itself: the live first run must never
be declared lost while it beats.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from rest_framework.test import APIClient

from core.models import Job

from .conftest import LOGS, celery_broker, wait_until
from .test_worker_killed import (
    MATCHES,
    _assert_as_a_clean_run,
    _club_with_history,
    _snapshot,
    _start_recomputation,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.faults,
    pytest.mark.django_db(transaction=True),
]

HEARTBEAT_TIMEOUT = 3.0  # seconds, for the test (production: minutes)
SWEEP_INTERVAL = 1.0


def _worker_with_beat(start_worker, broker_url: str, **extra_env: str):
    schedule = LOGS / f"beat-{os.getpid()}-{time.monotonic_ns()}"
    LOGS.mkdir(parents=True, exist_ok=True)
    return start_worker(
        broker_url,
        "-B",
        "--schedule",
        str(schedule),
        JOB_HEARTBEAT_TIMEOUT=str(HEARTBEAT_TIMEOUT),
        JOB_SWEEP_INTERVAL=str(SWEEP_INTERVAL),
        **extra_env,
    )


def test_recomputation_survives_its_whole_worker_vanishing(own_redis, start_worker, make_user):
    # Given a worker (with beat) on our own Redis and a club with 20,000 rated matches
    worker = _worker_with_beat(start_worker, own_redis.url)
    director = make_user("vanished-main-director")
    club = _club_with_history(director)
    client = APIClient()
    client.force_authenticate(director)
    url = f"/api/v1/clubs/{club.slug}/ratings/recompute/"

    with celery_broker(own_redis.url):
        # When the worker's main process is SIGKILLed mid-recomputation, and the
        # orphans it leaves (pool child, beat) are killed too: the machine lost it
        job_id, list_id = _start_recomputation(client, club)
        assert worker.descendants()
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.wait(timeout=10)
        worker.kill_orphans()
        killed_at = time.monotonic()
        stuck = Job.objects.get(pk=job_id)
        assert (stuck.status, stuck.attempts) == ("running", 1)
        # nobody runs it, and asking again answers with the stuck job
        assert client.post(url).data["id"] == job_id

        # Then a new worker's sweep declares it lost and retries it, within the bound
        _worker_with_beat(start_worker, own_redis.url)
        restarted_at = time.monotonic()
        wait_until(
            lambda: Job.objects.get(pk=job_id).retried_as_id is not None,
            HEARTBEAT_TIMEOUT + 10 * SWEEP_INTERVAL + 10,
            "the sweep to declare the job lost",
        )
        declared_after = time.monotonic() - restarted_at
        lost = Job.objects.get(pk=job_id)
        retry_id = lost.retried_as_id
        wait_until(
            lambda: Job.objects.get(pk=retry_id).status in ("succeeded", "failed"),
            120,
            "the retry to finish",
        )
        finished_after = time.monotonic() - restarted_at

        assert (lost.status, lost.error["code"], lost.attempts) == ("failed", "worker_lost", 1)
        # the heartbeat was at most HEARTBEAT_TIMEOUT + one sweep old when it was noticed
        assert declared_after <= HEARTBEAT_TIMEOUT + SWEEP_INTERVAL + 5
        # a new request for the same work gets the retry or a new job, never the stuck one
        again = client.post(url)
        assert again.status_code == 202 and again.data["id"] != job_id

    retry = Job.objects.get(pk=retry_id)
    _assert_as_a_clean_run(retry, list_id)  # attempt 2 of the work, as a clean run
    print(
        f"\nwhole worker killed inside a {MATCHES}-match recomputation; the new worker "
        f"declared it lost {declared_after:.1f} s after its start (bound "
        f"{HEARTBEAT_TIMEOUT:g} s, sweep every {SWEEP_INTERVAL:g} s) and the retry "
        f"succeeded {finished_after:.1f} s after it ({time.monotonic() - killed_at:.1f} s "
        f"after the kill)"
    )


def test_the_original_task_delivered_after_the_sweep_changes_nothing(
    own_redis, start_worker, make_user
):
    """The killed worker's task is still unacknowledged in Redis; once it is older than
    the visibility timeout a worker restores it. It must find its job failed (retried
    by the sweep) and do nothing: the work is not applied a second time."""
    worker = _worker_with_beat(start_worker, own_redis.url)
    director = make_user("redelivered-director")
    club = _club_with_history(director)
    client = APIClient()
    client.force_authenticate(director)

    with celery_broker(own_redis.url):
        job_id, list_id = _start_recomputation(client, club)
        worker.descendants()
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.wait(timeout=10)
        worker.kill_orphans()
        second = _worker_with_beat(start_worker, own_redis.url)
        wait_until(
            lambda: (
                Job.objects.filter(pk=job_id, retried_as__status="succeeded").exists()
                or Job.objects.filter(pk=job_id, retried_as__status="failed").exists()
            ),
            120,
            "the sweep's retry to finish",
        )
        retry = Job.objects.get(pk=job_id).retried_as
        after_retry, jobs_before = _snapshot(list_id), Job.objects.count()
        second.stop()
        # When a worker with a short visibility timeout restores the original task
        third = start_worker(own_redis.url, CELERY_VISIBILITY_TIMEOUT="1")
        wait_until(
            lambda: "core.tasks.run_job[" in third.log(),
            30,
            "the original task to be delivered again",
        )
        time.sleep(2)
    # Then it found its job failed and did nothing
    lost = Job.objects.get(pk=job_id)
    assert (lost.status, lost.attempts, lost.error["code"]) == ("failed", 1, "worker_lost")
    retry.refresh_from_db()
    assert (retry.status, retry.attempts) == ("succeeded", 2)
    assert Job.objects.count() == jobs_before
    assert _snapshot(list_id) == after_retry
