"""The stored answers of requests carrying an ``Idempotency-Key`` (see ``core.idempotency``)."""

from __future__ import annotations

from django.db import models


class IdempotentRequest(models.Model):
    """The first response to a POST carrying an ``Idempotency-Key``, replayed on retries."""

    scope = models.CharField(max_length=80, help_text="Whose key: a user or a score link.")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="Hash of method, path and body.")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True)
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_idempotentrequest"  # created by games before the move to core
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="unique_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.scope}:{self.key}"
