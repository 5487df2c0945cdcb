"""The transactional outbox (see ``core.events`` and ``core.outbox``)."""

from __future__ import annotations

from django.db import models


class DomainEvent(models.Model):
    """Transactional outbox: an event written with the change, handled after commit.

    A handler task is enqueued on commit; if the broker was down, the periodic sweep
    finds the unhandled rows and enqueues them again, so no follow-up job is lost.

    ``enqueue_token`` numbers the messages sent for the event (the task id is
    ``event-<id>-<token>``, see :mod:`core.outbox`): a message carrying an older token
    is stale and does nothing. ``lease_until`` is when the current message, if not
    handled by then, may be lost: the sweep looks at an event only after it, and sends
    a new message only if the broker holds none. A handler that raises is retried with
    backoff up to ``OUTBOX_MAX_ATTEMPTS`` attempts, then the event is ``failed_at``
    with its ``last_error`` kept (shown to the club's directors; ``retry_failed``).
    """

    kind = models.CharField(max_length=60)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    enqueue_token = models.PositiveIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_domainevent"  # created by games before the move to core
        ordering = ["id"]
        indexes = [
            models.Index(fields=["handled_at", "id"]),
            models.Index(fields=["handled_at", "failed_at", "lease_until"], name="outbox_due"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    @property
    def status(self) -> str:
        if self.handled_at is not None:
            return "handled"
        return "failed" if self.failed_at is not None else "pending"
