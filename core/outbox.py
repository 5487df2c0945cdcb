"""Handling outbox events exactly once, and sweeping up the ones left behind."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from core import events
from core.models import DomainEvent

logger = logging.getLogger(__name__)


def handle_event(*, event_id: int) -> str:
    """Lock the event row, run its handlers, mark it handled, all in one transaction.

    Two workers handed the same event (a retry racing the sweep) serialise on the row
    lock; the second finds it handled and does nothing.
    """
    failure: Exception | None = None
    with transaction.atomic():
        event = DomainEvent.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            return "missing"
        if event.handled_at is not None:
            return "already handled"
        event.attempts += 1
        try:
            with transaction.atomic():  # a savepoint: a failed handler leaves nothing behind
                for handler in events.handlers_for(event.kind):
                    handler(event.payload)
        except Exception as exc:
            failure = exc
            event.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            event.save(update_fields=["attempts", "last_error"])
        else:
            event.handled_at = timezone.now()
            event.last_error = ""
            event.save(update_fields=["attempts", "last_error", "handled_at"])
    if failure is not None:
        raise failure
    return "handled"


def sweep_events(*, older_than_seconds: int = 30) -> int:
    """Enqueue the events nobody handled; returns how many were enqueued."""
    from core.tasks import handle_event as handle_event_task

    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    pending = list(
        DomainEvent.objects.filter(handled_at__isnull=True, created_at__lte=cutoff)
        .order_by("id")
        .values_list("pk", flat=True)[:1000]
    )
    for pk in pending:
        handle_event_task.delay(pk)
    return len(pending)
