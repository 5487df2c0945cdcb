"""The names the tasks of :mod:`core.tasks` had in ``games.tasks``, before they moved.

Messages queued (or scheduled by an old beat) before the move still name them
``games.tasks.*``: a worker runs them here, as the tasks they now are. Imported by
``core.tasks`` so a worker registers them. Remove once no broker can hold such a
message (a release after the move).
"""

from __future__ import annotations

from celery import Task, shared_task

from . import outbox


@shared_task(
    name="games.tasks.handle_event",
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=5,
)
def legacy_handle_event(event_id: int, token: int | None = None) -> str:
    return outbox.handle_event(event_id=event_id, token=token)


@shared_task(name="games.tasks.sweep_events", acks_late=True)
def legacy_sweep_events(older_than_seconds: int = 30) -> int:
    return outbox.sweep_events(older_than_seconds=older_than_seconds)


@shared_task(
    name="games.tasks.run_job",
    bind=True,
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=3,
)
def legacy_run_job(self: Task, job_id: int, token: int | None = None) -> str:
    from django.conf import settings

    from core import jobs

    interval = None if self.request.is_eager else settings.JOB_HEARTBEAT_INTERVAL
    return jobs.run(job_id, token=token, heartbeat_interval=interval or None)


@shared_task(name="games.tasks.sweep_queued_jobs", acks_late=True)
def legacy_sweep_queued_jobs(older_than_seconds: int = 60) -> int:
    from core import jobs

    return jobs.sweep_queued_jobs(older_than_seconds=older_than_seconds)


@shared_task(name="games.tasks.sweep_stalled_jobs", acks_late=True)
def legacy_sweep_stalled_jobs() -> int:
    from core import jobs

    return jobs.sweep_stalled_jobs()
