"""``score-entry``: many clients recording games on distinct matches through the API.

gunicorn (2 workers) on PostgreSQL; 8 keep-alive clients, each working through its
own matches (long matches, one game per request, with ``number`` and an
``Idempotency-Key`` as a phone would send). Reports requests/s, p50/p99, the ratio
to the ``http-ceiling`` measured in the same run, and the SQL queries one entry costs
on an empty match in a small database and on a match with many games in a large one.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from .loadgen import PreparedRequest, run_load
from .server import gunicorn, setup_django

CLIENTS = 8


def _prepare(matches_per_client: int, games_per_match: int):
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
    plans: list[list[PreparedRequest]] = []
    for c in range(CLIENTS):
        a, b = players[2 * c], players[2 * c + 1]
        plan: list[PreparedRequest] = []
        match_ids = [
            match_create.create_match(
                actor=actor, club=club, player1=a, player2=b, length=99, label="bench"
            ).pk
            for _ in range(matches_per_client)
        ]
        for number in range(1, games_per_match + 1):
            for match_id in match_ids:
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
        plans.append(plan)
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


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    results = (context or {}).get("results", {})
    if "http-ceiling" not in results:
        from . import http_ceiling

        results["http-ceiling"] = http_ceiling.run(quick=quick)
    ceiling = results["http-ceiling"]["requests_per_second"]
    seconds = 3 if quick else 15
    plans, matches_in_db = _prepare(matches_per_client=20 if quick else 60, games_per_match=40)
    with gunicorn(workers=2) as (host, port):
        load: dict[str, Any] = run_load(host, port, plans, seconds)
    queries = _queries_per_entry()
    load.update(
        {
            "matches_in_database": matches_in_db,
            "ceiling_requests_per_second": ceiling,
            "ratio_to_ceiling": round(load["requests_per_second"] / ceiling, 3)
            if ceiling
            else None,
            "queries_per_entry": queries,
        }
    )
    return load
