"""The embedded default's own sweep: a thread of the web process, under eager tasks.

``make run`` (SQLite, tasks run eagerly, no Celery beat) runs each follow-up in the
request that committed it. If that run fails (the database busy, a handler's error),
the outbox and the jobs schedule a retry that, with a worker, a new message would
carry; eager has no message in flight, so this thread sweeps them every
``EMBEDDED_SWEEP_INTERVAL`` seconds and runs what is due, in-process. Before, nothing
did: 363 of 435 outbox events were never handled with 64 clients.

Started by the first request of a process (``request_started``), once per process,
only when tasks are eager and the interval is positive (``config/settings.py`` turns
it off when ``REDIS_URL`` names a broker: beat sweeps there).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.db import connection

from core import leases

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_thread: threading.Thread | None = None


def start_if_embedded(**_: Any) -> None:
    """The ``request_started`` receiver: start the sweep thread if this process needs it."""
    global _thread
    interval = settings.EMBEDDED_SWEEP_INTERVAL
    if _thread is not None or not interval or not leases.is_eager():
        return
    with _lock:
        if _thread is None:
            _thread = threading.Thread(
                target=_loop, args=(interval,), name="embedded-sweep", daemon=True
            )
            _thread.start()


def sweep_once() -> tuple[int, int]:
    """Run every follow-up that is due: (events, jobs) sent (run, eagerly)."""
    from core import jobs, outbox

    fresh = settings.EMBEDDED_SWEEP_FRESH_SECONDS  # left to the request running it
    return (
        outbox.sweep_events(older_than_seconds=fresh),
        jobs.sweep_queued_jobs(older_than_seconds=fresh),
    )


def _loop(interval: float) -> None:
    while True:
        time.sleep(interval)
        try:
            sent = sweep_once()
            if any(sent):
                logger.info("embedded sweep: %s events, %s jobs retried", *sent)
        except Exception as exc:  # the database busy or away: next time
            logger.warning("embedded sweep failed (%r)", exc)
        finally:
            connection.close()
