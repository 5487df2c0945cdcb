"""``score-entry``: many clients recording games on distinct matches through the API.

gunicorn (2 workers) on PostgreSQL; 8 keep-alive clients, each working through its
own matches (long matches, one game per request, with ``number`` and an
``Idempotency-Key`` as a phone would send). The ceiling (``http-ceiling``'s load, a
trivial read) is measured on the same server in turns with the score entry, three
rounds of each: on two cores shared with the load generator and PostgreSQL the
ceiling alone moves by a third from one minute to the next, so one ceiling and one
load taken minutes apart gave ratios anywhere from 0.25 to 0.44 for the same code.
Reports requests/s, p50/p99 and the ratio to the ceiling (the median of the rounds,
and each round's), the gunicorn processes' CPU per entry and per ceiling request in
each round (read from ``/proc``: the server's own work, which moves far less with the
machine than throughput does), and the SQL queries one entry costs on an empty match
in a small database and on a match with many games in a large one.
"""

from __future__ import annotations

import functools
import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .loadgen import PreparedRequest, run_load
from .server import gunicorn, setup_django

CLIENTS = 8


def _prepare(matches_per_client: int, games_per_match: int, rounds: int = 1):
    """One plan per client for each round, on matches of that round alone (a round
    that ends mid-plan leaves games unrecorded on its own matches only)."""
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from games.models import Club, Match
    from games.services import clubs as club_services
    from games.services import match_create
    from games.services.actors import actor_for_user

    User = get_user_model()
    director, _ = User.objects.get_or_create(username="bench-director")
    club = Club.objects.filter(slug="bench-scores").first() or club_services.create_club(
        created_by=director, name="Bench Scores", slug="bench-scores"
    )
    players = list(club.players.order_by("id")[: CLIENTS * 2])
    while len(players) < CLIENTS * 2:
        players.append(
            club_services.create_player(display_name=f"Bench {len(players)}", clubs=[club])
        )
    actor = actor_for_user(director)
    _, token = AuthToken.objects.create(director)
    plans: list[list[list[PreparedRequest]]] = [[] for _ in range(rounds)]
    for c in range(CLIENTS):
        a, b = players[2 * c], players[2 * c + 1]
        match_ids = [
            match_create.create_match(
                actor=actor, club=club, player1=a, player2=b, length=99, label="bench"
            ).pk
            for _ in range(matches_per_client)
        ]
        for r in range(rounds):
            plan: list[PreparedRequest] = []
            for number in range(1, games_per_match + 1):
                for match_id in match_ids[r::rounds]:
                    body = {"winner": a.pk if number % 2 else b.pk, "number": number}
                    plan.append(
                        PreparedRequest(
                            "POST",
                            f"/api/v1/matches/{match_id}/games/",
                            json.dumps(body).encode(),
                            {
                                "Authorization": f"Token {token}",
                                "Content-Type": "application/json",
                                "Accept": "application/json",
                                "Idempotency-Key": str(uuid.uuid4()),
                            },
                            expect=(201,),
                        )
                    )
            plans[r].append(plan)
    return plans, Match.objects.count()


def _queries_per_entry() -> dict[str, int]:
    """SQL queries of one game entry: an empty match, and one with 150 games.

    Sent as the load sends it (a knox token, an ``Idempotency-Key``), so the count
    includes the token check; ``BEGIN`` and ``COMMIT`` count (Django logs them: they
    are round trips too)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    from games.models import Club
    from games.services import match_create, match_records, score_entry
    from games.services.actors import actor_for_user

    director = get_user_model().objects.get(username="bench-director")
    club = Club.objects.get(slug="bench-scores")
    a, b = list(club.players.order_by("id")[:2])
    actor = actor_for_user(director)
    _, token = AuthToken.objects.create(director)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    counts = {}
    for label, games in (("empty_match", 0), ("match_with_150_games", 150)):
        match = match_create.create_match(
            actor=actor, club=club, player1=a, player2=b, length=0, rated=False
        )
        for i in range(games):
            score_entry.record_game(
                actor=actor,
                match_id=match.pk,
                game=match_records.GameInput(winner_id=a.pk if i % 2 else b.pk),
            )
        with CaptureQueriesContext(connection) as captured:
            response = client.post(
                f"/api/v1/matches/{match.pk}/games/",
                {"winner": a.pk},
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
        assert response.status_code == 201, response.content
        counts[label] = len(captured.captured_queries)
    return counts


ROUNDS = 3


def _cpu_seconds(port: int) -> tuple[float, float]:
    """CPU seconds used so far by the gunicorn processes listening on ``port``, and by
    the PostgreSQL server's processes (when it runs on this machine: zero otherwise;
    a backend that exits meanwhile takes its share with it)."""
    tick = os.sysconf("SC_CLK_TCK")
    server = database = 0.0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes()
            is_server = b"gunicorn" in cmdline and f"127.0.0.1:{port}".encode() in cmdline
            is_database = cmdline.startswith(b"postgres") or b"/bin/postgres" in cmdline
            if not (is_server or is_database):
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        used = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
        if is_server:
            server += used
        else:
            database += used
    return server, database


def _with_server_cpu(port: int, load: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    server_before, database_before = _cpu_seconds(port)
    result = load()
    server_after, database_after = _cpu_seconds(port)
    answered = result["requests"]
    for key, used in (
        ("server_cpu_ms", server_after - server_before),
        ("database_cpu_ms", database_after - database_before),
    ):
        result[key] = round(used / answered * 1000, 2) if answered else None
    return result


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    from .http_ceiling import ceiling_plans

    setup_django()
    rounds = 1 if quick else ROUNDS
    seconds = 3 if quick else 8
    plans, matches_in_db = _prepare(
        matches_per_client=20 if quick else 60, games_per_match=40, rounds=rounds
    )
    reads = ceiling_plans()
    ceilings: list[dict[str, Any]] = []
    loads: list[dict[str, Any]] = []
    with gunicorn(workers=2) as (host, port):
        run_load(host, port, reads, 2)  # warm both workers (imports, catalogs, connections)
        for r in range(rounds):
            ceilings.append(
                _with_server_cpu(port, functools.partial(run_load, host, port, reads, seconds))
            )
            loads.append(
                _with_server_cpu(port, functools.partial(run_load, host, port, plans[r], seconds))
            )
    queries = _queries_per_entry()
    ratios = [
        round(load["requests_per_second"] / ceiling["requests_per_second"], 3)
        for load, ceiling in zip(loads, ceilings, strict=True)
        if ceiling["requests_per_second"]
    ]
    middle = sorted(range(rounds), key=lambda i: ratios[i] if i < len(ratios) else 0)[rounds // 2]
    result: dict[str, Any] = dict(loads[middle])
    result.update(
        {
            "requests_per_second_by_round": [load["requests_per_second"] for load in loads],
            "errors": sum(int(load["errors"]) for load in loads),
            "matches_in_database": matches_in_db,
            "ceiling_requests_per_second": ceilings[middle]["requests_per_second"],
            "ceiling_by_round": [ceiling["requests_per_second"] for ceiling in ceilings],
            "ratio_to_ceiling": ratios[middle] if ratios else None,
            "ratio_by_round": ratios,
            # CPU of the gunicorn processes per answered request (not PostgreSQL's): a
            # measure of the server's own work that does not move with the machine
            "server_cpu_ms_per_entry_by_round": [load["server_cpu_ms"] for load in loads],
            "server_cpu_ms_per_ceiling_request_by_round": [c["server_cpu_ms"] for c in ceilings],
            # PostgreSQL's CPU per answered request, when it runs on this machine
            "database_cpu_ms_per_entry_by_round": [load["database_cpu_ms"] for load in loads],
            "database_cpu_ms_per_ceiling_request_by_round": [
                c["database_cpu_ms"] for c in ceilings
            ],
            "queries_per_entry": queries,
        }
    )
    return result
