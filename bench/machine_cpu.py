"""Where a machine's CPU went during a measured stretch, by the stack's roles.

A latency figure on a shared 2-core machine says little without knowing who else had
the cores: the web processes, the workers, the live component, PostgreSQL, the log
collector (honcho), the bench's own clients. :func:`snapshot` reads every process's
``utime + stime`` from ``/proc`` and files it under a role from its command line;
:func:`spent` turns two snapshots into CPU-seconds per role. A process that exits
between the snapshots takes its share with it, and one started meanwhile counts whole
(a PostgreSQL backend, a Celery child): the roles that matter here are long-lived.
"""

from __future__ import annotations

import os
from pathlib import Path

# (role, substrings any of which in the command line files it there), first match wins
ROLES: tuple[tuple[str, tuple[bytes, ...]], ...] = (
    ("web", (b"gunicorn",)),
    ("worker-results", (b"--queues\x00results",)),
    ("worker-odds", (b"--queues\x00odds",)),
    ("worker-bulk", (b"--queues\x00bulk",)),
    ("beat", (b"beat",)),
    ("relay", (b"live_relay",)),
    ("live-proxy", (b"pushpin", b"condure", b"zurl", b"m2adapter")),
    ("log-collector", (b"honcho",)),
    ("bench", (b"-m\x00bench",)),
    ("postgres", (b"postgres",)),
    ("redis", (b"redis-server",)),
)


def _role(cmdline: bytes) -> str:
    for role, needles in ROLES:
        if any(needle in cmdline for needle in needles):
            return role
    return "other"


def snapshot() -> dict[str, float]:
    """CPU-seconds used so far by each role's live processes."""
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes()
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        role = _role(cmdline)
        used[role] = used.get(role, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return used


def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU-seconds per role between two snapshots, largest first (roles under 10 ms
    left out; a negative share, a process gone, shows as it is)."""
    roles = set(before) | set(after)
    delta = {r: round(after.get(r, 0.0) - before.get(r, 0.0), 2) for r in roles}
    return dict(sorted(((r, d) for r, d in delta.items() if abs(d) >= 0.01), key=lambda t: -t[1]))
