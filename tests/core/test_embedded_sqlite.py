"""The embedded default keeps every follow-up (issue #26): ``make run``'s SQLite file and
eager tasks under concurrent writers lose no outbox event and answer no 503.

Before (SQLite's DEFERRED transactions, no sweep under eager), 64 clients left 363 of
435 outbox events unhandled (``database is locked``) and 24 requests answered 503
``database_unavailable``; this test, run with the settings of then
(``SQLITE_TRANSACTION_MODE=DEFERRED``, ``EMBEDDED_SWEEP_INTERVAL=0``), lost events too.

The writers run in a process of their own (``embedded_writers.py``) on a SQLite *file*
(the test database is in memory, shared by a cache that locks otherwise).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THREADS = 24


def _run_writers(tmp_path: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "THROTTLE_SCORE": "1000000/min",
            "EMBEDDED_SWEEP_INTERVAL": "1",
            "EMBEDDED_SWEEP_FRESH_SECONDS": "2",
            "LOG_LEVEL": "ERROR",
            **extra,
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", "tests.core.embedded_writers", str(tmp_path), str(THREADS)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_concurrent_writers_on_sqlite_lose_no_follow_up_and_get_no_503(tmp_path):
    outcome = _run_writers(tmp_path)
    assert outcome["statuses"] == [201] * (2 * THREADS)  # no 503 database_unavailable
    assert outcome["events"] == 2 * THREADS
    assert outcome["handled"] == outcome["events"]  # every follow-up ran
