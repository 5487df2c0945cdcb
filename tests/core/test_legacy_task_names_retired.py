"""Retiring the ``games.tasks.*`` names: every pending follow-up is sent again.

Core migration 0003 bumps the enqueue token of each pending outbox event and queued
job and ends its lease, so a message already in the broker (under the old name or the
new) is stale and the next sweep sends one under ``core.tasks.*``; rows that are
handled, failed, running or finished keep their token.
"""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module

import pytest
from django.apps import apps
from django.utils import timezone

from core import jobs, outbox
from core.models import DomainEvent, Job, JobStatus

migration = import_module("core.migrations.0003_resend_pending_follow_ups")


@pytest.mark.django_db
def test_pending_rows_are_sent_again_and_the_rest_left_alone(monkeypatch):
    sent_jobs: list[tuple[int, int]] = []
    monkeypatch.setattr(
        jobs,
        "_enqueue",
        lambda job_id, countdown=None, *, token, kind: sent_jobs.append((job_id, token)),
    )
    later = timezone.now() + timedelta(hours=1)
    old = timezone.now() - timedelta(hours=1)
    pending = DomainEvent.objects.create(kind="test.nothing", payload={}, lease_until=later)
    handled = DomainEvent.objects.create(
        kind="test.nothing", payload={}, handled_at=timezone.now(), enqueue_token=3
    )
    queued = Job.objects.create(kind="test.nothing", lease_until=later, enqueue_token=2)
    running = Job.objects.create(kind="test.nothing", status=JobStatus.RUNNING, enqueue_token=5)
    DomainEvent.objects.filter(pk__in=[pending.pk, handled.pk]).update(created_at=old)
    Job.objects.filter(pk__in=[queued.pk, running.pk]).update(created_at=old)

    migration.resend_pending(apps, None)

    pending.refresh_from_db()
    queued.refresh_from_db()
    assert (pending.enqueue_token, queued.enqueue_token) == (1, 3)
    assert pending.lease_until <= timezone.now() and queued.lease_until <= timezone.now()
    assert DomainEvent.objects.get(pk=handled.pk).enqueue_token == 3
    assert Job.objects.get(pk=running.pk).enqueue_token == 5
    # The old message (token 0) is stale now; the sweeps send each pending row again.
    assert outbox.handle_event(event_id=pending.pk, token=0) == "stale message"
    assert outbox.sweep_events() == 1
    assert DomainEvent.objects.get(pk=pending.pk).handled_at is not None  # run eagerly
    assert jobs.sweep_queued_jobs() == 1
    assert sent_jobs == [(queued.pk, 4)]
