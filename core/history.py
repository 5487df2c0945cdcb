"""Audit rows written in bulk: all the history rows of one write in one statement.

django-simple-history writes one historical row per ``save()``, each its own
``INSERT``: a score entry (a game created, its match updated) paid two round trips for
its audit trail. Models whose ``history`` is :class:`BatchedHistoricalRecords` behave
exactly like that, except inside :func:`history_in_bulk`: there each save's historical
row is built at the moment of the save (same values, ``history_date``, user and change
reason as simple-history gives it) and kept, and when the block ends they are all
inserted together, on PostgreSQL in one statement (one ``INSERT`` per table chained
with ``WITH``), elsewhere one ``INSERT`` per table. An error inside the block writes
none of them (the transaction it is in rolls back anyway).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.sql import InsertQuery
from django.utils import timezone
from simple_history.models import HistoricalRecords
from simple_history.signals import (
    post_create_historical_record,
    pre_create_historical_record,
)

_batch: ContextVar[list[tuple[models.Model, dict[str, Any]]] | None] = ContextVar(
    "history_batch", default=None
)


class BatchedHistoricalRecords(HistoricalRecords):
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
        manager = getattr(instance, self.manager_name)
        attrs = {f.attname: getattr(instance, f.attname) for f in self.fields_included(instance)}
        history_instance = manager.model(
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
        pre_create_historical_record.send(sender=manager.model, **signal)
        batch.append((history_instance, signal))


@contextmanager
def history_in_bulk() -> Iterator[None]:
    """Keep the historical rows of the saves inside; insert them together at the end."""
    if _batch.get() is not None:  # nested: the outermost block writes them
        yield
        return
    batch: list[tuple[models.Model, dict[str, Any]]] = []
    token = _batch.set(batch)
    try:
        yield
    finally:
        _batch.reset(token)
    _insert([row for row, _ in batch])
    for row, signal in batch:
        post_create_historical_record.send(sender=type(row), **signal)


def _insert(rows: list[models.Model]) -> None:
    if not rows:
        return
    connection = connections[DEFAULT_DB_ALIAS]
    by_model: dict[type[models.Model], list[models.Model]] = {}
    for row in rows:
        by_model.setdefault(type(row), []).append(row)
    statements = []
    for model, objs in by_model.items():
        opts = model._meta
        fields = [f for f in opts.concrete_fields if not f.generated and f is not opts.auto_field]
        query = InsertQuery(model)
        query.insert_values(fields, objs)
        statements.extend(query.get_compiler(connection=connection).as_sql())
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or len(statements) == 1:
            for sql, params in statements:
                cursor.execute(sql, params)
            return
        *first, (last_sql, last_params) = statements
        sql = "WITH " + ", ".join(f"h{i} AS ({s})" for i, (s, _) in enumerate(first))
        params = [p for _, ps in first for p in ps]
        cursor.execute(f"{sql} {last_sql}", [*params, *last_params])
