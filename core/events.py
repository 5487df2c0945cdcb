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
_wants: dict[tuple[str, Handler], Callable[[dict[str, Any]], bool]] = {}


def register_event_handler(
    kind: str, handler: Handler, *, wants: Callable[[dict[str, Any]], bool] | None = None
) -> None:
    """Register an after-commit handler for an event kind (idempotent handlers only);
    the apps call it from their ``wiring.py``. Registering a handler twice keeps one.

    ``wants``: which events this handler would act on, read from the payload the
    emitter writes (``rated``, ``transcript``...). An event that no handler of its kind
    wants is not written (:func:`emit`): a championship's unrated matches, with no
    transcript, made 256 outbox events a round that every handler then ignored. A
    handler without ``wants`` wants every event; a payload without the fact it reads
    (an older event) is wanted.
    """
    if handler not in _handlers[kind]:
        _handlers[kind].append(handler)
    if wants is not None:
        _wants[kind, handler] = wants
    else:
        _wants.pop((kind, handler), None)


def wanted(kind: str, payload: dict[str, Any]) -> bool:
    """Would any handler of ``kind`` act on this payload (:func:`register_event_handler`)?
    A kind with no handler registered (yet) is written as always."""
    handlers = _handlers.get(kind, ())
    return not handlers or any(_wants.get((kind, h), _always)(payload) for h in handlers)


def _always(payload: dict[str, Any]) -> bool:
    return True


def on_event(kind: str) -> Callable[[H], H]:
    """:func:`register_event_handler` as a decorator (the tests' own handlers)."""

    def register(handler: H) -> H:
        register_event_handler(kind, handler)
        return handler

    return register


def handlers_for(kind: str) -> list[Handler]:
    return list(_handlers.get(kind, ()))


def emit(kind: str, *, countdown: float = 0.0, **payload: Any) -> None:
    """Record an event in the current transaction and enqueue its handling on commit,
    ``countdown`` seconds after it; nothing when no handler wants it (:func:`wanted`)."""
    from . import enqueue, leases
    from .models import DomainEvent

    if not wanted(kind, payload):
        return
    event = DomainEvent.objects.create(
        kind=kind, payload=payload, lease_until=leases.lease_until(countdown)
    )
    transaction.on_commit(
        lambda: enqueue.send_event(event.pk, token=0, kind=kind, countdown=countdown or None)
    )


def emit_or_join(kind: str, *, countdown: float = 0.0, **payload: Any) -> bool:
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
    emit(kind, countdown=countdown, **payload)
    return False
