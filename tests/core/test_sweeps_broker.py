"""Sweeps that never duplicate (issue #26), against the real broker (Redis).

Before, the queued-job sweep sent again every job queued for over 60 s, each minute,
whether or not its message was still in the broker (157 messages for a few dozen
jobs), and the outbox sweep every event unhandled for over 30 s. Now a message waiting
in its queue (behind a long job) keeps its job or event out of the sweep; a message
really lost is sent again once, under a new token, and the old one does nothing.

No worker runs here: the messages stay in Redis where the test can count them.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta

import pytest
from django.utils import timezone

from core import events, jobs, outbox, queues
from core.models import DomainEvent, Job

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis broker"),
    # one process runs them all, one after another (``--dist loadgroup``): each empties
    # the shared broker's queues, which would take another's message from under it
    pytest.mark.xdist_group("redis-broker"),
]

KIND = "test.sweeps.count"
handled: list[int] = []


@jobs.job_handler(KIND)
def _count(job, progress):
    return {"ran": True}


@events.on_event(KIND)
def _note(payload):
    handled.append(payload["n"])


@pytest.fixture
def redis_broker():
    """Messages go to Redis and stay there (no worker); the queues emptied around."""
    from config.celery import app

    app.conf.task_always_eager = False  # the autouse fixture of tests/conftest.py restores it
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        names = [*queues.QUEUES, queues.LEGACY]
        client.delete(*names)
        yield client
        client.delete(*names)


def _ids(client, queue):
    return [json.loads(m)["headers"]["id"] for m in client.lrange(queue, 0, -1)]


def _overdue(model, pk):
    model.objects.filter(pk=pk).update(
        created_at=timezone.now() - timedelta(minutes=5),
        lease_until=timezone.now() - timedelta(seconds=1),
    )


def test_a_job_still_in_its_queue_is_not_sent_again(
    redis_broker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job, _ = jobs.start_job(kind=KIND)
    queue = queues.for_job(KIND)
    assert _ids(redis_broker, queue) == [f"job-{job.pk}-0"]
    # minutes later it still waits (behind a long job): its lease is over, but the
    # broker holds its message, so sweep after sweep sends nothing
    for _ in range(3):
        _overdue(Job, job.pk)
        assert jobs.sweep_queued_jobs() == 0
    assert _ids(redis_broker, queue) == [f"job-{job.pk}-0"]
    job.refresh_from_db()
    assert job.lease_until > timezone.now()  # renewed: the next sweeps skip it at once


def test_a_job_whose_message_was_dropped_is_sent_again_once(
    redis_broker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job, _ = jobs.start_job(kind=KIND)
    queue = queues.for_job(KIND)
    redis_broker.delete(queue)  # the broker lost it (restarted without its data)
    _overdue(Job, job.pk)
    assert jobs.sweep_queued_jobs() == 1
    assert jobs.sweep_queued_jobs() == 0  # within the new lease
    _overdue(Job, job.pk)
    assert jobs.sweep_queued_jobs() == 0  # after it: the new message is in the broker
    assert _ids(redis_broker, queue) == [f"job-{job.pk}-1"]
    # the old message, should it turn up after all, does nothing; the new one runs
    assert jobs.run(job.pk, token=0) == "stale message"
    assert jobs.run(job.pk, token=1) == "succeeded"


def test_an_event_in_its_queue_is_left_alone_and_a_dropped_one_sent_once(
    redis_broker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        events.emit(KIND, n=1)
    event = DomainEvent.objects.get(kind=KIND)
    queue = queues.for_event(KIND)
    assert _ids(redis_broker, queue) == [f"event-{event.pk}-0"]
    _overdue(DomainEvent, event.pk)
    assert outbox.sweep_events() == 0
    redis_broker.delete(queue)
    _overdue(DomainEvent, event.pk)
    assert outbox.sweep_events() == 1
    _overdue(DomainEvent, event.pk)
    assert outbox.sweep_events() == 0
    assert _ids(redis_broker, queue) == [f"event-{event.pk}-1"]
    assert outbox.handle_event(event_id=event.pk, token=0) == "stale message"
    assert outbox.handle_event(event_id=event.pk, token=1) == "handled"
    assert handled.count(1) == 1


def test_each_kind_goes_to_its_queue(redis_broker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        events.emit("match.disputed", match_id=0, club_id=None, dispute_id=0)
        events.emit("match.result_changed", match_id=0, club_id=None)
    assert len(_ids(redis_broker, queues.NOTIFY)) == 1
    assert len(_ids(redis_broker, queues.RESULTS)) == 1
    assert queues.for_job("tournaments.odds") == queues.ODDS
    assert queues.for_job("analysis.match") == queues.BULK
