"""Domain events: the after-commit outbox.

Two kinds of listeners hook into match results without ``games`` importing them:

* result listeners registered in :mod:`core.listeners` run **inside** the writing
  transaction, called explicitly by the match services, for consequences that must
  commit or fail with the result (bracket advancement);
* ``emit()`` writes a :class:`~core.models.DomainEvent` row in the same transaction
  and enqueues its handler task on commit, for follow-up jobs (ratings). If the broker
  is down the row stays unhandled and the periodic sweep enqueues it again; a handler
  that raises is retried with backoff, then the event gives up (:mod:`core.outbox`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction

#: An after-commit handler: takes the event's payload.
Handler = Callable[[dict[str, Any]], None]
H = TypeVar("H", bound=Handler)

_handlers: dict[str, list[Handler]] = defaultdict(list)


def register_event_handler(kind: str, handler: Handler) -> None:
    """Register an after-commit handler for an event kind (idempotent handlers only);
    the apps call it from their ``wiring.py``. Registering a handler twice keeps one."""
    if handler not in _handlers[kind]:
        _handlers[kind].append(handler)


def on_event(kind: str) -> Callable[[H], H]:
    """:func:`register_event_handler` as a decorator (the tests' own handlers)."""

    def register(handler: H) -> H:
        register_event_handler(kind, handler)
        return handler

    return register


def handlers_for(kind: str) -> list[Handler]:
    return list(_handlers.get(kind, ()))


def emit(kind: str, **payload: Any) -> None:
    """Record an event in the current transaction and enqueue its handling on commit."""
    from . import enqueue, leases
    from .models import DomainEvent

    event = DomainEvent.objects.create(kind=kind, payload=payload, lease_until=leases.lease_until())
    transaction.on_commit(lambda: enqueue.send_event(event.pk, token=0, kind=kind))


def emit_or_join(kind: str, **payload: Any) -> bool:
    """:func:`emit`, unless an event of ``kind`` with this very payload is pending and
    no handler has begun it: then hold it (``FOR KEY SHARE``) until this transaction
    commits and write nothing. Its handler locks its row first (``FOR UPDATE``), so it
    waits for this commit and runs after it: it covers this transaction as a new event
    would. For a handler whose run covers every change before it (settling an event
    after a round's results): 128 results at once make a handful of events, not 128.
    Returns True when it joined. A row a handler holds is skipped (``SKIP LOCKED``),
    so this never waits. Without row locks (SQLite) it always emits."""
    from django.db import connection

    from .models import DomainEvent

    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(DomainEvent._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT id FROM {table} WHERE handled_at IS NULL AND failed_at IS NULL"
                " AND kind = %s AND payload = %s::jsonb ORDER BY id LIMIT 1"
                " FOR KEY SHARE SKIP LOCKED",
                [kind, json.dumps(payload)],
            )
            if cursor.fetchone() is not None:
                return True
    emit(kind, **payload)
    return False
