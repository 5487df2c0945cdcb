"""The one locked-write helper every app uses, the one lock order, and ``If-Match``.

A write to a versioned row (a match, a chouette session, a tournament) is always the
same four steps inside one transaction: **lock** the row (``SELECT ... FOR UPDATE``),
check the caller may write it, **check the version** the caller read (``If-Match``;
412 when stale), **snapshot** what listeners compare against, write, then bump the
version and **announce** what changed. :class:`LockedWrite` does them in that order,
so no app keeps its own copy.

Lock order (documented once, followed everywhere): **matches before their
tournament, then the tournament's own rows (its bracket slots); several rows of one
table in primary-key order.** Only the row itself is locked
(``FOR UPDATE OF`` its table), never the rows joined to it for reading (a match's
club and players): otherwise every score entry of a club would queue on the club's
row, and a join's lock order is the planner's, not ours. A score entry locks its match and
then (through the result listener) the tournament: a new result only ``FOR KEY SHARE``
(:func:`share_row`: shared by every result of the event, excluded only by a
director's ``FOR UPDATE``), then the bracket slots it touches (:func:`lock_rows`);
a correction ``FOR UPDATE``. A tournament write that touches
matches (a redraw, a swap) locks those matches first, in primary-key order
(:func:`lock_rows`), and then the tournament. A write that discovers a match to void
only once it holds the tournament (a bracket replacing an unstarted match after a
result) must not wait for it: it uses :func:`try_lock_row` (``SKIP LOCKED``) and
leaves the match alone when someone else is writing it. With every wait going
match → tournament → its slots, two writes can never wait on each other in a cycle, so
PostgreSQL never has a deadlock to break (which the API would report as a 503).
See ``docs/development.md`` (the write path) for the whole order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar

from django.db import connection, models

from core import compiled_writes, fast_path, live
from core.errors import N_, RuleViolation, StaleVersionError


class Versioned(Protocol):
    """A row with an optimistic-concurrency version (its ETag)."""

    pk: Any
    version: int

    def save(self, *args: Any, **kwargs: Any) -> None: ...


M = TypeVar("M", bound=models.Model)
_MISSING = object()


# --- If-Match -------------------------------------------------------------------------------


def parse_if_match(header: str | None, *, noun: str) -> int | None:
    """The version a client read, from an ``If-Match`` header (None: no precondition).

    Accepts ``"3"``, ``3`` and the weak form ``W/"3"``; ``*`` and an empty header set no
    precondition. Anything else is a 412 ``if_match_invalid`` naming the header.
    """
    if not header or header.strip() == "*":
        return None
    value = header.strip().removeprefix("W/").strip('"')
    try:
        return int(value)
    except ValueError:
        raise StaleVersionError(
            "if_match_invalid",
            N_('If-Match must be the %(noun)s\'s ETag, e.g. "3".', noun=noun),
            "If-Match",
        ) from None


def expected_version(request: Any, *, noun: str) -> int | None:
    """:func:`parse_if_match` of a request's ``If-Match`` header."""
    return parse_if_match(request.headers.get("If-Match"), noun=noun)


# --- locks ----------------------------------------------------------------------------------


Rows = models.QuerySet[M] | Callable[[Any], M | None]
"""Where a write's row comes from: a queryset (locked here), or a function of the key
that locks and returns the row itself (a :class:`core.compiled_queries.CompiledQuery`
of the same ``SELECT ... FOR UPDATE OF``, for the hot write)."""


def locking_query(queryset: models.QuerySet[M], pk: Any) -> models.QuerySet[M]:
    """The query that locks row ``pk`` of ``queryset``: ``FOR UPDATE OF`` its own table
    only (see the lock order above), and no ``ORDER BY`` (one row by its key needs
    none, and compiling the model's ordering cost CPU on every write)."""
    return queryset.select_for_update(of=("self",)).filter(pk=pk).order_by()[:1]


def lock_row(rows: Rows[M], pk: Any, *, noun: str, field: str | object | None = _MISSING) -> M:
    """The row ``pk`` of ``rows``, locked until the transaction ends.

    A missing row is a 400 ``<noun>_not_found`` naming ``field`` (default: the noun).
    """
    if isinstance(rows, models.QuerySet):
        found = list(locking_query(rows, pk))
        row = found[0] if found else None
    else:
        row = rows(pk)
    if row is None:
        raise RuleViolation(
            f"{noun}_not_found",
            N_("There is no %(noun)s %(pk)s.", noun=noun, pk=pk),
            field=noun if field is _MISSING else field,  # type: ignore[arg-type]
        )
    return row


def lock_rows(queryset: models.QuerySet[M], pks: Iterable[Any]) -> list[M]:
    """Lock several rows in primary-key order (the one order for rows of one table)."""
    wanted = sorted(set(pks))
    if not wanted:
        return []
    return list(queryset.select_for_update(of=("self",)).filter(pk__in=wanted).order_by("pk"))


def try_lock_row(queryset: models.QuerySet[M], pk: Any) -> M | None:
    """Lock row ``pk`` only if nobody else holds it (``SKIP LOCKED``); None otherwise.

    For a lock taken against the documented order (a match, while holding its
    tournament): it never waits, so it can never close a cycle. A row this transaction
    already holds is returned.
    """
    return queryset.select_for_update(skip_locked=True, of=("self",)).filter(pk=pk).first()


def share_row(model: type[models.Model], pk: Any) -> None:
    """Hold row ``pk`` against writers that lock it ``FOR UPDATE`` (``FOR KEY SHARE``).

    Shared with every other holder and with plain ``UPDATE`` statements of the row's other
    columns: the results of one event all hold their tournament this way, so a
    director's write (``FOR UPDATE``) waits for them and they for it, but they never
    wait for each other. Without row locks (SQLite) writers take turns anyway.
    """
    if connection.vendor != "postgresql":
        return
    if not fast_path.enabled():  # the ORM has no FOR KEY SHARE: the stronger lock it has
        list(model._default_manager.select_for_update(no_key=True).filter(pk=pk).values("pk"))
        return
    table = connection.ops.quote_name(model._meta.db_table)
    column = connection.ops.quote_name(model._meta.pk.column)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE {column} = %s FOR KEY SHARE", [pk])


def try_share_row(model: type[models.Model], pk: Any) -> bool:
    """Lock row ``pk`` for a plain ``UPDATE`` (``FOR NO KEY UPDATE``) only if nobody
    holds it so (``SKIP LOCKED``): True when taken (or held already by this
    transaction; always without row locks, on SQLite). Shared with :func:`share_row`'s
    holders, so it never waits for them."""
    if connection.vendor != "postgresql":
        return True
    held = model._default_manager.select_for_update(no_key=True, skip_locked=True)
    return bool(list(held.filter(pk=pk).values("pk")))


def serialise(topic: str) -> None:
    """Let one transaction at a time past this point for ``topic`` until it commits.

    For the checks no unique index can make: a new club's name must not read like any
    other club's (a look-alike is a set of skeletons, not one key), so two founders
    naming "Alpha" at once must not both pass the check before either writes. On
    PostgreSQL a transaction-scoped advisory lock on the topic's hash; SQLite's
    transactions are ``IMMEDIATE`` (``config.settings``), so every writer already
    waits for the one before it.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [topic])


def check_version(row: Versioned, expected: int | None, *, noun: str) -> None:
    """412 ``stale_version`` when the caller read an older version than the row's."""
    if expected is not None and expected != row.version:
        raise StaleVersionError(
            "stale_version",
            N_(
                "The %(noun)s changed since you read it (your version %(expected)s, "
                "now %(version)s): reload and try again.",
                noun=noun,
                expected=expected,
                version=row.version,
            ),
            field="If-Match",
        )


def bump(row: Versioned, **save_kwargs: Any) -> None:
    """Count one more write: the new version is the row's new ETag; the pages showing
    the row hear of it once the write commits (:func:`core.live.row_changed`)."""
    row.version += 1
    if set(save_kwargs) == {"update_fields"}:  # the locked write's: SQL written once
        compiled_writes.update(row, save_kwargs["update_fields"])  # type: ignore[arg-type]
    else:
        row.save(**save_kwargs)
    live.row_changed(row)


# --- the write --------------------------------------------------------------------------------

S = TypeVar("S")


class LockedWrite(Generic[M, S]):
    """One versioned write: lock → authorize → version check → snapshot ... commit.

    ``authorize(row)`` runs before the version check (a stranger is told 403, not 412)
    and its return value is kept as :attr:`authorized` (e.g. "is a director").
    ``snapshot(row)`` is taken after the checks; :meth:`commit` bumps the version,
    saves, and calls ``announce(row, snapshot)`` so listeners can compare.
    Call it inside a transaction (the services are ``@transaction.atomic``).
    """

    def __init__(
        self,
        rows: Rows[M],
        pk: Any,
        *,
        noun: str,
        expected_version: int | None = None,
        authorize: Callable[[M], Any] | None = None,
        snapshot: Callable[[M], S] | None = None,
        field: str | object | None = _MISSING,
    ) -> None:
        self.noun = noun
        self.row: M = lock_row(rows, pk, noun=noun, field=field)
        self._loaded = _field_values(self.row)
        self.authorized: Any = authorize(self.row) if authorize is not None else None
        check_version(self.row, expected_version, noun=noun)  # type: ignore[arg-type]
        self.before: S | None = snapshot(self.row) if snapshot is not None else None

    def commit(
        self,
        announce: Callable[[M, S], Any] | None = None,
        **save_kwargs: Any,
    ) -> M:
        """Bump the version and save, then announce the change (still under the lock).

        Only the fields that changed since the lock are written (and the version):
        the row cannot have changed underneath, so the rest are already in the
        database, and a shorter ``UPDATE`` is cheaper to build and to run."""
        if "update_fields" not in save_kwargs:
            save_kwargs["update_fields"] = _changed_fields(self.row, self._loaded)
        bump(self.row, **save_kwargs)  # type: ignore[arg-type]
        if announce is not None:
            announce(self.row, self.before)  # type: ignore[arg-type]
        return self.row


def _field_values(row: models.Model) -> dict[str, Any]:
    """The row's stored values as loaded, by field name (for :func:`_changed_fields`)."""
    return {f.name: getattr(row, f.attname) for f in row._meta.concrete_fields}


def _changed_fields(row: models.Model, loaded: dict[str, Any]) -> list[str]:
    """The fields to write: those whose value changed, those that may have changed in
    place (a JSON dict or list), those set on every save (``auto_now``), the version."""
    names = ["version"]
    for f in row._meta.concrete_fields:
        if f.primary_key or f.name == "version":
            continue
        value = getattr(row, f.attname)
        if (
            value != loaded[f.name]
            or isinstance(value, dict | list)
            or getattr(f, "auto_now", False)
        ):
            names.append(f.name)
    return names
