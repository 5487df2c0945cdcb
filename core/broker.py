"""What the broker holds: the ids of the task messages waiting or being worked on.

The sweeps (``core.outbox.sweep_events``, ``core.jobs.sweep_queued_jobs``) ask this
before sending a job or an event again, so that a message still waiting in its queue
(behind a long job, say) is never duplicated: only a message really lost (the broker
was down at commit time, or restarted without its data) is sent again.

On Redis (kombu's transport) a waiting message is an entry of its queue's list (and of
the lists of its priority steps), and a message a worker has taken but not acknowledged
(``acks_late``; a countdown it waits out) is a value of the ``unacked`` hash. Reading
them costs one round trip per queue, proportional to the messages held: a sweep runs
once a minute and only when something is overdue.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

from celery import current_app

from . import queues

logger = logging.getLogger(__name__)

# kombu's Redis transport keeps a queue's messages of priority n > 0 in "<queue>\x06\x16n"
_PRIORITY_SUFFIXES = ("", *(f"\x06\x16{step}" for step in (3, 6, 9)))


def waiting_task_ids() -> set[str] | None:
    """Ids of every task message held by the broker; None when it cannot tell (a
    transport other than Redis, or the broker unreachable): callers then trust their
    lease alone. Eager (the embedded default) holds nothing: a task runs when sent."""
    app = current_app
    if app.conf.task_always_eager:
        return set()
    try:
        with app.connection_for_read() as conn:
            if conn.transport.driver_type != "redis":
                return None
            channel: Any = conn.default_channel
            client = channel.client
            ids: set[str] = set()
            for queue in (*queues.QUEUES, queues.LEGACY):
                for suffix in _PRIORITY_SUFFIXES:
                    ids.update(_ids(client.lrange(queue + suffix, 0, -1)))
            unacked = client.hvals(getattr(channel, "unacked_key", "unacked"))
            ids.update(_ids(_first(v) for v in unacked))
            return ids
    except Exception as exc:  # the broker is away: nothing can be sent now anyway
        logger.warning("could not read the broker's queues (%r)", exc)
        return None


def _first(raw: bytes | str) -> Any:
    """An ``unacked`` value is ``[message, exchange, routing_key]``."""
    try:
        return json.loads(raw)[0]
    except (ValueError, TypeError, IndexError, KeyError):
        return None


def _ids(messages: Iterable[Any]) -> Iterable[str]:
    for message in messages:
        try:
            parsed = json.loads(message) if isinstance(message, bytes | str) else message
            task_id = parsed["headers"]["id"]
        except (ValueError, TypeError, KeyError):
            continue
        if task_id:
            yield str(task_id)
