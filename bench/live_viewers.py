"""``live-viewers``: thousands of open live pages on one event while results are entered.

Starts the production stack as ``make serve`` does (``deploy/serve.sh``: Pushpin in
front of gunicorn, the live relay, a Celery worker and beat) on the bench database and
the bench Redis database, on ``BENCH_LIVE_PORT`` (default 8760, and the two ports
after it). Prepares a 32-player single elimination (16 first-round matches), opens
``BENCH_LIVE_VIEWERS`` streams (default 2,000; 200 with ``--quick``) on
``/live/stream/?channel=tournament:<id>`` with an asynchronous client (aiohttp), then
records games on the event's matches through the API (``POST
/api/v1/matches/<id>/games/``, a director's token), one every ``1/BENCH_LIVE_RATE``
seconds (default 4 a second), while another client reads the event's bracket API.

Reports: the share of (viewer, game) notices delivered, the p50/p99 latency from the
start of the POST to the arrival of its notice at each viewer, the p99 of the other
requests (the game entries themselves and the bracket reads), the memory of the live
component per viewer (the RSS of Pushpin's processes and the relay, after the streams
opened minus before, divided by the viewers), and the load average (the machine is
shared). ``BENCH_LIVE_URL`` points it at a stack already running instead (whose
database must be the bench database); then no memory figure is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import signal
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from .server import BENCH_REDIS_URL, ROOT, bench_database_url, setup_django

LIVE_PROCESSES = ("condure", "pushpin-proxy", "pushpin-handler", "zurl", "pushpin", "m2adapter")


def _prepare() -> tuple[int, str, list[tuple[int, int, int]], str]:
    """(tournament id and slug, [(match id, player 1, player 2)], a director's token)."""
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from games.models import Club, Player
    from games.services import clubs as club_services
    from games.services.actors import actor_for_user
    from tournaments.models import Pairing
    from tournaments.services import entries as entry_services
    from tournaments.services import events as event_services

    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    actor = actor_for_user(user)
    club = Club.objects.filter(slug="bench-live").first() or club_services.create_club(
        created_by=user, name="Bench live", slug="bench-live"
    )
    players = list(Player.objects.filter(clubs=club).order_by("pk")[:32])
    for i in range(len(players), 32):
        players.append(club_services.create_player(display_name=f"L{i}", clubs=[club]))
    event = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Bench live",
        slug=f"bench-live-{uuid.uuid4().hex[:8]}",
        format="single_elimination",
        seeding="random",
    )
    for player in players:
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    matches = [
        (p.match_id, p.match.player1_id, p.match.player2_id)
        for p in Pairing.objects.filter(tournament=event, match__isnull=False).select_related(
            "match"
        )
    ]
    _, token = AuthToken.objects.create(user)
    return event.pk, event.slug, matches, token


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo.extend(int(child) for child in task.read_text().split())
    return found


def _rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def _live_pids(root: int) -> list[int]:
    """Pushpin's processes and the relay, in the stack started under ``root``."""
    found = []
    for pid in _tree(root):
        with contextlib.suppress(OSError):
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if comm in LIVE_PROCESSES or b"live_relay" in cmdline:
                found.append(pid)
    return found


@contextlib.contextmanager
def _stack(port: int):
    """``deploy/serve.sh`` on the bench database, in its own process group."""
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": bench_database_url(),
            "REDIS_URL": os.environ.get("BENCH_REDIS_URL", BENCH_REDIS_URL),
            "LIVE_REDIS_CHANNEL": "boxcars:live:bench",
            "SECRET_KEY": "bench-" + "k" * 60,
            "PORT": str(port),
            "LOG_LEVEL": "WARNING",
            "THROTTLE_SCORE": "1000000/min",
            "CONN_MAX_AGE": "60",
            "LIVE_STREAMS_PER_ADDRESS": "0",  # thousands of viewers from one host
            "CLUBS_PER_USER": "0",
        }
    )
    log = open(ROOT / ".pytest_cache" / "bench-live-serve.log", "w")  # noqa: SIM115
    process = subprocess.Popen(
        [str(ROOT / "deploy" / "serve.sh")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"the stack did not come up; see {log.name}") from None
                time.sleep(0.5)
        yield process
    finally:
        process.send_signal(signal.SIGTERM)  # honcho stops every process it started
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


VERSION = re.compile(rb'"version": "([^"]+)"')


async def _viewer(
    session: Any, url: str, arrivals: dict[str, float], opened: list[int], retries: list[int]
) -> None:
    """One live page: open the stream (again after a second when refused, as a
    browser's EventSource does) and note when each notice's version first arrives."""
    import aiohttp

    for _attempt in range(30):
        try:
            async with session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as response:
                if response.status != 200:
                    raise RuntimeError(f"stream answered {response.status}")
                opened[0] += 1
                async for chunk in response.content.iter_any():
                    now = time.monotonic()
                    for version in VERSION.findall(chunk):
                        arrivals.setdefault(version.decode(), now)
                return
        except (RuntimeError, aiohttp.ClientError, OSError):
            retries[0] += 1
            await asyncio.sleep(1)
    raise RuntimeError("stream never opened")


async def _load(
    base: str, tournament: int, slug: str, matches: list[tuple[int, int, int]], token: str,
    viewers: int, games: int, rate: float, on_open: Any,
) -> dict[str, Any]:  # fmt: skip
    import aiohttp

    stream_base = os.environ.get("BENCH_LIVE_STREAM_URL", base).rstrip("/")
    url = f"{stream_base}/live/stream/?channel=tournament:{tournament}"
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    arrivals: list[dict[str, float]] = [{} for _ in range(viewers)]
    opened, retries = [0], [0]
    failures: list[str] = []
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = []
        started = time.monotonic()
        for i in range(viewers):
            task = asyncio.create_task(_viewer(session, url, arrivals[i], opened, retries))
            task.add_done_callback(
                lambda t: (
                    failures.append(repr(t.exception()))
                    if not t.cancelled() and t.exception()
                    else None
                )
            )
            tasks.append(task)
            if i % 50 == 49:
                await asyncio.sleep(0.5)  # 100 pages a second start following
        while opened[0] + len(failures) < viewers and time.monotonic() - started < 120:
            await asyncio.sleep(0.2)
        open_seconds = time.monotonic() - started
        await asyncio.sleep(1)
        memory = on_open(opened[0])

        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        sent: dict[str, float] = {}
        entry_ms: list[float] = []
        read_ms: list[float] = []
        errors: list[int] = []
        done = asyncio.Event()

        async def reader() -> None:
            while not done.is_set():
                t0 = time.monotonic()
                async with session.get(
                    f"{base}/api/v1/tournaments/{slug}/bracket/", headers=headers
                ) as response:
                    await response.read()
                    if response.status != 200:
                        errors.append(response.status)
                read_ms.append((time.monotonic() - t0) * 1000)
                await asyncio.sleep(0.1)

        reading = asyncio.create_task(reader())
        for k in range(games):
            match_id, p1, p2 = matches[k % len(matches)]
            number = k // len(matches) + 1
            body = {"winner": p1 if number % 2 else p2, "number": number}
            t0 = time.monotonic()
            async with session.post(
                f"{base}/api/v1/matches/{match_id}/games/",
                json=body,
                headers={**headers, "Idempotency-Key": str(uuid.uuid4())},
            ) as response:
                payload = await response.read()
                if response.status != 201:
                    errors.append(response.status)
                    continue
            entry_ms.append((time.monotonic() - t0) * 1000)
            sent[f"match.{match_id}.{_version(payload)}"] = t0
            await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - t0)))
        settle = time.monotonic() + 20  # the last notices, read by a busy client
        while time.monotonic() < settle and any(
            v not in got for got in arrivals[: opened[0]] for v in list(sent)[-3:]
        ):
            await asyncio.sleep(0.5)
        done.set()
        await reading
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    latencies = [
        (got[v] - t) * 1000 for got in arrivals[: opened[0]] for v, t in sent.items() if v in got
    ]
    expected = opened[0] * len(sent)
    return {
        "viewers_opened": opened[0],
        "viewer_failures": len(failures),
        "stream_retries": retries[0],
        "first_failure": failures[0] if failures else "",
        "seconds_to_open": round(open_seconds, 1),
        "games_recorded": len(sent),
        "notices_delivered": f"{len(latencies)}/{expected}",
        "delivery_share": round(len(latencies) / expected, 4) if expected else 0,
        "notice_latency_ms_p50": round(_pct(latencies, 0.5), 1),
        "notice_latency_ms_p99": round(_pct(latencies, 0.99), 1),
        "notice_latency_ms_max": round(max(latencies), 1) if latencies else None,
        "entry_ms_p50": round(_pct(entry_ms, 0.5), 1),
        "entry_ms_p99": round(_pct(entry_ms, 0.99), 1),
        "bracket_read_ms_p99": round(_pct(read_ms, 0.99), 1),
        "bracket_reads": len(read_ms),
        "other_requests_ms_p99": round(_pct(entry_ms + read_ms, 0.99), 1),
        "errors": errors[:10],
        **memory,
    }


def _version(payload: bytes) -> int:
    """The match's version after the game just recorded: its notice names it."""
    data = json.loads(payload)
    match = data.get("match", data)
    return int(match["version"])


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    viewers = int(os.environ.get("BENCH_LIVE_VIEWERS", 200 if quick else 2000))
    games = int(os.environ.get("BENCH_LIVE_GAMES", 20 if quick else 60))
    rate = float(os.environ.get("BENCH_LIVE_RATE", 4))
    port = int(os.environ.get("BENCH_LIVE_PORT", 8760))
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    (ROOT / ".pytest_cache").mkdir(exist_ok=True)
    setup_django()
    tournament, slug, matches, token = _prepare()
    load_before = os.getloadavg()
    external = os.environ.get("BENCH_LIVE_URL", "")
    with contextlib.ExitStack() as stack:
        process = None if external else stack.enter_context(_stack(port))
        base = external.rstrip("/") or f"http://127.0.0.1:{port}"
        # BENCH_LIVE_STREAM_PID: the process holding the streams when it is not ours
        other = int(os.environ.get("BENCH_LIVE_STREAM_PID", 0))
        pids = (lambda: _tree(other)) if other else (lambda: _live_pids(process.pid))
        live_before = _rss_mib(pids()) if process or other else 0.0

        def on_open(opened: int) -> dict[str, Any]:
            if (process is None and not other) or not opened:
                return {}
            after = _rss_mib(pids())
            return {
                "live_rss_mib_before": round(live_before, 1),
                "live_rss_mib_open": round(after, 1),
                "live_kib_per_viewer": round((after - live_before) * 1024 / opened, 1),
            }

        result = asyncio.run(
            _load(base, tournament, slug, matches, token, viewers, games, rate, on_open)
        )
    result["load_average_before"] = [round(x, 2) for x in load_before]
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    result["rate_per_second"] = rate
    return result
