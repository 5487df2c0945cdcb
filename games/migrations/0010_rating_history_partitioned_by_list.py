"""PostgreSQL: partition the rating history by rating list (LIST partitioning).

A full recomputation then replaces a list's partition with a fresh table written by
``COPY`` (``games.services.ratings.history.FreshPartition``) instead of deleting and
re-inserting its rows one by one. Every existing list gets its partition here; lists
created later write to the default partition until their first full recomputation.

PostgreSQL requires a partitioned table's unique constraints to include the partition
key, so the primary key becomes (id, rating_list_id); ``id`` stays unique (one
sequence, cached by 1000 per session, so ids are unique but not in insertion order)
and stays Django's primary key. No change to the model state; a no-op on
other databases.
"""

from django.db import migrations

TABLE = "games_ratingchange"
OLD = "games_ratingchange_unpartitioned"
COLUMNS = (
    "id, won, length, at, rating_before, rating_after, change, experience_before, "
    "experience_after, match_id, opponent_id, player_id, rating_list_id"
)


def partition(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE oid = to_regclass(%s)", [TABLE])
        if cursor.fetchone() == ("p",):
            return
        cursor.execute(f"SELECT coalesce(max(id), 0) FROM {TABLE}")
        (last_id,) = cursor.fetchone()
        for sql in (
            f"ALTER TABLE {TABLE} RENAME TO {OLD}",
            f"ALTER TABLE {OLD} DROP CONSTRAINT {TABLE}_pkey",
            f"ALTER TABLE {OLD} DROP CONSTRAINT match_applied_once_per_list",
            "DROP INDEX rating_history",
            "DROP INDEX rating_change_order",
            f"ALTER TABLE {OLD} ALTER COLUMN id DROP IDENTITY",
            # Cached per session: a recomputation writes millions of rows, and
            # nextval() going to the shared sequence for each cost a third of the COPY.
            f"CREATE SEQUENCE {TABLE}_id_seq AS bigint CACHE 1000",
            f"CREATE TABLE {TABLE} (LIKE {OLD} INCLUDING CONSTRAINTS) "
            "PARTITION BY LIST (rating_list_id)",
            f"ALTER TABLE {TABLE} ALTER COLUMN id SET DEFAULT nextval('{TABLE}_id_seq')",
            f"ALTER SEQUENCE {TABLE}_id_seq OWNED BY {TABLE}.id",
            f"ALTER TABLE {TABLE} ADD CONSTRAINT {TABLE}_pkey PRIMARY KEY (id, rating_list_id)",
            f"ALTER TABLE {TABLE} ADD CONSTRAINT match_applied_once_per_list "
            "UNIQUE (rating_list_id, match_id, player_id)",
            f"CREATE INDEX rating_history ON {TABLE} (rating_list_id, player_id, at)",
            f"CREATE INDEX rating_change_order ON {TABLE} (rating_list_id, at)",
            f"CREATE TABLE {TABLE}_default PARTITION OF {TABLE} DEFAULT",
        ):
            cursor.execute(sql)
        cursor.execute("SELECT id FROM games_ratinglist ORDER BY id")
        for (list_id,) in cursor.fetchall():
            cursor.execute(
                f"CREATE TABLE {TABLE}_l{int(list_id)} PARTITION OF {TABLE} "
                f"FOR VALUES IN ({int(list_id)})"
            )
        cursor.execute(f"INSERT INTO {TABLE} ({COLUMNS}) SELECT {COLUMNS} FROM {OLD}")
        cursor.execute(f"DROP TABLE {OLD}")
        cursor.execute(f"SELECT setval('{TABLE}_id_seq', %s, %s)", [max(last_id, 1), last_id > 0])


class Migration(migrations.Migration):
    dependencies = [("games", "0009_match_table")]

    # Not reversed: a partitioned table serves the unchanged model as well.
    operations = [migrations.RunPython(partition, migrations.RunPython.noop)]
