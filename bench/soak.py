"""``soak``: minutes of mixed traffic, then proof that nothing was lost or doubled.

gunicorn (2 workers) on PostgreSQL with a real Celery worker on Redis. Eight clients:
five enter games on their own matches (one of which finishes every few games, so
rating jobs run on the worker), two read brackets and standings of a running
tournament, one records chouette games. Afterwards the database is compared with
what the clients were told: every 201 is a stored game, nothing else is, and every
outbox event the finished matches wrote has been handled by the worker.
"""

from __future__ import annotations

import io
import json
import time
import uuid
from collections import Counter

from .loadgen import PreparedRequest, run_load
from .server import celery_worker, gunicorn, setup_django

JSON = {"Content-Type": "application/json", "Accept": "application/json"}


def _setup():
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from chouette import demo as chouette_demo
    from games.models import Club
    from games.services import clubs as club_services
    from tournaments import demo as tournaments_demo
    from tournaments.models import Tournament

    User = get_user_model()
    director, _ = User.objects.get_or_create(username="soak-director")
    club = Club.objects.filter(slug="soak").first() or club_services.create_club(
        created_by=director, name="Soak Club", slug="soak"
    )
    while club.players.count() < 16:
        club_services.create_player(display_name=f"Soak {club.players.count()}", clubs=[club])
    tournaments_demo.seed(club=club, director=director, stdout=io.StringIO())
    session = chouette_demo.seed(club=club, director=director, stdout=io.StringIO())
    tournament = Tournament.objects.filter(club=club).order_by("id").first()
    _, token = AuthToken.objects.create(director)
    return club, director, token, tournament, session


def _score_plan(club, director, token, *, length: int, games: int) -> tuple[list, list[int]]:
    from games.services import matches as match_services
    from games.services.actors import actor_for_user

    players = list(club.players.order_by("id"))
    actor = actor_for_user(director)
    a, b = players[0], players[1]
    plan, match_ids = [], []
    match = None
    number = 0
    for _ in range(games):
        if match is None or (length and number >= length):
            match = match_services.create_match(
                actor=actor, club=club, player1=a, player2=b, length=length, label="soak"
            )
            match_ids.append(match.pk)
            number = 0
        number += 1
        body = {"winner": a.pk, "number": number}
        plan.append(
            PreparedRequest(
                "POST",
                f"/api/v1/matches/{match.pk}/games/",
                json.dumps(body).encode(),
                {**JSON, "Authorization": f"Token {token}", "Idempotency-Key": str(uuid.uuid4())},
                expect=(201,),
            )
        )
    return plan, match_ids


def _chouette_plan(session, token, games: int) -> list[PreparedRequest]:
    """The box wins every game, so it stays box and the captain goes to the bottom:
    each game's team order is the previous one rotated by one."""
    team = list(session.lineup[1:])
    start = session.games.count()
    plan = []
    for i in range(games):
        order = team[i % len(team) :] + team[: i % len(team)]
        body = {
            "number": start + i + 1,
            "winner": "box",
            "level": "single",
            "members": [{"player": pk, "cube": 1, "action": "played"} for pk in order],
        }
        plan.append(
            PreparedRequest(
                "POST",
                f"/api/v1/chouette/sessions/{session.pk}/games/",
                json.dumps(body).encode(),
                {**JSON, "Authorization": f"Token {token}", "Idempotency-Key": str(uuid.uuid4())},
                expect=(201,),
            )
        )
    return plan


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    from chouette.models import ChouetteGame
    from games.models import DomainEvent, Game

    club, director, token, tournament, session = _setup()
    seconds = 20 if quick else 180
    plans, all_matches = [], []
    for i in range(5):
        plan, ids = _score_plan(club, director, token, length=7 if i == 0 else 0, games=4000)
        plans.append(plan)
        all_matches += ids
    reads = [
        PreparedRequest("GET", f"/api/v1/tournaments/{tournament.slug}/bracket/", headers=JSON),
        PreparedRequest("GET", f"/api/v1/tournaments/{tournament.slug}/standings/", headers=JSON),
    ]
    plans += [reads * 50_000, list(reversed(reads)) * 50_000]
    plans.append(_chouette_plan(session, token, 4000))
    games_before = Game.objects.filter(match_id__in=all_matches).count()
    chouette_before = ChouetteGame.objects.filter(session=session).count()
    events_before = DomainEvent.objects.count()
    tally: dict[str, int] = {}
    with celery_worker(), gunicorn(workers=2, with_worker=True) as (host, port):
        load = run_load(host, port, plans, seconds, tally=tally)
        deadline = time.monotonic() + 60
        while (
            DomainEvent.objects.filter(handled_at__isnull=True, id__gt=0).count()
            and time.monotonic() < deadline
        ):
            time.sleep(0.5)
    told = Counter()
    for key, count in tally.items():
        method, path, status = key.split()
        if method == "POST" and status == "201":
            told["chouette" if "/chouette/" in path else "games"] += count
    stored_games = Game.objects.filter(match_id__in=all_matches).count() - games_before
    stored_chouette = ChouetteGame.objects.filter(session=session).count() - chouette_before
    new_events = DomainEvent.objects.count() - events_before
    unhandled = DomainEvent.objects.filter(handled_at__isnull=True).count()
    load.update(
        {
            "games_told_201": told["games"],
            "games_stored": stored_games,
            "chouette_games_told_201": told["chouette"],
            "chouette_games_stored": stored_chouette,
            "outbox_events_written": new_events,
            "outbox_events_unhandled": unhandled,
            "database_matches_clients": stored_games == told["games"]
            and stored_chouette == told["chouette"]
            and unhandled == 0,
        }
    )
    return load
