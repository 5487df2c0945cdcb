"""The stack's database connections stay within PostgreSQL's (issue #37, item 7: the
web host held 48 connections and the server answered "too many clients").

With ``CONN_MAX_AGE`` every gunicorn thread keeps a connection of its own, so the web's
connections are workers x threads; each Celery prefork child, beat and the relay keep
one. This reads the commands the Procfile (``make serve``) and docker-compose.yml run
and holds them to ``WEB_DATABASE_CONNECTIONS`` and ``DATABASE_MAX_CONNECTIONS``."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
#: PostgreSQL's superuser_reserved_connections (3) and room for an operator's psql,
#: a backup and a migration while the stack runs.
HEADROOM = 3 + 7


def _option(command: str, name: str, default: int) -> int:
    found = re.search(rf"{name}[ =](\d+)", command)
    return int(found.group(1)) if found else default


def connections(commands: list[str]) -> tuple[int, int]:
    """(the web's, everything's) kept connections for these process commands."""
    web = total = 0
    for command in commands:
        if "gunicorn" in command:
            held = _option(command, "--workers", 1) * _option(command, "--threads", 1)
            web += held
            total += held
        elif "celery" in command and " worker" in command:
            total += _option(command, "--concurrency", 2)
        elif ("celery" in command and " beat" in command) or "live_relay" in command:
            total += 1
    return web, total


def _procfile() -> list[str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return [line.split(":", 1)[1] for line in lines if line and not line.startswith("#")]


def _compose() -> list[str]:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return [" ".join(s["command"]) for s in services.values() if isinstance(s.get("command"), list)]


def test_the_procfile_and_compose_stay_within_the_connection_bound():
    for commands in (_procfile(), _compose()):
        web, total = connections(commands)
        assert web > 0 and total > web
        assert web <= settings.WEB_DATABASE_CONNECTIONS, (web, commands)
        assert total <= settings.DATABASE_MAX_CONNECTIONS - HEADROOM, (total, commands)
    assert connections(_procfile()) == connections(_compose())  # the same stack


def test_the_count_would_catch_the_probes_48():
    web, _total = connections(["gunicorn config.wsgi --workers 3 --threads 16"])
    assert web == 48 > settings.WEB_DATABASE_CONNECTIONS
