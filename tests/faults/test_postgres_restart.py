"""PostgreSQL restarted while clients enter scores through gunicorn: requests fail
cleanly during the outage, and every 201 a client got is a stored game, no more.

Our own throwaway cluster (never the shared one), migrated from scratch; gunicorn with
two workers and persistent connections (``CONN_MAX_AGE=60``, as production would run);
six clients, each entering games on its own unlimited session. A client whose request
fails retries it with the same ``Idempotency-Key``, as a phone app does, so a write
that committed but whose answer was lost is answered from the stored response.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import psycopg
import pytest

from .conftest import ROOT, free_port, log_file, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.faults]

CLIENTS = 6
BEFORE, AFTER = 2.0, 3.0  # seconds of load before the restart and after it


def _env(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("REDIS_URL", None)  # eager tasks, local-memory cache: only PostgreSQL breaks
    env.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "false",
            "LOG_LEVEL": "WARNING",
            "CONN_MAX_AGE": "60",
            "THROTTLE_SCORE": "1000000/min",
        }
    )
    return env


@pytest.fixture(scope="module")
def world(throwaway_postgres) -> dict:
    """The throwaway database, migrated and seeded; its sessions and token."""
    env = _env(throwaway_postgres.url())
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    seeded = subprocess.run(
        [sys.executable, "-m", "tests.faults.score_world", str(CLIENTS)],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    return json.loads(seeded.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def server(throwaway_postgres, world) -> Iterator[int]:
    """gunicorn on the throwaway database; yields its port once /healthz answers."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=_env(throwaway_postgres.url()),
        stdout=log_file("gunicorn.log"),
        stderr=subprocess.STDOUT,
    )

    def up() -> bool:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return True
        except OSError:
            return process.poll() is not None

    wait_until(up, 30, "gunicorn")
    assert process.poll() is None, "gunicorn exited"
    yield port
    process.terminate()
    process.wait(timeout=20)


@dataclass
class Tally:
    """What one client was told, request by request."""

    told_stored: list[int] = field(default_factory=list)  # game numbers answered 201
    replayed: int = 0  # 201s answered from a stored response (the write had committed)
    errors: list[tuple[float, str]] = field(default_factory=list)  # (when, what)
    unexpected: list[str] = field(default_factory=list)  # anything but 201, 5xx, no answer
    sent: int = 0


def _client(port: int, token: str, match: dict, stop: threading.Event, tally: Tally) -> None:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Authorization": f"Token {token}",
    }
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    number = 0
    key, body = "", b""
    pending = False
    while not stop.is_set() or pending:
        if not pending:
            number += 1
            key = str(uuid.uuid4())
            body = json.dumps({"winner": match["winner"], "number": number}).encode()
            pending = True
        tally.sent += 1
        try:
            conn.request(
                "POST",
                f"/api/v1/matches/{match['id']}/games/",
                body=body,
                headers={**headers, "Idempotency-Key": key},
            )
            response = conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as exc:
            tally.errors.append((time.monotonic(), f"no answer: {type(exc).__name__}"))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            time.sleep(0.1)
            continue
        if response.status == 201:
            games = json.loads(payload)["games"]
            if games[-1]["number"] != number:
                tally.unexpected.append(f"201 for game {number} shows {games[-1]['number']}")
            tally.told_stored.append(number)
            tally.replayed += response.getheader("Idempotent-Replayed") == "true"
            pending = False
        elif response.status >= 500:
            kind = response.getheader("Content-Type", "").split(";")[0]
            tally.errors.append((time.monotonic(), f"{response.status} {kind}"))
            time.sleep(0.1)
        else:
            tally.unexpected.append(f"{response.status}: {payload[:200]!r}")
            pending = False
    conn.close()


def test_every_201_survives_a_postgres_restart_under_load(throwaway_postgres, world, server):
    # Given six clients entering games as fast as the server answers
    stop = threading.Event()
    tallies = [Tally() for _ in world["matches"]]
    threads = [
        threading.Thread(target=_client, args=(server, world["token"], match, stop, tally))
        for match, tally in zip(world["matches"], tallies, strict=True)
    ]
    for thread in threads:
        thread.start()
    # When PostgreSQL restarts (fast shutdown: every session is cut) in the middle
    time.sleep(BEFORE)
    outage_started = time.monotonic()
    throwaway_postgres.restart()
    outage_ended = time.monotonic()
    time.sleep(AFTER)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)

    # Then no client was told anything but 201, a 5xx or no answer at all
    assert [t.unexpected for t in tallies] == [[]] * CLIENTS
    errors = [e for t in tallies for e in t.errors]
    assert errors, "the restart should have failed some requests"
    # and the errors fell in the outage (a little after: a request already waiting on
    # the dying server); once PostgreSQL was back, every worker reconnected at once
    assert max(when for when, _ in errors) < outage_ended + 1.0
    # and every 201 is a stored game, and every stored game was answered 201
    with psycopg.connect(throwaway_postgres.url()) as conn:
        for match, tally in zip(world["matches"], tallies, strict=True):
            stored = [
                n
                for (n,) in conn.execute(
                    "SELECT number FROM games_game WHERE match_id = %s ORDER BY number",
                    (match["id"],),
                )
            ]
            assert stored == tally.told_stored == list(range(1, len(stored) + 1))
    told = sum(len(t.told_stored) for t in tallies)
    kinds = Counter(what for _, what in errors)
    print(
        f"\npostgres restart: {outage_ended - outage_started:.2f} s; "
        f"{sum(t.sent for t in tallies)} requests, {told} games told 201 and stored, "
        f"{sum(t.replayed for t in tallies)} of them replayed; errors: {dict(kinds)}"
    )


def _enter_game(port: int, token: str, match: dict) -> int:
    """One game on a fresh HTTP connection (so gunicorn's workers take turns)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(
            "POST",
            f"/api/v1/matches/{match['id']}/games/",
            body=json.dumps({"winner": match["winner"]}).encode(),
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Token {token}",
                "Idempotency-Key": str(uuid.uuid4()),
            },
        )
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_no_request_fails_after_a_restart_while_idle(throwaway_postgres, world, server):
    """Persistent connections outlive a quiet restart (a maintenance window): without
    ``CONN_HEALTH_CHECKS`` each worker's first request afterwards failed with a 500 on
    the dead socket; with it, the connection is checked and replaced before use."""
    match = world["matches"][0]
    # Given both gunicorn workers holding a database connection
    warm = [_enter_game(server, world["token"], match) for _ in range(10)]
    assert warm == [201] * 10
    # When PostgreSQL restarts while no request is in flight
    throwaway_postgres.restart()
    # Then the very next requests all succeed
    after = [_enter_game(server, world["token"], match) for _ in range(10)]
    assert after == [201] * 10
