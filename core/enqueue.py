"""Sending a row's message to the broker: the one way the outbox and the jobs enqueue.

Both follow-up mechanisms keep a row as the truth (a :class:`~core.models.DomainEvent`,
a :class:`~core.models.Job`) and, on commit, send one Celery message naming the row and
its enqueue token (``core.outbox``, ``core.jobs``). If the broker cannot take it, the
row's lease ends at once and the periodic sweep sends it when it can: the request has
committed and must answer.

One module sends for both, with one retry policy and one fallback. The task is looked
up by name in Celery's registry, not imported: its module
(``core.tasks``, the doors) imports the outbox and the jobs, so they cannot import it
back without a cycle. ``CoreConfig.ready`` imports ``core.tasks``, so every process
that sends (web, worker, beat, commands) has the tasks registered.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from celery import current_app
from django.db import DatabaseError
from django.db.models import QuerySet
from django.utils import timezone

from core import queues
from core.models import DomainEvent, Job, JobStatus

logger = logging.getLogger(__name__)

#: Enqueueing on commit tries briefly (a pooled connection gone stale after a broker
#: restart is replaced on the retry), then gives up: the request has committed and
#: must answer, and the periodic sweep re-enqueues what was not sent.
ENQUEUE_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.1}


def event_task_id(event_id: int, token: int) -> str:
    """The message id of an outbox event's delivery (the sweep asks the broker for it)."""
    return f"event-{event_id}-{token}"


def job_task_id(job_id: int, token: int) -> str:
    """The message id of a job's delivery (the sweep asks the broker for it)."""
    return f"job-{job_id}-{token}"


def send_event(event_id: int, *, token: int, kind: str, countdown: float | None = None) -> None:
    """Send an outbox event's message on its kind's queue (:mod:`core.outbox` runs it)."""
    _send(
        "core.tasks.handle_event",
        (event_id, token),
        task_id=event_task_id(event_id, token),
        queue=queues.for_event(kind),
        countdown=countdown,
        unsent=DomainEvent.objects.filter(
            pk=event_id, enqueue_token=token, handled_at__isnull=True
        ),
        what=f"event {event_id}",
    )


def send_job(job_id: int, countdown: float | None = None, *, token: int, kind: str) -> None:
    """Send a job's message on its kind's queue (:mod:`core.jobs` runs it)."""
    _send(
        "core.tasks.run_job",
        (job_id, token),
        task_id=job_task_id(job_id, token),
        queue=queues.for_job(kind),
        countdown=countdown,
        unsent=Job.objects.filter(pk=job_id, enqueue_token=token, status=JobStatus.QUEUED),
        what=f"job {job_id}",
    )


def _send(
    task_name: str,
    args: tuple[Any, ...],
    *,
    task_id: str,
    queue: str,
    countdown: float | None,
    unsent: QuerySet[Any],
    what: str,
) -> None:
    """Send ``task_name(*args)`` as ``task_id`` on ``queue``; if the broker refuses,
    end the lease of the row ``unsent`` selects (its current token, still pending) so
    the sweep sends it again. ``what`` names the row in the log (``job 12``)."""
    task = current_app.tasks[task_name]  # a missing registration is a bug: raise it
    try:
        task.apply_async(
            args,
            countdown=countdown,
            task_id=task_id,
            queue=queue,
            retry_policy=ENQUEUE_RETRY_POLICY,
        )
    except Exception as exc:  # the broker is down (or, eager, the database was busy)
        logger.warning("could not enqueue %s (%r); the sweep will retry", what, exc)
        with contextlib.suppress(DatabaseError):
            unsent.update(lease_until=timezone.now())
