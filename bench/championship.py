"""``championship``: a 512-player event played to the end by 128 phones behind one address.

The Monte Carlo shape (issue 26): single elimination with a progressive consolation
(losers of rounds 1 and 2) and a last chance (losers of round 1 of the consolation),
512 players entered in one bulk request. The bench plays it round by round over HTTP:
every match that is ready is played by one of ``--clients`` (128) concurrent clients
from 127.0.0.1, half game by game (``POST .../games/``), half by a final score
(``POST .../result/``), half through the players' private score links
(``X-Score-Link``), half through their own API tokens, and each finished match is
confirmed by the loser. A *round* here is a wave: every match ready when it starts (the
main round and the consolation and last-chance rounds that became ready with it).

Per round: p50/p99 per kind of request (game, final score, confirmation), errors, 429s
and 5xx; results per second (matches finished / the wave's wall time) and the CPU of
the server's processes (gunicorn and PostgreSQL, from ``/proc``) per finished match;
the time from the round's last result to the last of the next round's matches (the
server's own timestamps: ``finished_at`` of the last result, ``created_at`` of the next
matches); how long after the round's last result the odds were up to date with every
result (asked every 0.25 s through the round, then up to ``--odds-wait`` seconds:
``bench/odds_watch.py``); the load average.

``--arrivals 30`` plays each round's end in the open loop the issue's target names
("every first-round result and its confirmation arriving within 30 s"): the games
before each match's last are entered first (reported apart, as ``prelude_requests``),
then every match's result (its final score or last game) arrives at a random moment
within the 30 s and the loser's confirmation 1-4 s after it, each request sent at its
moment whatever the server's answers (no coordinated omission: how late the generator
sent any is reported). Without it, the closed loop: every client as fast as the server
answers, which measures results per second at saturation.

``--url http://127.0.0.1:8000`` plays against a running server (``make serve``) whose
database is ``--database-url`` (default ``BENCH_DATABASE_URL``; the bench prepares the
event there) and whose ``SECRET_KEY`` is the bench's (score links are signed). Without
``--url`` the bench starts what ``docker-compose.yml`` runs: gunicorn, 3 workers × 16
gthread threads, and a Celery worker, on the bench database. Either way the bench runs
score entry with its per-user throttle raised (``THROTTLE_SCORE``) only when it starts
the server itself; 429s are counted and reported, never retried.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import threading
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any
from urllib.parse import urlparse

from . import machine_cpu
from .odds_watch import OddsWatch
from .score_entry import _cpu_seconds
from .server import celery_worker, gunicorn, setup_django

PLAYERS = 512
CLIENTS = 128
LENGTH = 3  # points per match: 3 games game by game, enough to measure, short to run


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench championship")
    parser.add_argument("--url", default=os.environ.get("BENCH_URL", ""))
    parser.add_argument("--database-url", default="")
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--length", type=int, default=LENGTH)
    parser.add_argument("--rounds", type=int, default=0, help="stop after this many (0: all)")
    parser.add_argument("--odds-wait", type=float, default=10.0)
    parser.add_argument(
        "--web-port",
        type=int,
        default=0,
        help="the port gunicorn listens on, for its CPU figure (make serve: PORT+1; "
        "default the URL's)",
    )
    parser.add_argument(
        "--arrivals",
        type=float,
        default=0.0,
        help="open loop: each round's requests arrive at random moments within this many "
        "seconds (0: closed loop, every client as fast as the server answers)",
    )
    return parser.parse_args(argv)


# --- the event ------------------------------------------------------------------------------


def _prepare(players: int, length: int, host: str, port: int) -> dict[str, Any]:
    """A director, ``players`` players with accounts and tokens, the event entered in one
    bulk request (through the server) and started."""
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from games.models import Player
    from games.services import clubs as club_services
    from games.services.actors import actor_for_user
    from tournaments.services import entries as entry_services
    from tournaments.services import events as event_services

    User = get_user_model()
    tag = uuid.uuid4().hex[:6]
    director = User.objects.create(username=f"champ-director-{tag}")
    club = club_services.create_club(
        created_by=director, name=f"Championship {tag}", slug=f"champ-{tag}"
    )
    actor = actor_for_user(director)
    event = event_services.create_tournament(
        actor=actor,
        club=club,
        name=f"Championship {tag}",
        format="single_elimination",
        consolation_from=[1, 2],
        last_chance_from=[1],
        seeding="random",
        random_seed=7,
        match_lengths={"default": length},
        rated=False,
    )
    _, director_token = AuthToken.objects.create(director)
    names = [f"Champ {tag} {i:04d}" for i in range(players)]
    status, body, _ = _request(
        host,
        port,
        "POST",
        f"/api/v1/tournaments/{event.slug}/entries/bulk/",
        {"names": names},
        {"Authorization": f"Token {director_token}"},
    )
    assert status == 201, (status, body[:300])
    tokens: dict[int, str] = {}
    users = User.objects.bulk_create([User(username=f"champ-{tag}-{i}") for i in range(players)])
    by_name = {p.display_name: p for p in Player.objects.filter(clubs=club)}
    for user, name in zip(users, names, strict=True):
        player = by_name[name]
        player.user = user
        player.save(update_fields=["user"])
        tokens[player.pk] = AuthToken.objects.create(user)[1]
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    return {"event": event, "tokens": tokens, "director_token": director_token}


# --- HTTP -----------------------------------------------------------------------------------

_local = threading.local()


def _request(
    host: str, port: int, method: str, path: str, body: Any, headers: dict[str, str]
) -> tuple[int, bytes, float]:
    """One request on this thread's keep-alive connection: (status, body, seconds).

    As a browser or urllib3 does, a request that fails on a reused connection before any
    answer (the server closed it after its keep-alive time: gunicorn's is 2 s, and in the
    open loop a phone is idle longer) is sent once more on a new one; every POST carries
    an ``Idempotency-Key``, so a retried one is never recorded twice."""
    data = json.dumps(body).encode() if body is not None else b""
    headers = {"Content-Type": "application/json", "Accept": "application/json", **headers}
    started = time.perf_counter()
    for attempt in range(2):
        conn = getattr(_local, "conn", None)
        reused = conn is not None
        if conn is None:
            conn = _local.conn = http.client.HTTPConnection(host, port, timeout=120)
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            _local.conn = None
            if reused and attempt == 0 and not isinstance(exc, TimeoutError):
                continue
            return 0, str(exc).encode(), time.perf_counter() - started
        return response.status, payload, time.perf_counter() - started
    raise AssertionError("unreachable")


class Tally:
    """Latencies and statuses per kind of request, shared by the client threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.samples: list[str] = []

    def add(self, kind: str, status: int, seconds: float, body: bytes) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            self.statuses[kind][status] += 1
            if status not in (200, 201) and len(self.samples) < 5:
                self.samples.append(f"{kind} {status} {body[:160]!r}")

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        latencies = dict(self.latencies)
        results = self.latencies.get("final_score", []) + self.latencies.get("final_game", [])
        if results:  # the "result": the request that finishes a match, either way
            latencies["result"] = results
        for kind, values in sorted(latencies.items()):
            values = sorted(values)
            count = len(values)
            statuses = (
                self.statuses[kind]
                if kind != "result"
                else {
                    status: self.statuses["final_score"].get(status, 0)
                    + self.statuses["final_game"].get(status, 0)
                    for status in {*self.statuses["final_score"], *self.statuses["final_game"]}
                }
            )
            out[kind] = {
                "requests": count,
                "p50_ms": round(values[count // 2] * 1000, 1),
                "p99_ms": round(values[min(count - 1, int(0.99 * count))] * 1000, 1),
                "max_ms": round(values[-1] * 1000, 1),
                "429": statuses.get(429, 0),
                "5xx": sum(n for s, n in statuses.items() if s >= 500),
                "errors": sum(n for s, n in statuses.items() if s not in (200, 201)),
            }
        return out


def _credential(player_id: int, match: Any, by_link: bool, tokens: dict[int, str]) -> dict:
    from games import score_links

    if by_link:
        return {score_links.HEADER: score_links.make_token(match, match_player(match, player_id))}
    return {"Authorization": f"Token {tokens[player_id]}"}


def match_player(match: Any, player_id: int) -> Any:
    return match.player1 if match.player1_id == player_id else match.player2


def _plan(match: Any, index: int, tokens: dict[int, str], rng) -> list[tuple[str, str, Any, dict]]:
    """One match's requests in order: the winner's phone enters it (game by game or the
    final score), the loser's phone confirms it. Each is (kind, path, body, headers)."""
    winner, loser = (
        (match.player1_id, match.player2_id)
        if rng.random() < 0.5
        else (match.player2_id, match.player1_id)
    )
    by_link = index % 4 < 2
    entering = _credential(winner, match, by_link, tokens)
    base = f"/api/v1/matches/{match.pk}"
    plan: list[tuple[str, str, Any, dict]] = []
    if index % 2:
        for number in range(1, match.length + 1):
            kind = "final_game" if number == match.length else "game"
            plan.append((kind, f"{base}/games/", {"winner": winner, "number": number}, entering))
    else:
        score = [match.length, 0] if winner == match.player1_id else [0, match.length]
        plan.append(("final_score", f"{base}/result/", {"score": score}, entering))
    plan.append(("confirm", f"{base}/confirm/", None, _credential(loser, match, by_link, tokens)))
    return plan


def _send(host: str, port: int, step: tuple[str, str, Any, dict], tally: Tally) -> bool:
    kind, path, body, headers = step
    status, payload, seconds = _request(
        host, port, "POST", path, body, {**headers, "Idempotency-Key": str(uuid.uuid4())}
    )
    tally.add(kind, status, seconds, payload)
    return status in (200, 201)


def _play(
    host: str, port: int, match: Any, index: int, tokens: dict[int, str], tally: Tally, rng
) -> None:
    """One match as fast as the server answers (the closed loop)."""
    _play_steps(host, port, _plan(match, index, tokens, rng), tally)


def _play_steps(host: str, port: int, steps: list, tally: Tally) -> None:
    for step in steps:
        if not _send(host, port, step, tally):
            return


def _arrival_times(window: float, rng) -> list[float]:
    """When a match's result and its confirmation arrive in an open-loop round end of
    ``window`` seconds: the result at a random moment, the loser's confirmation 1-4 s
    later, both within the window (the issue's "every first-round result and its
    confirmation arriving within 30 s"), as phones at a venue whose matches end over
    half a minute."""
    result = rng.uniform(0, window - 4)
    return [result, result + rng.uniform(1, 4)]


def _play_at(
    host: str, port: int, steps: list, times: list[float], start: float,
    tally: Tally, late: list[float],
) -> None:  # fmt: skip
    """One match in the open loop: each request at its moment (from ``start``), never
    earlier; how late a request left (a client busy, the generator starved) is kept."""
    for step, at in zip(steps, times, strict=True):
        delay = start + at - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        else:
            late.append(-delay)
        if not _send(host, port, step, tally):
            return


# --- the rounds -----------------------------------------------------------------------------


def _ready(event) -> list[Any]:
    from games.models import Match, MatchStatus

    return list(
        Match.objects.filter(
            tournament_pairing__tournament=event,
            tournament_pairing__status="ready",
            status=MatchStatus.SCHEDULED,
        )
        .select_related("player1", "player2", "tournament_pairing__round__stage")
        .order_by("pk")
    )


class LockProbe:
    """Samples ``pg_stat_activity`` every 50 ms while a round is played: how many
    backends wait on a lock, on what (a row lock held by a running transaction shows
    as ``transactionid``) and in which statement."""

    QUERY = r"""
        SELECT COALESCE(l.relation::regclass::text, l.locktype) || ': '
            || regexp_replace(left(a.query, 60), '\s+', ' ', 'g')
        FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid AND NOT l.granted
        WHERE a.wait_event_type = 'Lock' AND a.datname = current_database()
    """

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.samples = 0
        self.most = 0
        self.waits: dict[str, int] = defaultdict(int)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        from django.db import connection

        try:
            while not self.stop.is_set():
                with connection.cursor() as cursor:
                    cursor.execute(self.QUERY)
                    rows = [r[0] for r in cursor.fetchall()]
                self.samples += 1
                self.most = max(self.most, len(rows))
                for name in rows:
                    self.waits[name] += 1
                self.stop.wait(0.05)
        finally:
            connection.close()

    def __enter__(self) -> LockProbe:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def summary(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "most_waiting_at_once": self.most,
            "waiting_samples_by_table": dict(sorted(self.waits.items(), key=lambda kv: -kv[1])),
        }


def _wave(
    host, port, event, matches, tokens, clients, port_for_cpu, arrivals: float = 0.0
) -> dict[str, Any]:
    from games.models import Match

    tally, prelude = Tally(), Tally()
    rng = random.Random(len(matches))
    late: list[float] = []
    cpu_before = _cpu_seconds(port_for_cpu)
    started = time.perf_counter()
    machine_before = machine_cpu.snapshot()
    with LockProbe() as probe, ThreadPoolExecutor(max_workers=clients) as pool:
        if arrivals:
            plans = [_plan(m, i, tokens, rng) for i, m in enumerate(matches)]
            # The games before a match's last were entered while it was played (minutes
            # earlier, at human speed): sent first, their figures kept apart ("prelude"),
            # so the window holds what the target names, the results and their
            # confirmations.
            for future in [
                pool.submit(_play_steps, host, port, p[:-2], prelude) for p in plans if p[:-2]
            ]:
                future.result()
            started = time.perf_counter()
            machine_before = machine_cpu.snapshot()
            timed = sorted(
                ((_arrival_times(arrivals, rng), p[-2:]) for p in plans), key=lambda t: t[0][0]
            )
            futures = []
            for times, plan in timed:  # a client takes a match when its first request is due
                delay = started + times[0] - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                futures.append(pool.submit(_play_at, host, port, plan, times, started, tally, late))
        else:
            futures = [
                pool.submit(_play, host, port, m, i, tokens, tally, rng)
                for i, m in enumerate(matches)
            ]
        for future in futures:
            future.result()
    wall = time.perf_counter() - started
    cpu_after = _cpu_seconds(port_for_cpu)
    by_role = machine_cpu.spent(machine_before, machine_cpu.snapshot())
    ids = [m.pk for m in matches]
    finished = Match.objects.filter(pk__in=ids, finished_at__isnull=False)
    done = finished.count()
    last_result = max(finished.values_list("finished_at", flat=True), default=None)
    following = Match.objects.filter(
        tournament_pairing__tournament=event, created_at__gte=_first_created(matches)
    ).exclude(pk__in=ids)
    last_next = max(following.values_list("created_at", flat=True), default=None)
    stages = sorted(
        {
            f"{m.tournament_pairing.round.stage.kind}-r{m.tournament_pairing.round.number}"
            for m in matches
        }
    )
    server_cpu = cpu_after[0] - cpu_before[0]
    database_cpu = cpu_after[1] - cpu_before[1]
    return {
        "rounds": stages,
        "matches": len(matches),
        "finished": done,
        "wall_s": round(wall, 2),
        "results_per_s": round(done / wall, 1) if wall else None,
        "requests": tally.summary(),
        **(
            {
                "arrivals_within_s": arrivals,
                "prelude_requests": prelude.summary(),
                "requests_sent_over_10ms_late": sum(1 for x in late if x > 0.01),
                "latest_send_ms": round(max(late, default=0) * 1000, 1),
            }
            if arrivals
            else {}
        ),
        "errors_sample": tally.samples,
        "lock_waits": probe.summary(),
        "server_cpu_ms_per_match": round(server_cpu / done * 1000, 1) if done else None,
        "database_cpu_ms_per_match": round(database_cpu / done * 1000, 1) if done else None,
        "last_result_to_next_round_ms": (
            round((last_next - last_result).total_seconds() * 1000, 1)
            if last_next and last_result
            else None
        ),
        # the whole machine's CPU through the window (after the prelude), by role, and
        # how busy its cores were: who else had the cores while results waited
        "machine_cpu_s": by_role,
        "machine_busy_share": (
            round(sum(by_role.values()) / (wall * (os.cpu_count() or 1)), 2) if wall else None
        ),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "_last_result": last_result,
    }


def _first_created(matches: list[Any]):
    return min(m.created_at for m in matches)


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    args = _args((context or {}).get("argv", []))
    if quick:
        args.players, args.clients = min(args.players, 64), min(args.clients, 32)
    if args.database_url:
        os.environ["BENCH_DATABASE_URL"] = args.database_url
    setup_django()
    from tournaments.models import Pairing

    with ExitStack() as stack:
        if args.url:
            parsed = urlparse(args.url)
            host, port = parsed.hostname or "127.0.0.1", parsed.port or 80
            server = "given"
        else:
            stack.enter_context(celery_worker())
            host, port = stack.enter_context(
                gunicorn(3, threads=16, with_worker=True, port=int(os.environ.get("BENCH_PORT", 0)))
            )
            server = "gunicorn 3x16 gthread + 1 celery worker (started by the bench)"
        load_before = [round(x, 2) for x in os.getloadavg()]
        prepared = _prepare(args.players, args.length, host, port)
        event, tokens = prepared["event"], prepared["tokens"]
        rounds: list[dict[str, Any]] = []
        started = time.perf_counter()
        while True:
            matches = _ready(event)
            if not matches or (args.rounds and len(rounds) >= args.rounds):
                break
            with OddsWatch(host, port, event.slug, prepared["director_token"]) as watch:
                result = _wave(
                    host, port, event, matches, tokens, args.clients, args.web_port or port,
                    args.arrivals,
                )  # fmt: skip
                # the measure: from the round's last result (the server's clock,
                # this machine's) to odds seen up to date with every result (an upper
                # bound: asked every 0.25 s through the round, bench/odds_watch.py)
                last = result.pop("_last_result", None)
                decided = Pairing.objects.filter(tournament=event, winner__isnull=False)
                result["odds"] = (
                    watch.wait_fresh(last, decided.count(), args.odds_wait) if last else {}
                )
            rounds.append(result)
            print(json.dumps({"round": len(rounds), **result}), flush=True)
        total = time.perf_counter() - started
    finished = sum(r["finished"] for r in rounds)
    finals = [
        r["requests"][k]["p99_ms"]
        for r in rounds
        for k in ("final_score", "final_game")
        if k in r["requests"]
    ]
    return {
        "server": server,
        "players": args.players,
        "clients": args.clients,
        "match_length": args.length,
        "mode": f"open loop, each round within {args.arrivals} s"
        if args.arrivals
        else "closed loop",
        "rounds_played": len(rounds),
        "matches_finished": finished,
        "total_s": round(total, 1),
        "load_average_before": load_before,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "worst_result_p99_ms": max(finals, default=None),
        "median_round_results_per_s": statistics.median([r["results_per_s"] for r in rounds])
        if rounds
        else None,
        "best_round_results_per_s": max((r["results_per_s"] for r in rounds), default=None),
        "requests_429": sum(
            v["429"] for r in rounds for n, v in r["requests"].items() if n != "result"
        ),
        "requests_5xx": sum(
            v["5xx"] for r in rounds for n, v in r["requests"].items() if n != "result"
        ),
        "requests_failed": sum(
            v["errors"] for r in rounds for n, v in r["requests"].items() if n != "result"
        ),
    }
