"""Writing rating history and standings in bulk.

The history table (``games_ratingchange``) is partitioned by rating list on
PostgreSQL (LIST partitioning, one partition per list, a default partition for lists
not yet recomputed; migration ``0010_rating_history_partitioned_by_list``). A full
recomputation therefore never deletes a list's old history row by row: it writes the
new history into a fresh table with ``COPY`` (no indexes yet, so no per-row index
upkeep), builds the indexes once, and swaps the table in as the list's partition in
the same transaction. Readers see the old history until the commit, then the new.

Elsewhere (SQLite, ``make run``) and for a recomputation from a match on, rows are
deleted and inserted as usual.

Lock order. The swap takes an exclusive lock on the whole history table at the end of
a transaction that holds its list's lock. A transaction that touched the history and
then waited for a list's lock could therefore deadlock with it (PostgreSQL would abort
one of the two), so code that writes several lists locks them all first, in
primary-key order (``apply_match``, ``import_results``), and each recomputation of
``recompute_after_change`` and ``recompute_all_lists`` is its own transaction.
"""

from __future__ import annotations

from django.db import connection

from games.models import Rating, RatingChange, RatingList
from games.rules.rating_replay import HISTORY_COLUMNS, HistoryRow, Standing

TABLE = RatingChange._meta.db_table
DEFAULT_PARTITION = f"{TABLE}_default"
#: Raised for the index builds of a fresh partition (a million-match list sorts two
#: million rows per index; the default 64 MB spills to disk).
INDEX_BUILD_MEMORY = "256MB"
#: Parallel workers per index build (PostgreSQL's default is 2): sorting two million
#: rows took 10 s alone and 5 s with two workers on the busy bench machine.
INDEX_BUILD_WORKERS = 4


def partition_name(rating_list_id: int) -> str:
    return f"{TABLE}_l{int(rating_list_id)}"


#: The history columns' PostgreSQL types, for binary ``COPY``.
COPY_TYPES = (
    "int8", "int8", "int8", "int8", "bool", "int2", "timestamptz",
    "float8", "float8", "float8", "int4", "int4",
)  # fmt: skip


def insert_changes(rows: list[HistoryRow], *, table: str = TABLE) -> None:
    """Write history rows: binary ``COPY`` on PostgreSQL (the bulk path: no text to
    format for the floats and timestamps, on either side), ``bulk_create`` elsewhere."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        columns = ", ".join(f'"{c}"' for c in HISTORY_COLUMNS)
        sql = f'COPY "{table}" ({columns}) FROM STDIN (FORMAT BINARY)'
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            copy.set_types(COPY_TYPES)
            write_row = copy.write_row
            for row in rows:
                write_row(row)
        return
    RatingChange.objects.bulk_create(
        [RatingChange(**dict(zip(HISTORY_COLUMNS, row, strict=True))) for row in rows],
        batch_size=500,
    )


RATING_COLUMNS = (
    "rating_list_id", "player_id", "rating", "experience", "matches_played",
    "last_change", "last_played_at",
)  # fmt: skip
RATING_TYPES = ("int8", "int8", "float8", "int4", "int4", "float8", "timestamptz")


def write_standings(rating_list: RatingList, standings: dict[int, Standing]) -> None:
    """Insert the ratings of the players who played (their old rows are gone)."""
    played = [(pid, s) for pid, s in standings.items() if s.matches > 0]
    if connection.vendor == "postgresql":
        table = Rating._meta.db_table
        columns = ", ".join(f'"{c}"' for c in RATING_COLUMNS)
        sql = f'COPY "{table}" ({columns}) FROM STDIN (FORMAT BINARY)'
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            copy.set_types(RATING_TYPES)
            for pid, s in played:
                copy.write_row(
                    (rating_list.pk, pid, s.rating, s.experience, s.matches, s.last_change,
                     s.last_played_at)
                )  # fmt: skip
        return
    Rating.objects.bulk_create(
        [
            Rating(
                rating_list=rating_list,
                player_id=player_id,
                rating=s.rating,
                experience=s.experience,
                matches_played=s.matches,
                last_change=s.last_change,
                last_played_at=s.last_played_at,
            )
            for player_id, s in played
        ],
        batch_size=2000,
    )


class ListHistory:
    """A list's whole history, rewritten: ``write`` batches in order, then ``finish``.

    Must be used inside the transaction that holds the list's lock.
    """

    def __init__(self, rating_list_id: int) -> None:
        self.rating_list_id = int(rating_list_id)

    @staticmethod
    def for_list(rating_list_id: int) -> ListHistory:
        if connection.vendor == "postgresql" and _partitioned():
            return FreshPartition(rating_list_id)
        return ListHistory(rating_list_id)

    def start(self) -> None:
        RatingChange.objects.filter(rating_list_id=self.rating_list_id).delete()

    def write(self, rows: list[HistoryRow]) -> None:
        insert_changes(rows)

    def finish(self) -> None:
        pass


class FreshPartition(ListHistory):
    """PostgreSQL: the new history goes into a fresh table that replaces the list's
    partition at ``finish``.

    The fresh table carries the partition's ``CHECK`` from the start (so attaching it
    needs no scan of its rows) and gets the parent's indexes after the data is in:
    the primary key, the exactly-once unique constraint and the two history indexes,
    which ``ATTACH PARTITION`` adopts as the partitions of the parent's indexes.
    """

    def __init__(self, rating_list_id: int) -> None:
        super().__init__(rating_list_id)
        self.partition = partition_name(self.rating_list_id)
        self.fresh = f"{self.partition}_new"

    def start(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                f'CREATE TABLE "{self.fresh}" (LIKE "{TABLE}" INCLUDING DEFAULTS '
                f'INCLUDING CONSTRAINTS, CONSTRAINT "{self.fresh}_list" '
                f"CHECK (rating_list_id IS NOT NULL AND rating_list_id = {self.rating_list_id}))"
            )

    def write(self, rows: list[HistoryRow]) -> None:
        insert_changes(rows, table=self.fresh)

    def finish(self) -> None:
        fresh, part, lst = self.fresh, self.partition, self.rating_list_id
        build = [
            f"SET LOCAL maintenance_work_mem = '{INDEX_BUILD_MEMORY}'",
            f"SET LOCAL max_parallel_maintenance_workers = {INDEX_BUILD_WORKERS}",
            f'ALTER TABLE "{fresh}" ADD CONSTRAINT "{fresh}_pkey" PRIMARY KEY (id, rating_list_id)',
            f'ALTER TABLE "{fresh}" ADD CONSTRAINT "{fresh}_once" '
            "UNIQUE (rating_list_id, match_id, player_id)",
            f'CREATE INDEX "{fresh}_history" ON "{fresh}" (rating_list_id, player_id, at)',
            f'CREATE INDEX "{fresh}_order" ON "{fresh}" (rating_list_id, at)',
        ]  # no ANALYZE: the index builds record the row count; autovacuum does the rest
        with connection.cursor() as cursor:
            for sql in build:
                cursor.execute(sql)
            cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [f'"{part}"'])
            (has_partition,) = cursor.fetchone()
            # The swap: the only moment the history table is locked exclusively.
            if has_partition:
                cursor.execute(f'ALTER TABLE "{TABLE}" DETACH PARTITION "{part}"')
                cursor.execute(f'DROP TABLE "{part}"')
            else:  # the list's rows so far were in the default partition
                cursor.execute(f'DELETE FROM "{DEFAULT_PARTITION}" WHERE rating_list_id = {lst}')
            cursor.execute(f'ALTER TABLE "{fresh}" RENAME TO "{part}"')
            for suffix in ("pkey", "once", "history", "order", "list"):
                kind = "CONSTRAINT" if suffix in ("pkey", "once", "list") else "INDEX"
                if kind == "INDEX":
                    cursor.execute(f'ALTER INDEX "{fresh}_{suffix}" RENAME TO "{part}_{suffix}"')
                else:
                    cursor.execute(
                        f'ALTER TABLE "{part}" RENAME CONSTRAINT "{fresh}_{suffix}" '
                        f'TO "{part}_{suffix}"'
                    )
            cursor.execute(f'ALTER TABLE "{TABLE}" ATTACH PARTITION "{part}" FOR VALUES IN ({lst})')


def _partitioned() -> bool:
    """Whether the history table is partitioned (migration 0008 applied on PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE oid = to_regclass(%s)", [f'"{TABLE}"'])
        row = cursor.fetchone()
    return row is not None and row[0] == "p"
