"""Running long jobs: a registry of handlers, progress reports, one Celery task.

A handler is ``fn(job, progress) -> dict``: it does its own transactions (so that
progress written between them is visible to pollers) and must be idempotent, because
a job whose worker died is delivered again (``acks_late``) and run from the start.
Domain errors end the job as ``failed`` with their code and message; anything else
is retried by Celery.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Job, JobStatus
from games.rules.errors import BoxcarsError

logger = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]
Handler = Callable[[Job, Progress], dict[str, Any]]

_handlers: dict[str, Handler] = {}


def job_handler(kind: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _handlers[kind] = fn
        return fn

    return register


def start_job(
    *,
    kind: str,
    params: dict[str, Any] | None = None,
    club: Any = None,
    created_by: Any = None,
    dedupe_key: str | None = None,
) -> tuple[Job, bool]:
    """Create a job and enqueue it on commit; (job, created). A dedupe key already used
    returns the existing job instead of starting a second one."""

    if kind not in _handlers:
        raise ValueError(f"no handler registered for job kind {kind!r}")
    if dedupe_key:
        existing = Job.objects.filter(dedupe_key=dedupe_key).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            job = Job.objects.create(
                kind=kind,
                params=params or {},
                club=club,
                created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
                dedupe_key=dedupe_key or None,
            )
    except IntegrityError:
        return Job.objects.get(dedupe_key=dedupe_key), False
    transaction.on_commit(lambda: _enqueue(job.pk))
    return job, True


def _enqueue(job_id: int) -> None:
    """Hand a job to the broker; if the broker is down the job stays queued and the
    periodic sweep (``sweep_queued_jobs``) hands it over again later."""
    from games.events import ENQUEUE_RETRY_POLICY
    from games.tasks import run_job

    try:
        run_job.apply_async((job_id,), retry_policy=ENQUEUE_RETRY_POLICY)
    except Exception as exc:
        logger.warning("could not enqueue job %s (%r); the sweep will retry", job_id, exc)


def sweep_queued_jobs(*, older_than_seconds: int = 60) -> int:
    """Enqueue again the jobs still queued after a while (their enqueue was lost).

    Running a job twice is safe: ``run`` leaves finished jobs alone and handlers are
    idempotent. Returns how many were enqueued.
    """
    from datetime import timedelta

    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    stuck = list(
        Job.objects.filter(status=JobStatus.QUEUED, created_at__lte=cutoff)
        .order_by("id")
        .values_list("pk", flat=True)[:500]
    )
    for job_id in stuck:
        _enqueue(job_id)
    return len(stuck)


def _progress_reporter(job_id: int) -> Progress:
    def report(done: int, total: int, message: str = "") -> None:
        Job.objects.filter(pk=job_id).update(done=done, total=total, message=message[:255])

    return report


def run(job_id: int) -> str:
    """Run a job once; a finished job is left as it is (a redelivered task is a no-op)."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        return "missing"
    if job.status in (JobStatus.SUCCEEDED, JobStatus.FAILED):
        return job.status
    Job.objects.filter(pk=job.pk).update(
        status=JobStatus.RUNNING, started_at=timezone.now(), attempts=job.attempts + 1
    )
    job.refresh_from_db()
    try:
        result = _handlers[job.kind](job, _progress_reporter(job.pk))
    except BoxcarsError as exc:
        Job.objects.filter(pk=job.pk).update(
            status=JobStatus.FAILED, error=exc.as_dict(), finished_at=timezone.now()
        )
        return JobStatus.FAILED
    Job.objects.filter(pk=job.pk).update(
        status=JobStatus.SUCCEEDED, result=result, finished_at=timezone.now()
    )
    return JobStatus.SUCCEEDED
