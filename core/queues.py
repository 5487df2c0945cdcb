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
``odds`` and one lower still for ``bulk`` (``docs/operations.md``). Kinds are plain
strings here: ``core`` imports no app.
"""

from __future__ import annotations

RESULTS = "results"
NOTIFY = "notify"
ODDS = "odds"
BULK = "bulk"
LEGACY = "celery"
"""Celery's default queue, used before the queues were split: a worker still drains it
so that a message queued before the upgrade runs."""

QUEUES = (RESULTS, NOTIFY, ODDS, BULK)
"""Every queue, most urgent first."""

JOB_QUEUES: dict[str, str] = {
    "ratings.recompute_from": RESULTS,
    "ratings.recompute": RESULTS,
    "tournaments.pair_round": RESULTS,
    "tournaments.redraw": RESULTS,
    "tournaments.drop_map": RESULTS,
    "tournaments.notify_call": NOTIFY,
    "tournaments.odds": ODDS,
    "matches.import": BULK,
    "analysis.match": BULK,
    "ratings.recompute_all": BULK,
    "clubdata.export": BULK,
    "clubdata.import": BULK,
}

EVENT_QUEUES: dict[str, str] = {
    "match.finished": RESULTS,  # ratings (the analysis it may start is a bulk job)
    "match.result_changed": RESULTS,
    "match.disputed": NOTIFY,
    "match.transcript_attached": BULK,
    "tournament.settle": RESULTS,  # a result's follow-up turn, left to the worker
}

TASK_ROUTES: dict[str, dict[str, str]] = {
    # Tasks whose queue does not depend on their argument; run_job and handle_event
    # are sent with the queue of their job or event kind (below).
    "core.tasks.sweep_events": {"queue": RESULTS},
    "core.tasks.sweep_queued_jobs": {"queue": RESULTS},
    "core.tasks.sweep_stalled_jobs": {"queue": RESULTS},
    "games.rating_jobs.nightly_recompute": {"queue": BULK},
}


def for_job(kind: str) -> str:
    """The queue of a job kind; an unknown kind goes with the notifications (neither
    ahead of results nor behind the bulk work)."""
    return JOB_QUEUES.get(kind, NOTIFY)


def for_event(kind: str) -> str:
    """The queue of an outbox event kind."""
    return EVENT_QUEUES.get(kind, NOTIFY)
