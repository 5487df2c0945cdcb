"""Start Boxcars under gunicorn on a PostgreSQL benchmark database, and stop it."""

from __future__ import annotations

import contextlib
import os
import signal
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


BENCH_REDIS_URL = "redis://127.0.0.1:6379/2"


def bench_env(*, with_worker: bool = False, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": bench_database_url(),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "DEBUG": "false",
            "LOG_LEVEL": "WARNING",
            "CONN_MAX_AGE": "60",
            # The benchmarks measure the service, not its per-user rate limits.
            "THROTTLE_SCORE": "1000000/min",
            "LIVE_STREAMS_PER_ADDRESS": "0",  # thousands of viewers from one host
            "CLUBS_PER_USER": "0",
        }
    )
    env.pop("REDIS_URL", None)
    if with_worker:
        env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", BENCH_REDIS_URL)
        env["CELERY_TASK_ALWAYS_EAGER"] = "false"
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


class CeleryWorker:
    """A real Celery worker on the bench database and the bench Redis database, that a
    scenario can SIGKILL whole (main process, then its orphans) and start again."""

    def __init__(self, *, beat: bool = False, **extra_env: str) -> None:
        self.beat = beat
        self.extra_env = extra_env
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        args = [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "--concurrency", "1", "--loglevel", "WARNING",
            "--without-gossip", "--without-mingle",
            "-n", f"bench-{os.getpid()}-{self.starts}@%h",
        ]  # fmt: skip
        if self.beat:
            schedule = ROOT / ".pytest_cache" / f"bench-beat-{os.getpid()}-{self.starts}"
            schedule.parent.mkdir(exist_ok=True)
            args += ["-B", "--schedule", str(schedule)]
        self.process = subprocess.Popen(
            args, cwd=ROOT, env=bench_env(with_worker=True, **self.extra_env)
        )
        time.sleep(3)

    def _descendants(self) -> list[int]:
        assert self.process is not None
        found, todo = [], [self.process.pid]
        while todo:
            pid = todo.pop()
            for task in Path(f"/proc/{pid}/task").glob("*/children"):
                with contextlib.suppress(OSError):
                    todo.extend(int(child) for child in task.read_text().split())
            if pid != self.process.pid:
                found.append(pid)
        return found

    def kill(self) -> None:
        """SIGKILL the main process, then the pool child and beat it leaves orphaned
        (as when the machine running the worker is lost)."""
        assert self.process is not None
        orphans = self._descendants()
        self.process.kill()
        self.process.wait(timeout=10)
        for pid in orphans:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        orphans = self._descendants()
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for pid in orphans:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self.process = None


@contextlib.contextmanager
def celery_worker(*, beat: bool = False, **extra_env: str) -> Iterator[CeleryWorker]:
    """A real Celery worker on the bench database and the bench Redis database."""
    worker = CeleryWorker(beat=beat, **extra_env)
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


@contextlib.contextmanager
def gunicorn(
    workers: int = 2,
    *,
    with_worker: bool = False,
    threads: int = 0,
    port: int | None = None,
    **extra_env: str,
) -> Iterator[tuple[str, int]]:
    """Serve the app with gunicorn; yields (host, port) once /healthz answers.

    ``threads``: gthread workers with that many threads each (as ``docker-compose.yml``
    runs it), else sync workers; ``port``: this one, for a machine where each user has
    their own ports (default a free one)."""
    port = port or _free_port()
    threading = ["--worker-class", "gthread", "--threads", str(threads)] if threads else []
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
            *threading,
        ],
        cwd=ROOT,
        env=bench_env(with_worker=with_worker, **extra_env),
    )
    try:
        deadline = time.monotonic() + 120  # a busy machine starts slowly
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
        try:
            process.wait(timeout=60)  # a busy machine stops slowly; never leave it behind
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
