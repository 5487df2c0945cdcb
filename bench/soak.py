"""``soak``: minutes of mixed traffic with a worker lost in the middle, then proof
that nothing was lost or doubled.

gunicorn (2 workers) on PostgreSQL with a real Celery worker (beat embedded) on Redis.
Nine clients: five enter games on their own matches (one of which finishes every few
games, so rating jobs run on the worker), each sending some requests twice with the
same ``Idempotency-Key`` (a phone retrying, at once or a little later); two read
brackets and standings of a running tournament; one records chouette games (with
retries too); one director corrects the final scores of rated matches (each
correction starts a rating recomputation job). Part way through, the worker's main
process is SIGKILLed with its pool child and beat (the machine is lost) and a new
worker is started; the jobs it was running are noticed by their stopped heartbeat
(a short ``JOB_HEARTBEAT_TIMEOUT`` here) and retried.

Afterwards the database is compared with what the clients were told: every request
answered 201 is stored exactly once (retries included), nothing else is; no 5xx
outside the restart window; every outbox event handled; no job left queued or
running; and each rating list equals a clean recomputation from scratch.
"""

from __future__ import annotations

import io
import json
import threading
import time
import uuid

from .loadgen import PreparedRequest, run_load
from .server import CeleryWorker, gunicorn, setup_django

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
    from games.services import match_create
    from games.services.actors import actor_for_user

    players = list(club.players.order_by("id"))
    actor = actor_for_user(director)
    a, b = players[0], players[1]
    plan, match_ids = [], []
    match = None
    number = 0
    for _ in range(games):
        if match is None or (length and number >= length):
            match = match_create.create_match(
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
        _retry_some(plan)
    return plan, match_ids


def _retry_some(plan: list[PreparedRequest]) -> None:
    """A phone whose answer got lost sends the same request again, same key and body:
    every fifth request at once, every seventh a little later. The API answers a retry
    with the first response and writes nothing twice."""
    if len(plan) % 5 == 0:
        plan.append(plan[-1])
    if len(plan) % 7 == 0 and len(plan) > 3:
        plan.append(plan[-3])


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
        _retry_some(plan)
    return plan


def _rated_matches(club, director, count: int) -> list[int]:
    """Rated 5-point matches recorded by their final score, for the director to correct."""
    from games.services import match_create, score_entry
    from games.services.actors import actor_for_user

    actor = actor_for_user(director)
    players = list(club.players.order_by("id"))[2:]
    ids = []
    for i in range(count):
        a, b = players[i % len(players)], players[(i + 1) % len(players)]
        match = match_create.create_match(
            actor=actor, club=club, player1=a, player2=b, length=5, label="soak corrections"
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(5, i % 5))
        ids.append(match.pk)
    return ids


def _corrections_plan(match_ids: list[int], token: str, rounds: int) -> list[PreparedRequest]:
    """A director corrects final scores, turning each result over and back, and reads
    the club's ratings between corrections. Each correction changes a rated result, so
    a rating recomputation job runs on the worker."""
    plan = []
    for r in range(rounds):
        for i, match_id in enumerate(match_ids):
            loser = (i + r) % 5
            score = [5, loser] if r % 2 else [loser, 5]
            plan.append(
                PreparedRequest(
                    "POST",
                    f"/api/v1/matches/{match_id}/result/",
                    json.dumps({"score": score}).encode(),
                    {
                        **JSON,
                        "Authorization": f"Token {token}",
                        "Idempotency-Key": str(uuid.uuid4()),
                    },
                    expect=(200,),
                )
            )
            plan += [
                PreparedRequest(
                    "GET",
                    "/api/v1/clubs/soak/ratings/",
                    headers={**JSON, "Authorization": f"Token {token}"},
                )
            ] * 4
    return plan


def _restart_worker_midway(worker: CeleryWorker, after: float, window: dict) -> threading.Thread:
    """SIGKILL the whole worker ``after`` seconds into the load, start a new one, and
    note the window (unix times) in which 5xx answers would be excused."""

    def restart() -> None:
        time.sleep(after)
        window["start"] = time.time()
        window["jobs_running"] = _running_jobs()
        worker.kill()
        time.sleep(1)
        worker.start()
        window["end"] = time.time() + 5

    thread = threading.Thread(target=restart, daemon=True)
    thread.start()
    return thread


def _running_jobs() -> int:
    from django.db import connection

    from core.models import Job

    try:
        return Job.objects.filter(status="running").count()
    finally:
        connection.close()  # this thread's connection


def _wait_until_settled(since, timeout: float) -> float:
    """Wait for the worker to handle every outbox event and finish every job (the killed
    worker's are swept: events after 30 s, jobs after their heartbeat bound)."""
    from core.models import DomainEvent, Job

    started = time.monotonic()
    deadline = started + timeout
    while time.monotonic() < deadline:
        busy = Job.objects.filter(created_at__gte=since, status__in=["queued", "running"])
        if not DomainEvent.objects.filter(handled_at__isnull=True).exists() and not busy.exists():
            break
        time.sleep(1)
    return round(time.monotonic() - started, 1)


def _ratings_match_a_clean_recomputation() -> dict:
    """Recompute every rating list from scratch and report any rating that differs."""
    from games.models import RatingList
    from games.services import ratings as rating_services

    drifted, worst, lists = 0, 0.0, 0
    for list_id in RatingList.objects.order_by("id").values_list("id", flat=True):
        report = rating_services.recompute_list(rating_list_id=list_id)
        drifted += report.drifted_players
        worst = max(worst, report.max_drift)
        lists += 1
    return {"lists": lists, "drifted_players": drifted, "max_drift": worst}


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    from django.utils import timezone

    from chouette.models import ChouetteGame
    from core.models import DomainEvent, Job
    from games.models import Game

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
    plans.append(_corrections_plan(_rated_matches(club, director, 8), token, 500))
    since = timezone.now()
    games_before = Game.objects.filter(match_id__in=all_matches).count()
    chouette_before = ChouetteGame.objects.filter(session=session).count()
    events_before = DomainEvent.objects.count()
    tally: dict[str, int] = {}
    outcomes: dict[str, list] = {}
    window: dict = {}
    # A short heartbeat bound so the killed worker's jobs are retried within the run.
    worker = CeleryWorker(beat=True, JOB_HEARTBEAT_TIMEOUT="5", JOB_SWEEP_INTERVAL="2")
    worker.start()
    try:
        with gunicorn(workers=2, with_worker=True) as (host, port):
            load_started = time.time()
            restart = _restart_worker_midway(worker, seconds * 0.4, window)
            load = run_load(host, port, plans, seconds, tally=tally, outcomes=outcomes)
            restart.join()
            settle_seconds = _wait_until_settled(since, 240)
    finally:
        worker.stop()

    accepted = outcomes["accepted_keys"]
    games_keys = {k for k in accepted if "/chouette/" not in k}
    chouette_keys = {k for k in accepted if "/chouette/" in k}
    stored_games = Game.objects.filter(match_id__in=all_matches).count() - games_before
    stored_chouette = ChouetteGame.objects.filter(session=session).count() - chouette_before
    five_xx = outcomes["server_errors"]
    outside = [e for e in five_xx if not window.get("start", 0) <= e[0] <= window.get("end", 0)]
    jobs = Job.objects.filter(created_at__gte=since)
    unhandled = DomainEvent.objects.filter(handled_at__isnull=True).count()
    ratings = _ratings_match_a_clean_recomputation()
    load.update(
        {
            "games_answered_201": sum(
                n for k, n in tally.items() if k.endswith(" 201") and "/chouette/" not in k
            ),
            "games_distinct_keys_201": len(games_keys),
            "games_stored": stored_games,
            "chouette_answered_201": sum(
                n for k, n in tally.items() if k.endswith(" 201") and "/chouette/" in k
            ),
            "chouette_distinct_keys_201": len(chouette_keys),
            "chouette_games_stored": stored_chouette,
            "corrections_answered_200": sum(
                n for k, n in tally.items() if "/result/" in k and k.endswith(" 200")
            ),
            "worker_killed_at_second": round(window["start"] - load_started, 1),
            "worker_back_at_second": round(window["end"] - 5 - load_started, 1),
            "jobs_running_when_killed": window.get("jobs_running"),
            "server_errors_5xx": len(five_xx),
            "server_errors_5xx_outside_restart": len(outside),
            "jobs_started": jobs.count(),
            "jobs_lost_and_retried": jobs.filter(error__code="worker_lost").count(),
            "jobs_not_finished": jobs.filter(status__in=["queued", "running"]).count(),
            "jobs_failed_otherwise": jobs.filter(status="failed")
            .exclude(error__code="worker_lost")
            .count(),
            "settle_seconds": settle_seconds,
            "outbox_events_written": DomainEvent.objects.count() - events_before,
            "outbox_events_unhandled": unhandled,
            "rating_lists_recomputed": ratings["lists"],
            "rating_players_drifted": ratings["drifted_players"],
            "rating_max_drift": ratings["max_drift"],
        }
    )
    load["database_matches_clients"] = (
        stored_games == len(games_keys)
        and stored_chouette == len(chouette_keys)
        and not outside
        and unhandled == 0
        and load["jobs_not_finished"] == 0
        and ratings["drifted_players"] == 0
    )
    return load
