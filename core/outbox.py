"""Handling outbox events exactly once, giving up cleanly, and sweeping up the ones
whose message was lost (never the ones still waiting).

* :func:`core.enqueue.send_event` sends an event's message on its kind's queue
  (:mod:`core.queues`), named ``event-<id>-<token>``; if the broker is down the event's
  lease ends at once and the sweep sends it when it can.
* :func:`handle_event` runs the handlers under the row lock. A handler that raises
  leaves nothing behind (a savepoint); the event is retried after a backoff
  (``OUTBOX_RETRY_BACKOFF`` doubling) with a new token, and after
  ``OUTBOX_MAX_ATTEMPTS`` attempts it is ``failed`` with its last error, shown to its
  club's directors. Before, an event whose handler always raised (a dispute notice to
  a club whose name held CR/LF) was retried forever: 156 attempts in 17 minutes.
* :func:`sweep_events` looks only at events whose lease is over, and sends a new
  message only if the broker holds none for the event's token (:mod:`core.broker`).
  Before, each sweep sent every event older than 30 s again.
* :func:`absorb_pending` lets a handler whose run covers other events of its kind (it
  reads after they committed) mark them handled: a burst of them costs one run.
* :func:`retry_failed_event` starts a failed event again (``manage.py retry_failed``,
  the admin's action).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core import broker, events, leases
from core import enqueue as core_enqueue
from core.models import DomainEvent

logger = logging.getLogger(__name__)


def handle_event(*, event_id: int, token: int | None = None) -> str:
    """Lock the event row, run its handlers, mark it handled, all in one transaction.

    Two workers handed the same event (a retry racing the sweep) serialise on the row
    lock; the second finds it handled and does nothing. A message whose ``token`` is
    not the event's current one (the sweep or a retry replaced it) does nothing.
    """
    retry_in: float | None = None
    with transaction.atomic():
        event = DomainEvent.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            return "missing"
        if event.handled_at is not None:
            return "already handled"
        if event.failed_at is not None:
            return "failed"
        if token is not None and token != event.enqueue_token:
            return "stale message"
        event.attempts += 1
        try:
            with transaction.atomic():  # a savepoint: a failed handler leaves nothing behind
                for handler in events.handlers_for(event.kind):
                    handler(event.payload)
        except Exception as exc:
            event.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            logger.warning("event %s attempt %s failed: %s", event.pk, event.attempts, exc)
            if event.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
                event.failed_at = timezone.now()
            else:
                retry_in = leases.backoff(settings.OUTBOX_RETRY_BACKOFF, event.attempts)
                event.enqueue_token += 1
                event.lease_until = leases.lease_until(retry_in)
            event.save(
                update_fields=[
                    "attempts",
                    "last_error",
                    "failed_at",
                    "enqueue_token",
                    "lease_until",
                ]
            )
        else:
            event.handled_at = timezone.now()
            event.last_error = ""
            event.save(update_fields=["attempts", "last_error", "handled_at"])
    if event.failed_at is not None:
        return "failed"
    if retry_in is not None:
        if not leases.is_eager():  # eager: the in-process sweep runs it once it is due
            core_enqueue.send_event(
                event.pk, token=event.enqueue_token, kind=event.kind, countdown=retry_in
            )
        return "retrying"
    return "handled"


def _pending() -> Q:
    return Q(handled_at__isnull=True, failed_at__isnull=True)


def absorb_pending(kind: str, **payload: object) -> int:
    """Mark handled the pending events of ``kind`` whose payload has these values and
    that no handler holds now; returns how many. Called by a handler, inside its
    transaction, when what it is about to do covers them: they are committed (visible
    to this read), so a run that reads after this sees their writes. An event another
    worker is handling (its row locked) is skipped (``SKIP LOCKED``) and runs itself.
    """
    matching = {f"payload__{key}": value for key, value in payload.items()}
    ids = list(
        DomainEvent.objects.select_for_update(skip_locked=True)
        .filter(_pending(), kind=kind, **matching)
        .values_list("pk", flat=True)
    )
    if not ids:
        return 0
    return DomainEvent.objects.filter(pk__in=ids).update(handled_at=timezone.now(), last_error="")


def sweep_events(*, older_than_seconds: float = 30) -> int:
    """Send again the events whose message is lost; returns how many were sent.

    An event is looked at once its lease is over; it is sent again only if the broker
    holds no message of its current token (a message waiting behind a long job keeps
    its event out of the sweep, its lease renewed). The token is bumped first,
    conditionally, so two sweeps at once send one message.
    """
    now = timezone.now()
    overdue = list(
        DomainEvent.objects.filter(
            _pending(),
            Q(lease_until__isnull=True) | Q(lease_until__lte=now),
            created_at__lte=now - timedelta(seconds=older_than_seconds),
        )
        .order_by("id")
        .values_list("pk", "enqueue_token", "kind")[:1000]
    )
    if not overdue:
        return 0
    waiting = broker.waiting_task_ids()
    sent = 0
    for event_id, token, kind in overdue:
        current = DomainEvent.objects.filter(_pending(), pk=event_id, enqueue_token=token)
        if waiting is not None and core_enqueue.event_task_id(event_id, token) in waiting:
            current.update(lease_until=leases.lease_until())
            continue
        if current.update(enqueue_token=token + 1, lease_until=leases.lease_until()):
            core_enqueue.send_event(event_id, token=token + 1, kind=kind)
            sent += 1
    return sent


def retry_failed_event(event_id: int) -> bool:
    """Give a failed event a fresh count of attempts and send it; its last error stays
    until it is handled. False if the event is not failed."""
    with transaction.atomic():
        event = (
            DomainEvent.objects.select_for_update()
            .filter(pk=event_id, handled_at__isnull=True, failed_at__isnull=False)
            .first()
        )
        if event is None:
            return False
        event.failed_at = None
        event.attempts = 0
        event.enqueue_token += 1
        event.lease_until = leases.lease_until()
        event.save(update_fields=["failed_at", "attempts", "enqueue_token", "lease_until"])
        token, kind = event.enqueue_token, event.kind
        transaction.on_commit(lambda: core_enqueue.send_event(event_id, token=token, kind=kind))
    logger.info("failed event %s retried", event_id)
    return True
