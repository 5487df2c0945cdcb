"""Benchmark ``bracket-pages``: the bracket and standings API of a 1,024-entry event.

The aim: a page's query count does not grow with its size; the figures show how the
cost grows with the event's size.
Prepares (once; idempotent) a 1,024-entry single elimination with a progressive
consolation on the PostgreSQL bench database, with round 1 played, plus a 64-entry
twin; counts the SQL queries of each endpoint for both sizes (they must be equal),
then serves the app with gunicorn and loads ``GET .../bracket/`` and
``GET .../standings/`` (target p95 < 150 ms). Both reads are rendered once per
tournament version (every write bumps it) and cached, so the served figure is what
spectators polling between results see; the uncached time and query count of one
full read are reported alongside.
"""

from __future__ import annotations

from bench.loadgen import PreparedRequest, run_load
from bench.server import gunicorn, setup_django

SIZES = (64, 1024)


def _prepare(entries: int) -> str:
    """The event's slug; built through the services the first time."""
    from django.contrib.auth import get_user_model

    from games.models import Club, Player
    from games.services import clubs as club_services
    from games.services import score_entry
    from games.services.actors import actor_for_user
    from tournaments.models import Pairing, Tournament
    from tournaments.services import entries as entry_services
    from tournaments.services import events as event_services

    slug = f"bench-bracket-{entries}"
    if Tournament.objects.filter(slug=slug, status="running").exists():
        return slug
    Tournament.objects.filter(slug=slug).update(slug=f"{slug}-old-{Tournament.objects.count()}")
    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    actor = actor_for_user(user)
    club = Club.objects.filter(slug="bench-brackets").first() or club_services.create_club(
        created_by=user, name="Bench brackets", slug="bench-brackets"
    )
    existing = list(Player.objects.filter(clubs=club).order_by("pk")[:entries])
    for i in range(len(existing), entries):
        existing.append(club_services.create_player(display_name=f"B{i}", clubs=[club]))
    event = event_services.create_tournament(
        actor=actor,
        club=club,
        name=f"Bench {entries}",
        slug=slug,
        format="single_elimination",
        consolation_from=[1, 2],
        seeding="random",
    )
    for player in existing:
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    for p in Pairing.objects.filter(tournament=event, key__startswith="main-r1-").select_related(
        "match"
    ):
        if p.match_id:
            score_entry.record_final_score(
                actor=actor, match_id=p.match_id, score=(p.match.length, 0)
            )
    return slug


def _queries(path: str) -> tuple[int, int, float]:
    """(status, SQL queries, milliseconds) of one request rendered from scratch."""
    import time

    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.get(path)  # warm the bracket-graph cache
    cache.clear()  # measure the full read, not the rendered-JSON cache
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        response = client.get(path)
        elapsed = (time.perf_counter() - started) * 1000
    return response.status_code, len(captured.captured_queries), round(elapsed, 1)


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    slugs = {size: _prepare(size) for size in SIZES}
    queries, uncached_ms = {}, {}
    for size, slug in slugs.items():
        for endpoint in ("bracket", "standings"):
            code, count, ms = _queries(f"/api/v1/tournaments/{slug}/{endpoint}/")
            assert code == 200, (size, endpoint, code)
            queries[f"{endpoint}_{size}"] = count
            uncached_ms[f"{endpoint}_{size}"] = ms
    big = slugs[1024]
    plans = [
        [
            PreparedRequest("GET", f"/api/v1/tournaments/{big}/{endpoint}/", expect=(200,))
            for _ in range(200)
            for endpoint in ("bracket", "standings")
        ]
        for _ in range(2)
    ]
    from django.db import connections

    connections.close_all()
    with gunicorn(workers=2) as (host, port):
        load = run_load(host, port, plans, seconds=5 if quick else 20)
    return {
        "entries": 1024,
        "queries_per_request": queries,
        "queries_constant": queries["bracket_64"] == queries["bracket_1024"]
        and queries["standings_64"] == queries["standings_1024"],
        "uncached_ms_in_process": uncached_ms,
        "p50_ms": load["p50_ms"],
        "p95_ms": load["p95_ms"],
        "target_p95_ms": 150,
        "requests_per_second": load["requests_per_second"],
        "errors": load["errors"],
    }
