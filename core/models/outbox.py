"""The transactional outbox (see ``core.events`` and ``core.outbox``)."""

from __future__ import annotations

from django.db import models


class DomainEvent(models.Model):
    """Transactional outbox: an event written with the change, handled after commit.

    A handler task is enqueued on commit; if the broker was down, the periodic sweep
    finds the unhandled rows and enqueues them again, so no follow-up job is lost.
    """

    kind = models.CharField(max_length=60)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        db_table = "games_domainevent"  # created by games before the move to core
        ordering = ["id"]
        indexes = [models.Index(fields=["handled_at", "id"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"
