"""The Celery queues, and which follow-up goes to which: the one routing table.

Before, every job and outbox event shared one FIFO queue, so 55 automatic analyses of
imported transcripts held a killed import's retry for 8.8 minutes and the odds waited
behind notifications. Now each follow-up goes to the queue of its urgency, in this
order of priority:

* ``results``: what a player waits for after a result: ratings, the next round's
  pairing, a director's redraw; and the sweeps (small, and they keep the rest moving);
* ``notify``: round calls and dispute notices (email, push);
* ``odds``: the event odds (CPU-bound, coalesced per event);
* ``bulk``: transcript imports, analyses, the nightly recomputation.

A worker consuming several queues reads them in this order (the Redis transport's
``queue_order_strategy: priority`` in ``config/settings.py``); ``docker-compose.yml``
runs one worker for ``results`` and ``notify``, one a step lower in CPU priority for
``odds`` and one lower still for ``bulk`` (``docs/operations.md``). The queue is a
kind's priority. Each app routes its own kinds from its ``wiring.py`` (a job kind's
queue is part of its declaration, ``core.job_kinds``): ``core`` names no app.
"""

from __future__ import annotations

from typing import Any

RESULTS = "results"
NOTIFY = "notify"
ODDS = "odds"
BULK = "bulk"
LEGACY = "celery"
"""Celery's default queue, used before the queues were split: a worker still drains it
so that a message queued before the upgrade runs."""

QUEUES = (RESULTS, NOTIFY, ODDS, BULK)
"""Every queue, most urgent first."""

#: The queue of each job kind, outbox event kind and app task, filled by the apps'
#: ``wiring.py`` (a job kind's from its declaration, ``core.job_kinds.JobKind``):
#: ``core`` names no app's kind.
_job_queues: dict[str, str] = {}
_event_queues: dict[str, str] = {}
_task_queues: dict[str, str] = {}

TASK_ROUTES: dict[str, dict[str, str]] = {
    # core's own tasks whose queue does not depend on their argument; run_job and
    # handle_event are sent with the queue of their job or event kind (below), an app's
    # task by route_app_task.
    "core.tasks.sweep_events": {"queue": RESULTS},
    "core.tasks.sweep_queued_jobs": {"queue": RESULTS},
    "core.tasks.sweep_stalled_jobs": {"queue": RESULTS},
}


def _route(table: dict[str, str], key: str, queue: str) -> None:
    if queue not in QUEUES:
        raise ValueError(f"{key}: {queue!r} is not a queue ({', '.join(QUEUES)})")
    table[key] = queue


def route_job(kind: str, queue: str) -> None:
    """Send the jobs of ``kind`` on ``queue`` (``core.job_kinds.register_job_kinds``)."""
    _route(_job_queues, kind, queue)


def route_event(kind: str, queue: str) -> None:
    """Send the outbox events of ``kind`` on ``queue`` (the emitting app's ``wiring.py``)."""
    _route(_event_queues, kind, queue)


def route_task(name: str, queue: str) -> None:
    """Send an app's Celery task ``name`` on ``queue`` (its ``wiring.py``)."""
    _route(_task_queues, name, queue)


def route_app_task(name: str, *args: Any, **kwargs: Any) -> dict[str, str] | None:
    """Celery's router (``CELERY_TASK_ROUTES``) for the apps' routed tasks."""
    queue = _task_queues.get(name)
    return {"queue": queue} if queue else None


def job_queues() -> dict[str, str]:
    """Every routed job kind's queue."""
    return dict(_job_queues)


def event_queues() -> dict[str, str]:
    return dict(_event_queues)


def task_queues() -> dict[str, str]:
    return dict(_task_queues)


def for_job(kind: str) -> str:
    """The queue of a job kind; an unknown kind goes with the notifications (neither
    ahead of results nor behind the bulk work)."""
    return _job_queues.get(kind, NOTIFY)


def for_event(kind: str) -> str:
    """The queue of an outbox event kind."""
    return _event_queues.get(kind, NOTIFY)
