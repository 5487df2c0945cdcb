"""Celery tasks every app shares: the outbox and the long jobs; thin wrappers that take
ids and call services.

The outbox and the jobs send these by name (:mod:`core.enqueue`), so this module is the
only one that imports both ways' code and nothing imports it back. The names the tasks
had before they moved here (``games.tasks.*``) are retired: migration
``core.0003_resend_pending_follow_ups`` sent every pending event and queued job again
under these names.
"""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from core import jobs, outbox


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def handle_event(event_id: int, token: int | None = None) -> str:
    """Run the handlers of one outbox event; a no-op if it was already handled or the
    message is stale. A handler's error is retried by the outbox itself (with backoff,
    then given up); Celery's retry covers only the database being away."""
    return outbox.handle_event(event_id=event_id, token=token)


@shared_task(acks_late=True)
def sweep_events(older_than_seconds: int = 30) -> int:
    """Send again every event whose message is lost (never one still in the broker)."""
    return outbox.sweep_events(older_than_seconds=older_than_seconds)


@shared_task(
    bind=True, acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=3
)
def run_job(self: Task, job_id: int, token: int | None = None) -> str:
    """Run one long job (see ``core.jobs``); safe to deliver twice. In a worker the job
    beats from a thread (``JOB_HEARTBEAT_INTERVAL``) so the sweep can tell it is alive."""
    interval = None if self.request.is_eager else settings.JOB_HEARTBEAT_INTERVAL
    return jobs.run(job_id, token=token, heartbeat_interval=interval or None)


@shared_task(acks_late=True)
def sweep_queued_jobs(older_than_seconds: int = 60) -> int:
    """Send again every queued job whose message is lost (never one still queued)."""
    return jobs.sweep_queued_jobs(older_than_seconds=older_than_seconds)


@shared_task(acks_late=True)
def sweep_stalled_jobs() -> int:
    """Declare lost, and retry, every running job whose heartbeat stopped."""
    return jobs.sweep_stalled_jobs()
