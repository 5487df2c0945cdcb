"""Start Boxcars under gunicorn on a PostgreSQL benchmark database, and stop it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/boxcars_bench"


def bench_database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)


def ensure_database(url: str) -> None:
    """Create the benchmark database if it is missing."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def bench_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": bench_database_url(),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "DEBUG": "false",
            "LOG_LEVEL": "WARNING",
            "CONN_MAX_AGE": "60",
        }
    )
    env.pop("REDIS_URL", None)
    env.update(extra)
    return env


def setup_django() -> None:
    """Point this process's Django at the benchmark database (for preparing data)."""
    url = bench_database_url()
    ensure_database(url)
    os.environ.update(bench_env())
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def gunicorn(workers: int = 2) -> Iterator[tuple[str, int]]:
    """Serve the app with gunicorn; yields (host, port) once /healthz answers."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=bench_env(),
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("gunicorn did not come up") from None
                time.sleep(0.2)
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=10)
