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

On PostgreSQL a row is kept as its column values, taken at the save, and each table's
rows go as one JSON parameter (``INSERT ... SELECT ... FROM jsonb_populate_recordset``):
no historical model instance, no insert query compiled per write, and a statement of
a few parameters that psycopg parses once (it parses one of more than 50 parameters
again on every execution). That was about a sixth of a score entry's CPU. A row whose
values are not plain JSON, or of a table whose historical rows somebody listens for
(simple-history's signals carry the instance), is built as simple-history builds it;
``tests/core/test_history_bulk.py`` checks that both ways store the same rows.
"""

from __future__ import annotations

import datetime
import decimal
import functools
import json
import math
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.sql import InsertQuery
from django.utils import timezone
from simple_history.models import HistoricalRecords
from simple_history.signals import (
    post_create_historical_record,
    pre_create_historical_record,
)

from core import fast_path
from core.compiled_writes import update_statement


class HistoryBatch:
    """The historical rows kept by one :func:`history_in_bulk` block, and the one
    update (:meth:`also`) to send in the same statement."""

    def __init__(self) -> None:
        self.rows: list[tuple[models.Model, dict[str, Any]]] = []
        self.columns: list[tuple[type[models.Model], dict[str, Any]]] = []
        self.update: tuple[type[models.Model], Any, dict[str, Any]] | None = None

    def also(self, model: type[models.Model], pk: Any, **values: Any) -> None:
        """Send ``model.objects.filter(pk=pk).update(**values)`` (plain values) with the
        rows, in the same statement on PostgreSQL (the request's stored idempotent
        answer: one round trip less); its SQL is written once
        (:func:`core.compiled_writes.update_statement`)."""
        self.update = (model, pk, values)


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
        if _as_columns(history_model):
            row = _column_row(self._plan(instance, history_model), instance)
            if row is not None:
                row[_HISTORY_DATE] = history_date.isoformat()
                row[_HISTORY_TYPE] = history_type
                row[_HISTORY_REASON] = reason
                row[_HISTORY_USER] = getattr(history_user, "pk", None)
                batch.columns.append((history_model, row))
                return
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

    def _plan(
        self, instance: models.Model, history_model: type[models.Model]
    ) -> list[tuple[str, str, str]] | None:
        """(attname, historical column, kind) of every field the history keeps; None if
        a field is of a kind :func:`_column_row` does not write as JSON."""
        key = (type(instance), history_model)
        plans: dict[Any, Any] = self.__dict__.setdefault("_column_plans", {})
        if key not in plans:
            opts = history_model._meta
            plan: list[tuple[str, str, str]] | None = []
            for f in self.fields_included(instance):
                kind = f.get_internal_type()
                if kind not in _JSON_KINDS or plan is None:
                    plan = None
                    continue
                plan.append(
                    (f.attname, cast("models.Field[Any, Any]", opts.get_field(f.name)).column, kind)
                )
            plans[key] = plan
        return cast(list[tuple[str, str, str]] | None, plans[key])


# -- historical rows as JSON: one parameter per table ---------------------------------------

_HISTORY_DATE, _HISTORY_TYPE = "history_date", "history_type"
_HISTORY_REASON, _HISTORY_USER = "history_change_reason", "history_user_id"

_JSON_KINDS = frozenset(
    {
        "AutoField", "BigAutoField", "SmallAutoField", "IntegerField", "BigIntegerField",
        "SmallIntegerField", "PositiveIntegerField", "PositiveBigIntegerField",
        "PositiveSmallIntegerField", "BooleanField", "CharField", "TextField", "SlugField",
        "EmailField", "URLField", "DateTimeField", "DateField", "FloatField",
        "DecimalField", "JSONField", "ForeignKey", "OneToOneField", "UUIDField",
    }
)  # fmt: skip
"""Fields whose value PostgreSQL reads back from JSON exactly (a number, a string in
the column type's input format, a JSON value for ``jsonb``)."""


def _as_columns(history_model: type[models.Model]) -> bool:
    """Whether ``history_model``'s rows may go as JSON: on PostgreSQL, with the
    historical columns simple-history makes, and nobody listening for the
    historical instance (the signals carry one, and this way builds none)."""
    return (
        _json_table(history_model)
        and not pre_create_historical_record.has_listeners(history_model)
        and not post_create_historical_record.has_listeners(history_model)
    )


@functools.cache
def _json_table(history_model: type[models.Model]) -> bool:
    names = {f.column for f in history_model._meta.concrete_fields}
    return (
        connections[DEFAULT_DB_ALIAS].vendor == "postgresql"
        and {
            _HISTORY_DATE,
            _HISTORY_TYPE,
            _HISTORY_REASON,
            _HISTORY_USER,
        }
        <= names
    )


def _column_row(
    plan: list[tuple[str, str, str]] | None, instance: models.Model
) -> dict[str, Any] | None:
    """The historical row's values by column, as JSON values; None if one is not
    plainly JSON (a NaN, a naive time, a JSON field holding other objects): that row
    is built as simple-history builds it."""
    if plan is None:
        return None
    row: dict[str, Any] = {}
    for attname, column, kind in plan:
        value = _json_value(getattr(instance, attname), kind)
        if value is _NOT_JSON:
            return None
        row[column] = value
    return row


_NOT_JSON = object()


def _json_value(value: Any, kind: str) -> Any:
    """``value`` as JSON that PostgreSQL reads back into the column exactly."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else _NOT_JSON
    if kind == "JSONField":
        return value if isinstance(value, list | dict) and _plain_json(value) else _NOT_JSON
    if isinstance(value, datetime.datetime):
        return value.isoformat() if value.tzinfo is not None else _NOT_JSON
    if isinstance(value, datetime.date | decimal.Decimal | uuid.UUID):
        return value.isoformat() if isinstance(value, datetime.date) else str(value)
    return _NOT_JSON


def _plain_json(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


@functools.cache
def _history_model(model: type[models.Model], manager_name: str) -> type[models.Model]:
    """The historical model of ``model``, found once.

    ``getattr(instance, "history")`` goes through simple-history's descriptor, which
    builds a new manager class on every access (``Manager.from_queryset``): on the hot
    write that was two class creations per entry, about 4 % of its CPU."""
    return cast(type[models.Model], getattr(model, manager_name).model)


@contextmanager
def history_in_bulk() -> Iterator[HistoryBatch]:
    """Keep the historical rows of the saves inside; insert them together at the end.

    With ``settings.FAST_PATH`` off each save writes its own row as simple-history does,
    and the block's :meth:`HistoryBatch.also` is an ORM ``update`` at its end."""
    outer = _batch.get()
    if outer is not None:  # nested: the outermost block writes them
        yield outer
        return
    if not fast_path.enabled():
        plain = HistoryBatch()
        yield plain
        if plain.update is not None:
            model, pk, values = plain.update
            model._default_manager.filter(pk=pk).update(**values)
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
    by_table: dict[type[models.Model], list[dict[str, Any]]] = {}
    for history_model, values in batch.columns:
        by_table.setdefault(history_model, []).append(values)
    for history_model, rows in by_table.items():
        statements.append((_json_insert_sql(history_model, tuple(rows[0])), [json.dumps(rows)]))
    for model, objs in by_model.items():
        opts = model._meta
        fields = [f for f in opts.concrete_fields if not f.generated and f is not opts.auto_field]
        insert = InsertQuery(model)
        insert.insert_values(fields, objs)
        statements.extend(insert.get_compiler(connection=connection).as_sql())
    if batch.update is not None:
        model, pk, values = batch.update
        statements.append(update_statement(model, pk, values, using=connection.alias))
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


@functools.cache
def _json_insert_sql(history_model: type[models.Model], columns: tuple[str, ...]) -> str:
    """``INSERT`` of historical rows given as one JSON array (``%s``), in its order.

    Written once per table: no insert query to compile per write, and one parameter
    instead of one per column and row (psycopg parses a statement of more than 50
    parameters again on every execution)."""
    q = connections[DEFAULT_DB_ALIAS].ops.quote_name
    table = q(history_model._meta.db_table)
    names = ", ".join(q(c) for c in columns)
    picked = ", ".join(f"r.{q(c)}" for c in columns)
    return (
        f"INSERT INTO {table} ({names}) SELECT {picked} FROM "
        f"jsonb_populate_recordset(NULL::{table}, %s::jsonb) WITH ORDINALITY AS r "
        "ORDER BY r.ordinality"
    )
