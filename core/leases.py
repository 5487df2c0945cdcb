"""Leases and backoff of the follow-ups (jobs and outbox events), shared by both.

A message sent for a job or an event is presumed alive until its *lease* ends: its
due time (a countdown, a retry's backoff) plus ``FOLLOWUP_LEASE_SECONDS``. Only then
does a sweep look at it, and it sends a new message only if the broker no longer holds
the old one (``core.broker``). Eager (the embedded default) has no message in flight:
the lease ends at the due time, and the in-process sweep (``core.embedded``) runs it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.utils import timezone


def is_eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def lease_until(countdown: float = 0.0) -> datetime:
    grace = 0.0 if is_eager() else settings.FOLLOWUP_LEASE_SECONDS
    return timezone.now() + timedelta(seconds=countdown + grace)


def backoff(base: float, attempt: int) -> float:
    """Seconds before retry ``attempt + 1``: base, 2 base, 4 base... at most the cap."""
    return float(min(base * 2 ** max(attempt - 1, 0), settings.FOLLOWUP_MAX_BACKOFF))
