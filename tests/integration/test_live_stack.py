"""The production stack's live streams (docs/live.md "Behind Pushpin"): the proxy, web
and relay lines of the Procfile, started with honcho as ``make serve`` does, on the
test database. More streams are opened than gunicorn has threads (3 workers x 16):
score entry still answers and every stream hears it; a client that goes away is let
go within seconds; SIGTERM to honcho stops every process it started (last: the stack
is started once for the module).

Needs Pushpin (``apt-get install pushpin``), PostgreSQL and Redis; skipped otherwise.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from knox.models import AuthToken

from tests.integration.conftest import _database_url
from tests.tournaments.conftest import actor, make_event, pairing  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.integration, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
PORT = int(os.environ.get("LIVE_TEST_PORT", 8146))  # and the two ports after it
THREADS = 3 * 16  # the Procfile's gunicorn: 3 workers x 16 threads
STREAMS = THREADS + 12


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo.extend(int(child) for child in task.read_text().split())
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _server_sockets(port: int) -> int:
    """Connections the server side of ``port`` still holds (established, or closed by
    the client and not yet by the server: CLOSE_WAIT), from the kernel's table."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == port and fields[3] in ("01", "08"):
                    count += 1
    return count


@pytest.fixture(scope="module")
def stack(django_db_blocker, tmp_path_factory) -> Iterator[subprocess.Popen]:
    if not shutil.which("pushpin"):
        pytest.skip("needs Pushpin (apt-get install pushpin)")
    if not os.environ.get("REDIS_URL") or settings.DATABASES["default"]["ENGINE"].endswith(
        "sqlite3"
    ):
        pytest.skip("needs PostgreSQL and REDIS_URL")
    with django_db_blocker.unblock():
        database_url = _database_url()
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": database_url,
            "PATH": f"{Path(sys.executable).parent}:{env.get('PATH', '')}",
            "PORT": str(PORT),
            "WEB_PORT": str(PORT + 1),
            "LIVE_UPSTREAM": f"127.0.0.1:{PORT + 1}",
            "LIVE_PUBLISH_BIND": f"127.0.0.1:{PORT + 2}",
            "LIVE_GRIP_PUBLISH_URL": f"http://127.0.0.1:{PORT + 2}/publish/",
            "LIVE_GRIP_KEY": "integration-" + "k" * 40,
            "LIVE_REDIS_CHANNEL": settings.LIVE_REDIS_CHANNEL,
            # Pushpin's sockets live outside the project tree, which other tests copy
            "LIVE_PROXY_RUNDIR": str(tmp_path_factory.mktemp(f"pushpin-{PORT}")),
            "CELERY_TASK_ALWAYS_EAGER": "true",
        }
    )
    (ROOT / ".pytest_cache").mkdir(exist_ok=True)
    log = open(ROOT / ".pytest_cache" / "live-stack.log", "w")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "honcho", "start", "-f", "Procfile", "-p", str(PORT),
         "proxy", "web", "relay"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=3).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"the stack did not start; see {log.name}") from None
                time.sleep(0.3)
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        log.close()


def _open_stream(path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", PORT), timeout=15)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    head = b""
    while b": open" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock


def _read_until(sock: socket.socket, marker: bytes) -> bytes:
    got = b""
    while marker not in got:
        chunk = sock.recv(4096)
        assert chunk, got
        got += chunk
    return got


@pytest.mark.django_db(transaction=True)
def test_more_streams_than_threads_and_score_entry_still_answers(stack, make_event, director):  # noqa: F811
    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    _, token = AuthToken.objects.create(director)
    channel = f"tournament:{event.pk}"
    streams = [_open_stream(f"/live/stream/?channel={channel}") for _ in range(STREAMS)]
    before = _server_sockets(PORT)
    assert before >= STREAMS  # every stream is held open, by Pushpin

    request = urllib.request.Request(
        f"http://127.0.0.1:{PORT}/api/v1/matches/{match.pk}/games/",
        data=json.dumps({"winner": match.player1_id, "number": 1}).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=15) as response:  # a thread was free
        assert response.status == 201
        version = json.loads(response.read())["version"]
    wanted = json.dumps({"channel": channel, "version": f"match.{match.pk}.{version}"})
    for sock in streams:  # every viewer hears it, under the channel it follows
        assert wanted.encode() in _read_until(sock, wanted.encode())

    for sock in streams:  # the viewers go away
        sock.close()
    deadline = time.monotonic() + 5
    while _server_sockets(PORT) > before - STREAMS and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _server_sockets(PORT) <= before - STREAMS  # let go within seconds


@pytest.mark.django_db(transaction=True)
def test_sigterm_stops_every_process_the_stack_started(stack):
    started = _tree(stack.pid)
    assert len(started) >= 6  # honcho, pushpin and its services, gunicorn and workers, relay
    stack.send_signal(signal.SIGTERM)
    stack.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [pid for pid in started if _alive(pid)] == []
