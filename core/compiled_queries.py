"""Hot lookups whose SQL the ORM writes once: each call only executes it.

Building a queryset with ``select_related`` and annotations and compiling it to SQL
costs about a millisecond of CPU, on every call, although the SQL is the same each
time but for a value or two. On the API's hot write (``bench score-entry``) the
match's locking query and the token check paid that on every entry: about an eighth
of the request's CPU. A :class:`CompiledQuery` asks the ORM once per database, with
marker values where the varying ones go, keeps the SQL, its parameters and the
compiler that knows how to turn a row into model instances, and from then on only
executes: rows become instances exactly as ``QuerySet`` iteration makes them
(Django's converters, ``from_db``, the ``select_related`` populators, annotations as
attributes), and the statement goes through the connection's cursor like any other
(logged, counted by ``assertNumQueries``, wrapped by ``execute_wrappers``).

Django has no public "prepared queryset"; this leans on the compiler's documented
shape in Django 5.2 (``select``, ``klass_info``, ``annotation_col_map``, as
``ModelIterable`` uses them). ``tests/core/test_compiled_queries.py`` checks every
use against the plain queryset, so a Django upgrade that changes that shape fails
there, not in production.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

from core import fast_path

M = TypeVar("M", bound=models.Model)

_MARKER_BASE = -7_340_000_000_000_000_000
"""Marker values: integers far below any key or count a column of ours holds."""


class Marker(int):
    """A stand-in value the compiled parameters are searched for: an ``int``, so that
    integer lookups accept it; a text field's lookup turns it into its digits, and
    ``RawSQL`` passes it as it is."""


def _is_marker(param: Any, marker: Marker) -> bool:
    if isinstance(param, str):
        return param == str(int(marker))
    return isinstance(param, int) and not isinstance(param, bool) and param == marker


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str], ...]  # (position in params, name of the value)
    compiler: SQLCompiler
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    annotations: tuple[tuple[str, int], ...]
    for_update: bool
    converters: dict[int, Any]  # as results_iter finds them, found once


class CompiledQuery(Generic[M]):
    """``build(**markers)`` returns the queryset; :meth:`rows` runs its SQL with values.

    ``names`` are the keyword arguments ``build`` takes: each gets a :class:`Marker`,
    which must appear exactly once among the compiled parameters (a value that the
    ORM transforms, e.g. through a lookup that is not plain equality, cannot be a
    name: compiling fails loudly)."""

    def __init__(self, build: Callable[..., models.QuerySet[M]], *names: str) -> None:
        self._build = build
        self._names = names
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def rows(self, *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[M]:
        """The rows for ``values`` (one per name), as model instances."""
        if not fast_path.enabled():
            return list(self._build(**values).using(using))
        compiled = self._compiled.get(using) or self._compile(using)
        connection = connections[using]
        if compiled.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for position, name in compiled.slots:
            params[position] = values[name]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched = cursor.fetchall()
        rows = (
            compiled.compiler.apply_converters(fetched, compiled.converters)
            if compiled.converters
            else fetched
        )
        return [self._instance(compiled, using, row) for row in rows]

    def first(self, *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> M | None:
        found = self.rows(using=using, **values)
        return found[0] if found else None

    @staticmethod
    def _instance(compiled: _Compiled, using: str, row: Sequence[Any]) -> M:
        model = compiled.compiler.klass_info["model"]
        obj = model.from_db(using, compiled.init_list, row[compiled.start : compiled.end])
        for populator in compiled.populators:
            populator.populate(row, obj)
        for name, position in compiled.annotations:
            setattr(obj, name, row[position])
        return obj  # type: ignore[no-any-return]

    def _compile(self, using: str) -> _Compiled:
        with self._lock:
            if using in self._compiled:
                return self._compiled[using]
            markers = {name: Marker(_MARKER_BASE - i) for i, name in enumerate(self._names)}
            queryset = self._build(**markers)
            compiler = queryset.query.get_compiler(using=using)
            sql, params = compiler.as_sql()  # also fills select, klass_info, annotations
            if compiler.has_extra_select or compiler.klass_info is None:
                raise ValueError("a compiled query selects one model and orders by its columns")
            slots = []
            for name, marker in markers.items():
                found = [i for i, p in enumerate(params) if _is_marker(p, marker)]
                if len(found) != 1:
                    raise ValueError(f"{name!r} appears {len(found)} times in the compiled query")
                slots.append((found[0], name))
            select_fields = compiler.klass_info["select_fields"]
            start, end = select_fields[0], select_fields[-1] + 1
            compiled = _Compiled(
                sql=sql,
                params=tuple(params),
                slots=tuple(slots),
                compiler=compiler,
                start=start,
                end=end,
                init_list=[col[0].target.attname for col in compiler.select[start:end]],
                populators=get_related_populators(compiler.klass_info, compiler.select, using),
                annotations=tuple(compiler.annotation_col_map.items()),
                # as Django refuses it: only where the database has FOR UPDATE
                for_update=bool(queryset.query.select_for_update)
                and connections[using].features.has_select_for_update,
                converters=compiler.get_converters(
                    [s[0] for s in compiler.select[0 : compiler.col_count]]
                ),
            )
            self._compiled[using] = compiled
            return compiled
