"""A real Celery worker for the tests marked ``integration``.

It runs as a subprocess against the test database (PostgreSQL) and Redis, so these
tests need ``DATABASE_URL`` and ``REDIS_URL``; without them they are skipped. Tests
that use it must commit their writes (``django_db(transaction=True)``) so the worker
sees them, then poll the database for the outcome.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}{port}/{s['NAME']}"


@pytest.fixture(scope="session")
def live_worker(django_db_setup, django_db_blocker) -> Iterator[subprocess.Popen]:
    """Start ``celery worker`` on the test database; stop it after the session."""
    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.skip("integration tests need DATABASE_URL (PostgreSQL) and REDIS_URL")
    from config.celery import app

    with django_db_blocker.unblock():
        env = dict(os.environ)
        env.update(
            {
                "DATABASE_URL": _database_url(),
                "CELERY_TASK_ALWAYS_EAGER": "false",
                "DJANGO_SETTINGS_MODULE": "config.settings",
            }
        )
        app.control.purge()
        (ROOT / ".pytest_cache").mkdir(exist_ok=True)
        log = open(ROOT / ".pytest_cache" / "worker.log", "w")  # noqa: SIM115
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "prefork",
                "--concurrency",
                "1",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"test-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5):
            if worker.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start; see {log.name}")
        yield worker
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()


@pytest.fixture
def wait_for() -> Callable[..., object]:
    """Poll ``check()`` until it returns a truthy value (the worker is asynchronous)."""

    def wait(check: Callable[[], object], timeout: float = 30, what: str = "the worker") -> object:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out after {timeout}s waiting for {what}")

    return wait
