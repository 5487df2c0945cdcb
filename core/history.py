"""Audit rows written in bulk: all the history rows of one write in one statement.

django-simple-history writes one historical row per ``save()``, each its own
``INSERT``: a score entry (a game created, its match updated) paid two round trips for
its audit trail. Models whose ``history`` is :class:`BatchedHistoricalRecords` behave
exactly like that, except inside :func:`history_in_bulk`: there each save's historical
row is built at the moment of the save (same values, ``history_date``, user and change
reason as simple-history gives it) and kept, and when the block ends they are all
inserted together, on PostgreSQL in one statement (one ``INSERT`` per table chained
with ``WITH``), elsewhere one ``INSERT`` per table; an update the block's owner
adds (:meth:`HistoryBatch.also`: the API's stored idempotent answer) rides in the
same statement. An error inside the block writes none of them (the transaction it
is in rolls back anyway). Nothing reads a match's history in the middle of its own
write (the audit trail is a read of its own), so writing it at the end changes no
answer; each row keeps the ``history_date`` of its save, so the trail's order holds.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.sql import InsertQuery, UpdateQuery
from django.utils import timezone
from simple_history.models import HistoricalRecords
from simple_history.signals import (
    post_create_historical_record,
    pre_create_historical_record,
)


class HistoryBatch:
    """The historical rows kept by one :func:`history_in_bulk` block, and the one
    update (:meth:`also`) to send in the same statement."""

    def __init__(self) -> None:
        self.rows: list[tuple[models.Model, dict[str, Any]]] = []
        self.update: tuple[models.QuerySet[Any], dict[str, Any]] | None = None

    def also(self, queryset: models.QuerySet[Any], **values: Any) -> None:
        """Send ``queryset.update(**values)`` with the rows, in the same statement on
        PostgreSQL (the request's stored idempotent answer: one round trip less)."""
        self.update = (queryset, values)


_batch: ContextVar[HistoryBatch | None] = ContextVar("history_batch", default=None)


class BatchedHistoricalRecords(HistoricalRecords):  # type: ignore[misc]  # simple-history has no types
    """simple-history's ``HistoricalRecords``, whose rows :func:`history_in_bulk` batches."""

    def create_historical_record(
        self, instance: models.Model, history_type: str, using: str | None = None
    ) -> None:
        batch = _batch.get()
        if batch is None or self.m2m_fields or using not in (None, DEFAULT_DB_ALIAS):
            super().create_historical_record(instance, history_type, using=using)
            return
        # As HistoricalRecords.create_historical_record builds it, without the save.
        history_date = getattr(instance, "_history_date", timezone.now())
        history_user = self.get_history_user(instance)
        reason = self.get_change_reason_for_object(instance, history_type, using)
        history_model = _history_model(type(instance), self.manager_name)
        attrs = {f.attname: getattr(instance, f.attname) for f in self.fields_included(instance)}
        history_instance = history_model(
            history_date=history_date,
            history_type=history_type,
            history_user=history_user,
            history_change_reason=reason,
            **attrs,
        )
        signal = {
            "instance": instance,
            "history_date": history_date,
            "history_user": history_user,
            "history_change_reason": reason,
            "history_instance": history_instance,
            "using": using,
        }
        pre_create_historical_record.send(sender=history_model, **signal)
        batch.rows.append((history_instance, signal))


@functools.cache
def _history_model(model: type[models.Model], manager_name: str) -> type[models.Model]:
    """The historical model of ``model``, found once.

    ``getattr(instance, "history")`` goes through simple-history's descriptor, which
    builds a new manager class on every access (``Manager.from_queryset``): on the hot
    write that was two class creations per entry, about 4 % of its CPU."""
    return cast(type[models.Model], getattr(model, manager_name).model)


@contextmanager
def history_in_bulk() -> Iterator[HistoryBatch]:
    """Keep the historical rows of the saves inside; insert them together at the end."""
    outer = _batch.get()
    if outer is not None:  # nested: the outermost block writes them
        yield outer
        return
    batch = HistoryBatch()
    token = _batch.set(batch)
    try:
        yield batch
    finally:
        _batch.reset(token)
    _write(batch)
    for row, signal in batch.rows:
        post_create_historical_record.send(sender=type(row), **signal)


def _write(batch: HistoryBatch) -> None:
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.in_atomic_block and connection.needs_rollback:
        return  # the transaction is being rolled back (a 5xx answer): nothing to keep
    by_model: dict[type[models.Model], list[models.Model]] = {}
    for row, _ in batch.rows:
        by_model.setdefault(type(row), []).append(row)
    statements = []
    for model, objs in by_model.items():
        opts = model._meta
        fields = [f for f in opts.concrete_fields if not f.generated and f is not opts.auto_field]
        insert = InsertQuery(model)
        insert.insert_values(fields, objs)
        statements.extend(insert.get_compiler(connection=connection).as_sql())
    if batch.update is not None:
        queryset, values = batch.update
        # the stubs type chain(klass) as a plain Query; it returns a klass
        update = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
        update.add_update_values(values)
        statements.append(update.get_compiler(connection=connection).as_sql())
    if not statements:
        return
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or len(statements) == 1:
            for sql, params in statements:
                cursor.execute(sql, params)
            return
        *first, (last_sql, last_params) = statements
        sql = "WITH " + ", ".join(f"h{i} AS ({s})" for i, (s, _) in enumerate(first))
        params = [p for _, ps in first for p in ps]
        cursor.execute(f"{sql} {last_sql}", [*params, *last_params])
