"""The test database, migrated once per set of migrations, not once per process.

Why: every pytest process used to create its test database by running all of the
project's migrations (about 24 s of CPU on this 2-core machine, 31-108 s of wall time
under the suite's load; issue #38), and a run has four or more such processes (three
xdist workers, the PostgreSQL step, the nested xdist run of the grouping test). Now the
first process to need the database migrates a **template** once, under a file lock, and
every process starts from a copy of it; Django's own migrate then finds nothing to do.

The template's name carries a hash of every migration file and of Django's version, so
a new or edited migration makes a new template: a stale schema is never reused. The
migration itself is the real one (``manage.py migrate`` in a subprocess, data
migrations included), so the tests still prove the migrations run.

- **SQLite** (the newcomer's ``make test``): the template is a file; each process gets
  its own copy (in ``/dev/shm`` where it exists, so it costs what a database in memory
  would), and Django reuses it (``keepdb``) instead of making one.
- **PostgreSQL**: the template is a database; Django creates each test database with
  ``CREATE DATABASE ... TEMPLATE`` (its ``TEST["TEMPLATE"]`` setting).

``BOXCARS_TEST_DB_TEMPLATE=0`` turns it off (every process migrates, as before).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]


def enabled() -> bool:
    return os.environ.get("BOXCARS_TEST_DB_TEMPLATE", "1") != "0"


def migrations_key() -> str:
    """A short hash of every migration file of the project and of Django's version."""
    import django

    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _scratch() -> Path:
    """Where templates and copies live: memory-backed where the machine has it."""
    shm = Path("/dev/shm")
    base = shm if shm.is_dir() and os.access(shm, os.W_OK) else Path(tempfile.gettempdir())
    folder = base / "boxcars-test-databases"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def _locked(name: str):
    """One process at a time builds a given template; the others wait for it."""
    with open(_scratch() / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _migrate(database_url: str) -> None:
    """The project's real migrations, in a process of their own, against ``database_url``."""
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def sqlite_copy(worker: str) -> Path:
    """A fresh copy of the migrated SQLite template for this process."""
    key = migrations_key()
    template = _scratch() / f"template-{key}.sqlite3"
    with _locked(template.name):
        if not template.exists():
            building = template.with_suffix(".building")
            building.unlink(missing_ok=True)
            _migrate(f"sqlite:///{building}")
            _checkpoint(building)
            building.rename(template)
    copy = _scratch() / f"test-{key}-{worker}-{os.getpid()}.sqlite3"
    remove_copy(copy)
    shutil.copyfile(template, copy)
    return copy


def remove_copy(copy: Path) -> None:
    """A process's copy and its WAL files, once its tests are done (Django keeps it)."""
    for path in (copy, copy.with_name(copy.name + "-wal"), copy.with_name(copy.name + "-shm")):
        path.unlink(missing_ok=True)


def _checkpoint(path: Path) -> None:
    """Fold the WAL into the file, so that copying the one file copies everything."""
    import sqlite3

    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("PRAGMA journal_mode=DELETE")
    for extra in ("-wal", "-shm"):
        Path(str(path) + extra).unlink(missing_ok=True)


def postgres_template(settings_dict: dict[str, Any]) -> str:
    """The name of a migrated template database on the tests' PostgreSQL server."""
    import psycopg

    name = f"boxcars_template_{migrations_key()}"
    params = {
        "host": settings_dict.get("HOST") or None,
        "port": settings_dict.get("PORT") or None,
        "user": settings_dict.get("USER") or None,
        "password": settings_dict.get("PASSWORD") or None,
    }
    with _locked(name):
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
            ready = admin.execute(
                "SELECT datistemplate FROM pg_database WHERE datname = %s", [name]
            ).fetchone()
            if ready and ready[0]:
                return name
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')  # a build that died
            admin.execute(f'CREATE DATABASE "{name}"')
        url = urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}")
        _migrate(urlunsplit(url))
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
            admin.execute(f'ALTER DATABASE "{name}" WITH IS_TEMPLATE true')
    return name
