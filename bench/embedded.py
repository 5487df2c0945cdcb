"""``python -m bench embedded``: the embedded default (``make run``) under 64 clients.

What ``make run`` runs: ``manage.py runserver`` on a SQLite file, tasks eager, no
Celery beat. 64 clients at once each first finish their first-round match of a
128-player event by its final score (its follow-ups: the event's settling and the event
odds), then their own one-point matches through the API (each result an outbox event,
``match.finished``, whose handler writes the two players' ratings in the same SQLite
file), as fast as the server answers. Then the scenario waits for the follow-ups (the
in-process sweep, ``core/embedded.py``) and counts the events never handled, the 503s
(``database_unavailable``) and the errors, and asks whether the event's odds take in
every result recorded (``odds_fresh``).

``BENCH_EMBEDDED_VARIANT=before`` runs it as it was (DEFERRED transactions, no
in-process sweep) for the comparison in ``docs/operations.md``; ``BENCH_EMBEDDED_PORT``
the port (8000 + a free one by default).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .loadgen import PreparedRequest, run_load
from .server import ROOT, _free_port

CLIENTS = 64
EVENT_PLAYERS = 2 * CLIENTS  # one first-round match per client
VARIANTS = {
    "now": {},
    # as before: SQLite's DEFERRED transactions and no in-process sweep
    "before": {"SQLITE_TRANSACTION_MODE": "DEFERRED", "EMBEDDED_SWEEP_INTERVAL": "0"},
}


def _env(db_path: Path, variant: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("REDIS_URL", "DATABASE_URL", "CELERY_TASK_ALWAYS_EAGER"):
        env.pop(name, None)
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{db_path}",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_LEVEL": "WARNING",
            "THROTTLE_SCORE": "1000000/min",  # the service, not its per-user limits
            "LIVE_STREAMS_PER_ADDRESS": "0",  # thousands of viewers from one host
            "CLUBS_PER_USER": "0",
            **VARIANTS[variant],
        }
    )
    return env


def _post(path: str, body: dict[str, Any], token: str, expect: int) -> PreparedRequest:
    return PreparedRequest(
        "POST",
        path,
        json.dumps(body).encode(),
        {
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Idempotency-Key": str(uuid.uuid4()),
        },
        expect=(expect,),
    )


def _prepare_event(actor: Any, club: Any, token: str) -> tuple[str, list[PreparedRequest]]:
    """A started 128-player event; the final score of each first-round match."""
    from games.models import Match, MatchStatus
    from games.services import clubs as club_services
    from tournaments.services import entries as entry_services
    from tournaments.services import events as event_services

    event = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Bench Open",
        format="single_elimination",
        seeding="random",
        random_seed=7,
        match_lengths={"default": 1},
        rated=False,
    )
    for i in range(EVENT_PLAYERS):
        player = club_services.create_player(display_name=f"Open {i}", clubs=[club])
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    matches = Match.objects.filter(
        tournament_pairing__tournament=event, status=MatchStatus.SCHEDULED
    ).order_by("pk")
    finals = [
        _post(f"/api/v1/matches/{m.pk}/result/", {"score": [1, 0]}, token, 200) for m in matches
    ]
    assert len(finals) == CLIENTS, len(finals)
    return event.slug, finals


def _odds(port: int, slug: str) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}/api/v1/tournaments/{slug}/odds/"
    with urllib.request.urlopen(url, timeout=30) as answer:
        body = json.loads(answer.read())
    return {"up_to_date": body["up_to_date"], "results": body["results"]}


def _prepare(matches_per_client: int) -> tuple[str, list[list[PreparedRequest]]]:
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from games.services import clubs as club_services
    from games.services import match_create
    from games.services.actors import actor_for_user

    director = get_user_model().objects.create_user(username="bench-director")
    club = club_services.create_club(created_by=director, name="Bench", slug="bench")
    actor = actor_for_user(director)
    _, token = AuthToken.objects.create(director)
    slug, finals = _prepare_event(actor, club, token)
    plans = []
    for c in range(CLIENTS):
        a = club_services.create_player(display_name=f"Bench {2 * c}", clubs=[club])
        b = club_services.create_player(display_name=f"Bench {2 * c + 1}", clubs=[club])
        plan = [finals[c]]
        for m in range(matches_per_client):
            match = match_create.create_match(
                actor=actor, club=club, player1=a, player2=b, length=1
            )
            body = {"winner": (a if m % 2 else b).pk, "number": 1}
            plan.append(_post(f"/api/v1/matches/{match.pk}/games/", body, token, 201))
        plans.append(plan)
    return slug, plans


@contextlib.contextmanager
def _runserver(env: dict[str, str], port: int) -> Iterator[None]:
    """``manage.py runserver`` as ``make run`` starts it (threaded, no autoreload)."""
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("runserver did not come up") from None
                time.sleep(0.3)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _outbox() -> dict[str, int]:
    from django.db import connection

    from core.models import DomainEvent

    connection.close()  # a fresh read of the file
    events = DomainEvent.objects.all()
    return {
        "events": events.count(),
        "handled": events.filter(handled_at__isnull=False).count(),
        "failed": events.filter(failed_at__isnull=False).count(),
        "unhandled": events.filter(handled_at__isnull=True).count(),
    }


def _decided(slug: str) -> int:
    """The event's results recorded (a request the server never took, reset at the
    connection, recorded none)."""
    from django.db import connection

    from tournaments.models import Pairing

    connection.close()  # a fresh read of the file
    return Pairing.objects.filter(tournament__slug=slug, winner__isnull=False).count()


def _fresh(odds: dict[str, Any], decided: int) -> bool:
    return bool(odds["up_to_date"]) and odds["results"] == decided


def run(*, quick: bool = False, context: dict | None = None) -> dict[str, Any]:
    variant = os.environ.get("BENCH_EMBEDDED_VARIANT", "now")
    port = int(os.environ.get("BENCH_EMBEDDED_PORT", 0)) or _free_port()
    with tempfile.TemporaryDirectory(prefix="boxcars-embedded-") as folder:
        db_path = Path(folder) / "db.sqlite3"
        env = _env(db_path, variant)
        os.environ.update(env)
        for name in ("REDIS_URL", "CELERY_TASK_ALWAYS_EAGER"):
            os.environ.pop(name, None)
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0, interactive=False)
        slug, plans = _prepare(matches_per_client=3 if quick else 8)
        from django.db import connection

        connection.close()
        with _runserver(env, port):
            outcomes: dict[str, list] = {}
            load = run_load("127.0.0.1", port, plans, 600, outcomes=outcomes)
            after_load = _outbox()
            waited = 0.0
            deadline = time.monotonic() + (20 if quick else 90)
            started = time.monotonic()
            odds, decided = _odds(port, slug), _decided(slug)
            while (
                _outbox()["unhandled"] or not _fresh(odds, decided)
            ) and time.monotonic() < deadline:
                time.sleep(1)
                odds = _odds(port, slug)
            waited = time.monotonic() - started
            final = _outbox()
        five = outcomes.get("server_errors", [])
    return {
        "variant": variant,
        **load,
        "server_errors_5xx": len(five),
        "server_error_statuses": sorted({status for _, status, _ in five}),
        "unhandled_right_after_load": after_load["unhandled"],
        "seconds_waited_for_follow_ups": round(waited, 1),
        "outbox": final,
        # the event's odds take in every first-round result recorded
        "event_results": decided,
        "odds": odds,
        "odds_fresh": _fresh(odds, decided),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=2))
