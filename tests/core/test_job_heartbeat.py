"""Jobs survive their worker: heartbeats, the sweep of stalled jobs, fenced writes.

A running job whose heartbeat is older than ``JOB_HEARTBEAT_TIMEOUT`` is declared lost
by ``sweep_stalled_jobs``: failed (``worker_lost``) and retried as a new job that takes
over its dedupe key. Every write of a run is conditional on (id, attempt), so the lost
run (or the original task, delivered again after the broker's visibility timeout)
cannot write over its retry.
"""

from __future__ import annotations

import subprocess
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from core import jobs
from core.models import Job
from games.services import clubs as club_services
from tests.factories import JobFactory

pytestmark = pytest.mark.django_db

runs: list[tuple[int, int]] = []


@jobs.job_handler("test.heartbeat.count")
def _count(job, progress):
    runs.append((job.pk, job.attempts))
    for i in range(job.params.get("n", 1)):
        progress(i + 1, job.params.get("n", 1), "step")
    return {"attempt": job.attempts}


@pytest.fixture
def no_enqueue(monkeypatch):
    """The broker takes the task and nobody runs it (a worker that vanished)."""
    monkeypatch.setattr(jobs, "_enqueue", lambda job_id, countdown=None, **message: None)


def _running(job: Job, *, beat_age: float, runner: str = "gone-host:4242", attempts: int = 1):
    """Make ``job`` look like a run started by ``runner`` that last beat ``beat_age`` s ago."""
    beat = timezone.now() - timedelta(seconds=beat_age)
    Job.objects.filter(pk=job.pk).update(
        status="running", attempts=attempts, started_at=beat, heartbeat_at=beat, runner=runner
    )
    job.refresh_from_db()
    return job


def test_sweep_declares_a_stale_running_job_lost_and_retries_it(
    no_enqueue, settings, django_capture_on_commit_callbacks
):
    settings.JOB_HEARTBEAT_TIMEOUT = 60
    job, _ = jobs.start_job(kind="test.heartbeat.count", params={"n": 2}, dedupe_key="work:1")
    _running(job, beat_age=61)

    with django_capture_on_commit_callbacks() as callbacks:
        assert jobs.sweep_stalled_jobs() == 1
    job.refresh_from_db()
    assert job.status == "failed" and job.error["code"] == "worker_lost"
    retry = job.retried_as
    assert retry is not None and retry.status == "queued"
    assert (retry.kind, retry.params, retry.dedupe_key) == (job.kind, job.params, "work:1")
    assert job.dedupe_key is None
    assert len(callbacks) == 1  # the retry is enqueued once the sweep commits

    # the retry runs (attempt 2 of the work) and succeeds
    assert jobs.run(retry.pk) == "succeeded"
    retry.refresh_from_db()
    assert (retry.status, retry.attempts, retry.result) == ("succeeded", 2, {"attempt": 2})
    # asking again for the same work finds the retry, not the dead job
    assert jobs.start_job(kind="test.heartbeat.count", dedupe_key="work:1")[0].pk == retry.pk


def test_a_fresh_heartbeat_is_left_alone(no_enqueue, settings):
    settings.JOB_HEARTBEAT_TIMEOUT = 60
    job, _ = jobs.start_job(kind="test.heartbeat.count")
    _running(job, beat_age=50)
    assert jobs.sweep_stalled_jobs() == 0
    job.refresh_from_db()
    assert (job.status, job.retried_as) == ("running", None)
    assert Job.objects.count() == 1


def test_a_job_that_keeps_dying_ends_failed_instead_of_looping(no_enqueue, settings):
    settings.JOB_HEARTBEAT_TIMEOUT = 60
    settings.JOB_MAX_ATTEMPTS = 3
    job, _ = jobs.start_job(kind="test.heartbeat.count")
    _running(job, beat_age=61, attempts=3)
    assert jobs.sweep_stalled_jobs() == 1
    job.refresh_from_db()
    assert (job.status, job.error["code"], job.retried_as) == (
        "failed",
        "job_attempts_exhausted",
        None,
    )


def test_the_original_delivered_again_after_the_sweep_does_nothing(no_enqueue, settings):
    settings.JOB_HEARTBEAT_TIMEOUT = 60
    job, _ = jobs.start_job(kind="test.heartbeat.count")
    _running(job, beat_age=61)
    jobs.sweep_stalled_jobs()
    before = len(runs)
    assert jobs.run(job.pk) == "failed"  # the broker's redelivery of the lost task
    assert len(runs) == before


def test_a_live_run_elsewhere_is_not_run_twice(no_enqueue, settings):
    settings.JOB_HEARTBEAT_TIMEOUT = 60
    job, _ = jobs.start_job(kind="test.heartbeat.count")
    _running(job, beat_age=5, runner="another-host:77")
    before = len(runs)
    assert jobs.run(job.pk) == "running elsewhere"
    assert len(runs) == before
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("running", 1)


def test_a_run_whose_process_is_gone_on_this_host_is_taken_over_at_once(no_enqueue, settings):
    """A pool child killed mid-job: its task comes back at once, its heartbeat is still
    fresh, but its process no longer exists; the delivery runs the job (attempt 2)."""
    import socket

    settings.JOB_HEARTBEAT_TIMEOUT = 60
    finished = subprocess.Popen(["true"])
    finished.wait()
    job, _ = jobs.start_job(kind="test.heartbeat.count")
    _running(job, beat_age=1, runner=f"{socket.gethostname()}:{finished.pid}")
    assert jobs.run(job.pk) == "succeeded"
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("succeeded", 2)


def test_an_unexpected_error_gives_the_job_back_for_its_retry(no_enqueue):
    """Before, the job stayed "running" under a live process and every retry of the task
    would have had to wait for the sweep; now it is queued again, its error kept, for
    the retry's message (a new token, after a backoff)."""
    failures = iter([RuntimeError("flaky")])

    @jobs.job_handler("test.heartbeat.flaky")
    def _flaky(job, progress):
        for error in failures:
            raise error
        return {"ok": job.attempts}

    job, _ = jobs.start_job(kind="test.heartbeat.flaky")
    assert jobs.run(job.pk, token=0) == "retrying"
    job.refresh_from_db()
    assert (job.status, job.attempts, job.runner, job.enqueue_token) == ("queued", 1, "", 1)
    assert job.error == {"code": "job_failed", "detail": "RuntimeError: flaky", "field": None}
    assert jobs.run(job.pk, token=0) == "stale message"  # the first message, again
    assert jobs.run(job.pk, token=1) == "succeeded"  # the retry's message
    job.refresh_from_db()
    assert (job.status, job.attempts, job.result, job.error) == ("succeeded", 2, {"ok": 2}, None)


def test_a_superseded_run_cannot_write_over_its_retry(no_enqueue, settings):
    """The sweep declares a run lost while it is (slowly) still going: its next progress
    report aborts it, and its result is never written over the job."""
    settings.JOB_HEARTBEAT_TIMEOUT = 60
    seen: list[str] = []

    @jobs.job_handler("test.heartbeat.slow")
    def _slow(job, progress):
        progress(1, 3, "first")
        # meanwhile the sweep finds the heartbeat stale and retries the job
        Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
        assert jobs.sweep_stalled_jobs() == 1
        try:
            progress(2, 3, "second")
        except jobs.JobSuperseded:
            seen.append("superseded")
            raise
        return {"stale": True}

    job, _ = jobs.start_job(kind="test.heartbeat.slow")
    assert jobs.run(job.pk) == "superseded"
    job.refresh_from_db()
    assert seen == ["superseded"]
    assert (job.status, job.error["code"], job.result) == ("failed", "worker_lost", None)
    assert job.retried_as.status == "queued"


def test_new_recompute_request_after_a_stale_job_was_swept_gets_a_new_job(
    no_enqueue, settings, client_for, director
):
    settings.JOB_HEARTBEAT_TIMEOUT = 60
    club = club_services.create_club(created_by=director, name="Stuck Club")
    client = client_for(director)
    url = f"/api/v1/clubs/{club.slug}/ratings/recompute/"
    first = client.post(url)
    assert first.status_code == 202
    stuck = _running(Job.objects.get(pk=first.data["id"]), beat_age=61)
    # while stuck, asking again answers with the same job (as before the sweep)
    assert client.post(url).data["id"] == stuck.pk

    jobs.sweep_stalled_jobs()
    again = client.post(url)
    assert again.status_code == 202
    assert again.data["id"] != stuck.pk
    assert again.data["status"] == "queued"
    lost = client.get(f"/api/v1/jobs/{stuck.pk}/").data
    assert (lost["status"], lost["error"]["code"]) == ("failed", "worker_lost")
    assert lost["retried_as"] == again.data["id"]  # a poller of the lost job can follow


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_long_job_inside_one_transaction_keeps_beating(settings):
    """The heartbeat thread has its own connection: a handler holding one transaction
    (as a recomputation does) for longer than the timeout is never declared lost."""
    settings.JOB_HEARTBEAT_TIMEOUT = 1.0
    beats: list[object] = []

    @jobs.job_handler("test.heartbeat.long")
    def _long(job, progress):
        with transaction.atomic():
            JobFactory.create(kind="test.other")  # the transaction holds a write
            for i in range(12):  # 3 s, three timeouts
                time.sleep(0.25)
                progress(i + 1, 12, "working")
                swept = _sweep_from_another_connection()
                assert swept == 0, "a live job was declared lost"
                beats.append(Job.objects.get(pk=job.pk).heartbeat_at)
        return {"ok": True}

    job = JobFactory.create(kind="test.heartbeat.long")
    assert jobs.run(job.pk, heartbeat_interval=0.2) == "succeeded"
    job.refresh_from_db()
    assert (job.status, job.attempts, job.done, job.total) == ("succeeded", 1, 12, 12)
    # the beats were committed while the handler's transaction was still open
    assert len(set(beats)) >= 5


def _sweep_from_another_connection() -> int:
    """Run the sweep as beat would: in another process's connection (a thread here)."""
    out: list[int] = []

    def sweep() -> None:
        try:
            out.append(jobs.sweep_stalled_jobs())
        finally:
            connection.close()

    thread = threading.Thread(target=sweep)
    thread.start()
    thread.join(10)
    return out[0]
