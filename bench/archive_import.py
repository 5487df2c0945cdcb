"""Benchmark: a club-archive bomb uploaded while readers use the site (issue 37).

A gzip file of ~100 KB that inflates to 99 MB (under the 100 MB bound) used to be
parsed inside the request: 502 after 33.8 s, the gunicorn worker killed with the other
requests it held, and 30 MB cost the worker +700 MB. Now the request keeps the file and
answers 202; a Celery worker reads it as a stream (``clubdata.archive.reader``).

What runs: gunicorn (2 sync workers, as the issue's) and one real Celery worker
(concurrency 1) on the bench PostgreSQL and Redis. Readers (4 clients) GET a club's
public API pages throughout; meanwhile the bombs are uploaded one after the other
(30 MB, then 99 MB of JSON). Each bomb is a real exported archive whose ``games``
section holds one real row repeated until the file reaches its size, with ``counts``
to match: the job reads every byte and spools every row, then the import refuses the
second copy of the row (``archive_conflict``: a game number twice), so nothing is
written and the bench can be run again. Figures:

- the upload's answer time and status, and the job's time, status and attempts;
- p50/p99 of the readers' requests *while a bomb is read* and any error among them;
- the web workers' pids before and after (none killed) and their peak memory (VmHWM);
- the Celery pool process's peak memory (VmHWM) before and after each bomb;
- the load average.

``quick``: 3 MB and 10 MB bombs.
"""

from __future__ import annotations

import contextlib
import gzip
import http.client
import io
import json
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from bench.loadgen import PreparedRequest, run_load
from bench.server import celery_worker, gunicorn, setup_django

MB = 1024 * 1024


def _prepare() -> dict[str, Any]:
    """A small club with played matches, a token for its director, and its archive."""
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from clubdata.archive.export import build_archive
    from games.services import clubs as club_services
    from games.services import match_create, score_entry
    from games.services.actors import actor_for_user
    from games.services.match_records import GameInput

    suffix = uuid.uuid4().hex[:8]
    user = get_user_model().objects.create_user(f"bench-archive-{suffix}", password=None)
    club = club_services.create_club(
        created_by=user, name=f"Bench archive {suffix}", slug=f"bench-archive-{suffix}"
    )
    actor = actor_for_user(user)
    players = [
        club_services.create_player(display_name=f"Player {suffix} {n}", clubs=[club])
        for n in range(4)
    ]
    for a, b in ((0, 1), (2, 3), (0, 2)):
        match = match_create.create_match(
            actor=actor, club=club, player1=players[a], player2=players[b], length=3
        )
        for level in ("gammon", "single"):
            score_entry.record_game(
                actor=actor,
                match_id=match.pk,
                game=GameInput(winner_id=players[a].pk, level=level),
            )
    _, token = AuthToken.objects.create(user)
    return {"club": club.slug, "token": token, "archive": build_archive(club)}


def bomb(archive: dict[str, Any], size: int) -> bytes:
    """The archive with its first game repeated until the JSON is ``size`` bytes."""
    archive = json.loads(json.dumps(archive))
    archive["club"]["slug"] = f"bench-bomb-{uuid.uuid4().hex[:8]}"
    row = json.dumps(archive["games"][0]).encode()
    base = len(json.dumps(archive).encode())
    copies = max(1, (size - base) // (len(row) + 2))
    archive["counts"]["games"] += copies
    text = json.dumps(archive).encode()
    head, tail = text.split(b'"games": [', 1)
    body = head + b'"games": [' + (row + b", ") * copies + tail
    return gzip.compress(body, compresslevel=6, mtime=0)


def _multipart(data: bytes) -> tuple[bytes, str]:
    boundary = f"bench{uuid.uuid4().hex}"
    out = io.BytesIO()
    out.write(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="bomb.json.gz"\r\nContent-Type: application/gzip\r\n\r\n'.encode()
    )
    out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in task.read_text().split()]
    return found


def _hwm_mb(pid: int) -> float:
    """The process's peak resident memory (VmHWM), MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def _gunicorn_workers(port: int) -> list[int]:
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"gunicorn" in b" ".join(cmdline) and f"127.0.0.1:{port}".encode() in cmdline:
            children = _children(int(proc.name))
            if children:  # the master (its workers are its children)
                return sorted(children)
    return []


def _request(host: str, port: int, method: str, path: str, token: str, **kw: Any) -> Any:
    conn = http.client.HTTPConnection(host, port, timeout=600)
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    headers.update(kw.pop("headers", {}))
    conn.request(method, path, headers=headers, **kw)
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, json.loads(payload) if payload else None, dict(response.getheaders())


def _upload(host: str, port: int, world: dict[str, Any], data: bytes) -> dict[str, Any]:
    """Upload one bomb; wait for its job; the times, statuses and attempts."""
    body, content_type = _multipart(data)
    started = time.perf_counter()
    status, answer, headers = _request(
        host,
        port,
        "POST",
        "/api/v1/club-archives/",
        world["token"],
        body=body,
        headers={"Content-Type": content_type, "Idempotency-Key": uuid.uuid4().hex},
    )
    answered = time.perf_counter() - started
    out: dict[str, Any] = {"upload_status": status, "upload_seconds": round(answered, 2)}
    if status != 202:
        out["upload_answer"] = str(answer)[:200]
        return out
    location = headers.get("Location") or f"/api/v1/jobs/{answer['id']}/"
    job: dict[str, Any] = {}
    while time.perf_counter() - started < 900:
        _, job, _ = _request(host, port, "GET", location, world["token"])
        if job["status"] in ("succeeded", "failed"):
            break
        time.sleep(0.5)
    out.update(
        {
            "job_status": job.get("status"),
            "job_seconds": round(time.perf_counter() - started, 1),
            "job_attempts": job.get("attempts"),
            "job_error": (job.get("error") or {}).get("code"),
            "json_mb": round((job.get("params") or {}).get("json_bytes", 0) / MB, 1),
        }
    )
    return out


def run(*, quick: bool = False, context: dict | None = None) -> dict[str, Any]:
    setup_django()
    world = _prepare()
    sizes = (3, 10) if quick else (30, 99)
    bombs = {size: bomb(world["archive"], size * MB) for size in sizes}
    reads = [
        PreparedRequest("GET", f"/api/v1/clubs/{world['club']}/"),
        PreparedRequest("GET", f"/api/v1/clubs/{world['club']}/matches.csv"),
        PreparedRequest("GET", "/api/v1/schema/", expect=(200, 404)),
    ]
    port = int(os.environ.get("BENCH_PORT") or 0)
    result: dict[str, Any] = {}
    with (
        celery_worker() as worker,
        gunicorn(workers=2, with_worker=True, port=port or None) as (host, bound),
    ):
        assert worker.process is not None
        time.sleep(2)
        pool = _children(worker.process.pid) or [worker.process.pid]
        web = _gunicorn_workers(bound)
        result["web_workers_before"] = web
        result["celery_pool_mb_before"] = max(_hwm_mb(p) for p in pool)
        quiet = run_load(host, bound, [reads[:2]] * 4, 5)
        result["reads_quiet_p50_ms"], result["reads_quiet_p99_ms"] = (
            quiet["p50_ms"],
            quiet["p99_ms"],
        )
        for size, data in bombs.items():
            done: dict[str, Any] = {}
            uploader = threading.Thread(
                target=lambda d=data, o=done: o.update(_upload(host, bound, world, d))
            )
            uploader.start()
            loaded: list[dict[str, Any]] = []
            while uploader.is_alive():  # read while the bomb is taken and read
                loaded.append(run_load(host, bound, [reads[:2]] * 4, 5))
            uploader.join()
            latencies = [r for r in loaded if r["requests"]]
            result[f"bomb_{size}mb_gzip_kb"] = round(len(data) / 1024, 1)
            for key, value in done.items():
                result[f"bomb_{size}mb_{key}"] = value
            result[f"bomb_{size}mb_reads"] = sum(r["requests"] for r in latencies)
            result[f"bomb_{size}mb_reads_errors"] = sum(r["errors"] for r in latencies)
            result[f"bomb_{size}mb_reads_p50_ms"] = max((r["p50_ms"] for r in latencies), default=0)
            result[f"bomb_{size}mb_reads_p99_ms"] = max((r["p99_ms"] for r in latencies), default=0)
            result[f"celery_pool_mb_after_{size}mb"] = max(_hwm_mb(p) for p in pool)
        after = _gunicorn_workers(bound)
        result["web_workers_after"] = after
        result["web_workers_all_answering"] = after == web
        result["web_worker_peak_mb"] = max((_hwm_mb(p) for p in after), default=0.0)
    result["load_average"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return result
