"""``core.compiled_writes`` does what ``Model.save`` does: the same row, the same
signals, the same audit rows; and hands to ``save()`` what it does not cover."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import timedelta
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import F, signals
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core import compiled_writes
from core.history import history_in_bulk
from core.models import IdempotentRequest
from games.models import Game, Match, MatchClock
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_path(settings):
    """These tests are of the fast path itself: on whatever the database's default."""
    settings.FAST_PATH = True


_SKIP = {"id", "number", "created_at", "history_id", "history_date"}


def _game(match: Match, number: int) -> Game:
    return Game(
        match=match,
        number=number,
        winner=match.player1,
        cube=2,
        points=2,
        score1_before=0,
        score2_before=0,
        crawford=False,
        post_crawford=False,
        confirmed=True,
    )


def _stored(obj: Any) -> dict[str, Any]:
    row = type(obj).objects.filter(pk=obj.pk).values().get()
    return {k: v for k, v in row.items() if k not in _SKIP}


class _Signals:
    """The pre_save/post_save calls of one model, as (signal, kwargs)."""

    def __init__(self, model: type) -> None:
        self.model = model
        self.calls: list[tuple[Any, Any, dict[str, Any]]] = []

    def _hear(self, signal: Any) -> Any:
        def receiver(sender: type, **kwargs: Any) -> None:
            kwargs.pop("signal")
            instance = kwargs.pop("instance")
            self.calls.append((signal, instance.pk, kwargs))

        return receiver

    def __enter__(self) -> _Signals:
        self._receivers = [(s, self._hear(name)) for s, name in _SIGNALS]
        for signal, receiver in self._receivers:
            signal.connect(receiver, sender=self.model, weak=False)
        return self

    def __exit__(self, *exc: object) -> None:
        for signal, receiver in self._receivers:
            signal.disconnect(receiver, sender=self.model)


_SIGNALS = [(signals.pre_save, "pre_save"), (signals.post_save, "post_save")]


def _history(obj: Any) -> list[dict[str, Any]]:
    rows = obj.history.model.objects.filter(id=obj.pk).order_by("history_id").values()
    return [{k: v for k, v in r.items() if k not in _SKIP} for r in rows]


@pytest.mark.parametrize("in_bulk", [False, True])
def test_an_insert_stores_the_row_signals_and_audit_row_that_save_does(in_bulk):
    match = MatchFactory.create()
    with transaction.atomic(), history_in_bulk() if in_bulk else nullcontext():
        with _Signals(Game) as heard_saved:
            saved = _game(match, 1)
            saved.save(force_insert=True)
        with _Signals(Game) as heard_compiled:
            compiled = compiled_writes.insert(_game(match, 2))
    assert compiled.pk is not None and compiled.pk != saved.pk
    assert not compiled._state.adding and compiled._state.db == "default"
    assert _stored(compiled) == _stored(saved)
    assert Game.objects.get(pk=compiled.pk).created_at is not None
    assert [(s, kw) for s, _, kw in heard_compiled.calls] == [
        (s, kw) for s, _, kw in heard_saved.calls
    ]
    assert [pk for _, pk, _ in heard_compiled.calls] == [None, compiled.pk]
    assert _history(compiled) == _history(saved) and len(_history(compiled)) == 1


def test_an_update_writes_only_the_fields_named_and_signals_as_save_does():
    one, two = MatchFactory.create(), MatchFactory.create()
    for match in (one, two):
        match.score1, match.label = 3, "changed in memory only"
    with _Signals(Match) as heard_saved:
        one.save(update_fields=["score1"])
    with _Signals(Match) as heard_compiled, CaptureQueriesContext(connection) as sql:
        compiled_writes.update(two, ["score1"])
    (update,) = [q["sql"] for q in sql.captured_queries if q["sql"].startswith("UPDATE")]
    assert '"score1"' in update and '"label"' not in update
    assert Match.objects.get(pk=two.pk).score1 == 3
    assert Match.objects.get(pk=two.pk).label != "changed in memory only"
    assert [(s, kw) for s, _, kw in heard_compiled.calls] == [
        (s, kw) for s, _, kw in heard_saved.calls
    ]
    assert heard_compiled.calls[0][2]["update_fields"] == frozenset({"score1"})
    assert len(_history(two)) == len(_history(one))


def _clock(match: Match) -> MatchClock:
    return MatchClock.objects.create(
        match=match,
        preset="club",
        delay_ms=12_000,
        initial_reserve_ms=60_000,
        reserve1_ms=60_000,
        reserve2_ms=60_000,
    )


def test_an_update_sets_auto_now_fields_it_names():
    clock = _clock(MatchFactory.create())
    stale = timezone.now() - timedelta(days=1)
    MatchClock.objects.filter(pk=clock.pk).update(updated_at=stale)
    clock.turns = 4
    compiled_writes.update(clock, ["turns", "updated_at"])
    stored = MatchClock.objects.get(pk=clock.pk)
    assert stored.turns == 4 and stored.updated_at > stale
    assert stored.updated_at == clock.updated_at


def test_an_update_of_a_row_that_is_gone_fails_as_save_does():
    match = MatchFactory.create()
    Match.objects.filter(pk=match.pk).delete()
    match.score1 = 1
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        compiled_writes.update(match, ["score1"])


def test_an_expression_goes_through_save():
    clock = _clock(MatchFactory.create())
    clock.turns = F("turns") + 5
    compiled_writes.update(clock, ["turns"])
    assert MatchClock.objects.get(pk=clock.pk).turns == 5


def test_the_update_statement_is_the_queryset_update():
    match = MatchFactory.create()
    record = IdempotentRequest.objects.create(
        scope="user:1", key="k", fingerprint="f", status_code=0, body=None, headers={}
    )
    answer = {
        "status_code": 201,
        "body": {"id": match.pk, "games": [1, 2]},
        "headers": {"ETag": '"3"'},
    }
    sql, params = compiled_writes.update_statement(IdempotentRequest, record.pk, answer)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    stored = IdempotentRequest.objects.values("status_code", "body", "headers").get(pk=record.pk)
    assert stored == answer
