"""``make serve`` runs what docker compose runs (docs/operations.md): every process of
the ``Procfile`` is a service of ``docker-compose.yml`` with the same command, so what is
measured through ``make serve`` is what is deployed. Only where each listens differs
(gunicorn on loopback behind Pushpin here, on every address inside compose)."""

from __future__ import annotations

import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _procfile() -> dict[str, list[str]]:
    processes = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            processes[name.strip()] = shlex.split(command)
    return processes


def _without_bind(command: list[str]) -> list[str]:
    if "--bind" in command:
        at = command.index("--bind")
        return command[:at] + command[at + 2 :]
    return command


def test_every_procfile_process_is_a_compose_service_with_the_same_command():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    procfile = _procfile()
    assert {"proxy", "web", "relay", "worker", "worker-odds", "worker-bulk", "beat"} <= set(
        procfile
    )
    for name, command in procfile.items():
        assert name in services, f"{name} is in the Procfile, not in docker-compose.yml"
        assert _without_bind(services[name]["command"]) == _without_bind(command), name
    # every long-running service of compose is in the Procfile (not the databases, not the
    # one-shot migration, which `make serve` runs before honcho)
    assert set(services) - set(procfile) == {"postgres", "redis", "migrate"}
