"""``core.events.emit_or_join`` on PostgreSQL with real threads: a transaction that
joins a pending event writes none, and that event's handler waits for the joining
transaction's commit before it runs (so it sees what the transaction wrote); an event a
handler has begun is never joined."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from core import events, outbox
from core.models import DomainEvent
from tests.races import waiting_on_a_lock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

KIND = "test.emit_or_join"


def test_a_joined_events_handler_runs_after_the_joining_commit(monkeypatch):
    from core import enqueue

    monkeypatch.setattr(enqueue, "send_event", lambda *a, **k: None)  # no broker here
    seen: list[int] = []

    def count_rows(payload: dict) -> None:  # what the handler sees when it runs
        seen.append(DomainEvent.objects.filter(kind="test.written").count())

    monkeypatch.setitem(events._handlers, KIND, [count_rows])

    with transaction.atomic():
        assert events.emit_or_join(KIND, event=1) is False  # nothing pending: a new one
    pending = DomainEvent.objects.get(kind=KIND)

    joined, release, handler_pid, done = (
        threading.Event(),
        threading.Event(),
        {},
        threading.Event(),
    )

    def joining() -> None:
        try:
            with transaction.atomic():
                assert events.emit_or_join(KIND, event=1) is True
                DomainEvent.objects.create(kind="test.written")  # the change to cover
                joined.set()
                release.wait(10)
        finally:
            connection.close()

    def handling() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                handler_pid["pid"] = cursor.fetchone()[0]
            outbox.handle_event(event_id=pending.pk)
            done.set()
        finally:
            connection.close()

    one = threading.Thread(target=joining)
    one.start()
    assert joined.wait(10)
    two = threading.Thread(target=handling)
    two.start()
    waited = False
    for _ in range(500):  # the handler waits on the joined row's lock, not on time
        if "pid" in handler_pid and waiting_on_a_lock(handler_pid["pid"]):
            waited = True
            break
        two.join(0.01)
    assert waited and not done.is_set()
    release.set()
    one.join()
    two.join()
    assert seen == [1]  # it ran after the joining commit and saw its row
    assert DomainEvent.objects.filter(kind=KIND).count() == 1  # the join wrote none
    pending.refresh_from_db()
    assert pending.handled_at is not None


def test_an_event_a_handler_holds_is_not_joined(monkeypatch):
    from core import enqueue

    monkeypatch.setattr(enqueue, "send_event", lambda *a, **k: None)
    with transaction.atomic():
        events.emit_or_join(KIND, event=2)
    held, release = threading.Event(), threading.Event()

    def handler_holding_the_row() -> None:
        try:
            with transaction.atomic():
                list(DomainEvent.objects.select_for_update().filter(kind=KIND))
                held.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=handler_holding_the_row)
    thread.start()
    assert held.wait(10)
    try:
        with transaction.atomic():
            assert events.emit_or_join(KIND, event=2) is False  # a new event, no wait
        assert events.emit_or_join(KIND, event=3) is False  # another payload: its own
    finally:
        release.set()
        thread.join()
    assert DomainEvent.objects.filter(kind=KIND).count() == 3
