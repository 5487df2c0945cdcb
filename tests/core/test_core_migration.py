"""Moving Job, IdempotentRequest and DomainEvent from ``games`` to ``core`` keeps the rows.

An empty database is migrated to the state before the move (games 0013, no core
migration), rows are written through that state's models, and the database is
migrated forward through the move: the same rows must be there for ``core``'s models, the
permissions granted on them still granted.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0013_game_cube_owner_unknown"), ("core", None)]
AFTER = [("games", "0014_shared_models_moved_to_core"), ("core", "0001_shared_models_from_games")]


def _migrate(targets):
    """Migrate to ``targets`` (auth and contenttypes at their latest, as any site has
    them) and answer the models of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    graph = executor.loader.graph
    latest = graph.leaf_nodes("auth") + graph.leaf_nodes("contenttypes")
    executor.migrate(latest + targets)
    executor.loader.build_graph()
    nodes = [t for t in targets if t[1] is not None] + latest
    return executor.loader.project_state(nodes).apps


@pytest.fixture
def empty_database(tmp_path):
    """The default connection pointed at an empty database for the test, then back.

    Why not the test database: going back to games 0013 there unapplied some fifty later
    migrations and the teardown applied them again, about three minutes on SQLite
    under CI's load (issue #38, item 7). From empty, only what games 0013 needs is
    applied, then the move itself.
    """
    original = connection.settings_dict["NAME"]
    scratch = ""
    if connection.vendor == "postgresql":
        scratch = f"{original}_core_move"
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
            cursor.execute(f'CREATE DATABASE "{scratch}"')
        target = scratch
    else:
        target = str(tmp_path / "core-move.sqlite3")
    connection.close()
    connection.settings_dict["NAME"] = target
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original
        if scratch:
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{scratch}"')


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_move_are_core_rows_after_it(empty_database):
    old = _migrate(BEFORE)
    try:
        assert not any(model._meta.app_label == "core" for model in old.get_models())
        user = old.get_model("auth", "User").objects.create(username="director")
        club = old.get_model("games", "Club").objects.create(name="Old Club", slug="old-club")
        OldJob = old.get_model("games", "Job")
        retry = OldJob.objects.create(kind="ratings.recompute", club=club, dedupe_key="retry")
        lost = OldJob.objects.create(
            kind="ratings.recompute",
            club=club,
            created_by=user,
            status="failed",
            error={"code": "worker_lost"},
            retried_as=retry,
        )
        old.get_model("games", "IdempotentRequest").objects.create(
            scope=f"user:{user.pk}", key="k-1", fingerprint="f" * 64, status_code=201, body={"a": 1}
        )
        event = old.get_model("games", "DomainEvent").objects.create(
            kind="match.finished", payload={"match_id": 7}
        )
        # a permission on the old model, as an admin would have granted it
        ContentType = old.get_model("contenttypes", "ContentType")
        job_type, _ = ContentType.objects.get_or_create(app_label="games", model="job")
        permission, _ = old.get_model("auth", "Permission").objects.get_or_create(
            codename="view_job", content_type=job_type, defaults={"name": "Can view job"}
        )
        user.user_permissions.add(permission)
    finally:
        new = _migrate(AFTER)

    Job = new.get_model("core", "Job")
    assert Job._meta.db_table == "games_job"
    kept = Job.objects.get(pk=lost.pk)
    assert (kept.kind, kept.status, kept.error, kept.club.slug) == (
        "ratings.recompute",
        "failed",
        {"code": "worker_lost"},
        "old-club",
    )
    assert kept.created_by_id == user.pk and kept.retried_as_id == retry.pk
    assert Job.objects.get(pk=retry.pk).dedupe_key == "retry"
    stored = new.get_model("core", "IdempotentRequest").objects.get()
    assert (stored.scope, stored.key, stored.status_code, stored.body) == (
        f"user:{user.pk}",
        "k-1",
        201,
        {"a": 1},
    )
    assert new.get_model("core", "DomainEvent").objects.get().pk == event.pk
    # the content type moved with the model: the grant now reads core.view_job
    moved = new.get_model("contenttypes", "ContentType").objects.get(pk=job_type.pk)
    assert (moved.app_label, moved.model) == ("core", "job")
    granted = new.get_model("auth", "User").objects.get(pk=user.pk).user_permissions.get()
    assert (granted.content_type_id, granted.codename) == (job_type.pk, "view_job")
    # and a new row continues the old sequence
    assert Job.objects.create(kind="x").pk > retry.pk
