"""Throwaway services for the fault tests: our own Redis, PostgreSQL and Celery worker.

Other test runs share the machine's PostgreSQL (5432) and Redis (6379), so the fault
tests never stop or reconfigure those: they start their own instances on free
loopback ports and break those. Every fixture skips cleanly when its tool is missing
(``redis-server``, ``initdb``/``pg_ctl``, a ``postgres`` OS user when run as root).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / ".pytest_cache" / "faults"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(check: Callable[[], object], timeout: float, what: str) -> object:
    """Poll ``check()`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def process_is_gone(pid: int) -> bool:
    """True once ``pid`` no longer runs (a zombie nobody reaped counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return True


def log_file(name: str):
    LOGS.mkdir(parents=True, exist_ok=True)
    return open(LOGS / name, "a")


# --- Redis ------------------------------------------------------------------------------------


class OwnRedis:
    """A ``redis-server`` subprocess on a free loopback port, stoppable and restartable
    on the same port (so clients configured with its URL reconnect to it)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=log_file("redis.log"),
            stderr=subprocess.STDOUT,
        )
        wait_until(self.answers, 10, "redis-server to accept connections")

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.exceptions.RedisError:
            return False

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()  # SIGTERM: redis-server shuts down (no save configured)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("the fault tests need redis-server")
    server = OwnRedis()
    server.start()
    yield server
    server.stop()


def _drop_connection_pools(app) -> None:
    """Forget the app's cached broker connections and producers (they hold the URL).

    Detached, not closed: kombu keeps producer pools in a process-wide registry keyed
    by connection, and a closed pool found there again later makes every publish (and
    every eager task, which also takes a producer) fail with "Acquire on closed pool".
    """
    app._pool = None
    app.amqp._producer_pool = None


@contextlib.contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """Point this process's Celery app at ``url`` for a while, then back."""
    from config.celery import app

    previous = app.conf.broker_url
    _drop_connection_pools(app)
    app.conf.broker_url = url
    try:
        yield
    finally:
        _drop_connection_pools(app)
        app.conf.broker_url = previous


# --- a Celery worker on our own Redis ------------------------------------------------------------


def database_url_of_tests() -> str:
    """The URL of the database pytest-django created for this session."""
    from django.db import connection

    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}{port}/{s['NAME']}"


class OwnWorker:
    """``celery worker`` (prefork, one child) on the test database and our own Redis."""

    def __init__(self, broker_url: str, *worker_args: str, **extra_env: str) -> None:
        self.broker_url = broker_url
        self.worker_args = worker_args
        self.extra_env = extra_env
        self.seen_descendants: set[int] = set()
        self.process: subprocess.Popen | None = None
        self.log_path = LOGS / f"worker-{os.getpid()}-{time.monotonic_ns()}.log"

    def start(self) -> None:
        env = dict(os.environ)
        env.update(
            {
                "DATABASE_URL": database_url_of_tests(),
                "REDIS_URL": self.broker_url,
                "CELERY_TASK_ALWAYS_EAGER": "false",
                "DJANGO_SETTINGS_MODULE": "config.settings",
                **self.extra_env,
            }
        )
        LOGS.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
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
                "--without-heartbeat",
                "-n",
                f"faults-{os.getpid()}-{time.monotonic_ns()}@%h",
                *self.worker_args,
            ],
            cwd=ROOT,
            env=env,
            stdout=open(self.log_path, "w"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        wait_until(
            lambda: "ready." in self.log() or self.process.poll() is not None,
            60,
            "the Celery worker to start",
        )
        if self.process.poll() is not None:
            raise RuntimeError(f"the Celery worker died; see {self.log_path}")

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def children(self) -> list[int]:
        """The pool's child processes (prefork), from /proc."""
        assert self.process is not None
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def descendants(self) -> list[int]:
        """Every process under the worker's main one (pool children, embedded beat),
        remembered so that orphans left by a killed main process can be killed too."""
        assert self.process is not None
        found: list[int] = []
        todo = [self.process.pid]
        while todo:
            pid = todo.pop()
            for task in glob.glob(f"/proc/{pid}/task/*/children"):
                with contextlib.suppress(OSError):
                    todo.extend(int(child) for child in Path(task).read_text().split())
            if pid != self.process.pid:
                found.append(pid)
        self.seen_descendants.update(found)
        return found

    def kill_orphans(self) -> None:
        """SIGKILL what is left of the worker's descendants (after its main process died)."""
        for pid in self.seen_descendants:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        wait_until(
            lambda: all(process_is_gone(pid) for pid in self.seen_descendants),
            10,
            "the orphaned worker processes to die",
        )

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(OSError, AssertionError):
            self.descendants()
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
        with contextlib.suppress(AssertionError):
            self.kill_orphans()


@pytest.fixture
def worker_database(django_db_setup):
    """The worker needs the test database to be PostgreSQL (SQLite is per process)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the worker fault tests need DATABASE_URL (PostgreSQL)")


@pytest.fixture
def start_worker(worker_database) -> Iterator[Callable[..., OwnWorker]]:
    started: list[OwnWorker] = []

    def start(broker_url: str, *worker_args: str, **extra_env: str) -> OwnWorker:
        worker = OwnWorker(broker_url, *worker_args, **extra_env)
        started.append(worker)
        worker.start()
        return worker

    yield start
    for worker in started:
        worker.stop()


# --- PostgreSQL -----------------------------------------------------------------------------------


def _postgres_bin(tool: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"))
    return found[-1] if found else shutil.which(tool)


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own in a temporary folder, on a free loopback port,
    with trust authentication; PostgreSQL refuses to run as root, so as root its tools
    run as the ``postgres`` OS user."""

    def __init__(self) -> None:
        self.port = free_port()
        self.initdb = _postgres_bin("initdb")
        self.pg_ctl = _postgres_bin("pg_ctl")
        self.dir = Path(tempfile.mkdtemp(prefix="boxcars-faults-pg-"))
        self.data = self.dir / "data"
        self.logfile = self.dir / "postgres.log"
        self._as: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def url(self, database: str = "boxcars_faults") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, text=True, timeout=120)

    def _options(self) -> str:
        return f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"

    def create(self) -> None:
        self._run(self.initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        self.start()
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute('CREATE DATABASE "boxcars_faults"')

    def start(self) -> None:
        self._run(
            self.pg_ctl, "-D", str(self.data), "-l", str(self.logfile), "-o", self._options(),
            "-w", "start",
        )  # fmt: skip

    def restart(self) -> None:
        self._run(
            self.pg_ctl, "-D", str(self.data), "-l", str(self.logfile), "-o", self._options(),
            "-m", "fast", "-w", "restart",
        )  # fmt: skip

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def throwaway_postgres() -> Iterator[ThrowawayPostgres]:
    if not (_postgres_bin("initdb") and _postgres_bin("pg_ctl")):
        pytest.skip("the PostgreSQL fault test needs initdb and pg_ctl")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("as root, the PostgreSQL fault test needs a 'postgres' OS user")
        if shutil.which("runuser") is None:
            pytest.skip("as root, the PostgreSQL fault test needs runuser")
    cluster = ThrowawayPostgres()
    try:
        cluster.create()
    except (subprocess.SubprocessError, OSError) as exc:
        cluster.destroy()
        pytest.skip(f"could not start a throwaway PostgreSQL: {exc}")
    yield cluster
    cluster.destroy()
