"""A small HTTP load generator that runs in its own process.

Each client is a thread with one keep-alive connection that works through its own
list of prepared requests, so the server sees realistic, distinct writes. Running in
a separate process keeps the generator's CPU apart from the measured server's
bookkeeping (they still share this machine's two cores, which the figures say).
"""

from __future__ import annotations

import http.client
import multiprocessing
import statistics
import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PreparedRequest:
    method: str
    path: str
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    expect: tuple[int, ...] = (200, 201)


def _client(
    host: str,
    port: int,
    requests: list[PreparedRequest],
    deadline: float,
    latencies: list[float],
    errors: list[str],
    tally: dict[str, int],
    accepted_keys: list[str],
    server_errors: list[tuple[float, int, str]],
) -> None:
    conn = http.client.HTTPConnection(host, port, timeout=30)
    for request in requests:
        if time.perf_counter() > deadline:
            break
        started = time.perf_counter()
        try:
            conn.request(request.method, request.path, body=request.body, headers=request.headers)
            response = conn.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
            continue
        latencies.append(time.perf_counter() - started)
        if response.status >= 500:
            server_errors.append((time.time(), response.status, request.path))
        if response.status not in request.expect:
            errors.append(f"{response.status} {request.path}: {payload[:200]!r}")
        else:
            key = f"{request.method} {request.path} {response.status}"
            tally[key] = tally.get(key, 0) + 1
            if response.status == 201 and "Idempotency-Key" in request.headers:
                accepted_keys.append(f"{request.path} {request.headers['Idempotency-Key']}")
    conn.close()


def _run(host: str, port: int, plans: list[list[PreparedRequest]], seconds: float, queue) -> None:
    latencies: list[float] = []
    errors: list[str] = []
    tally: dict[str, int] = {}
    accepted_keys: list[str] = []
    server_errors: list[tuple[float, int, str]] = []
    deadline = time.perf_counter() + seconds
    threads = [
        threading.Thread(
            target=_client,
            args=(
                host,
                port,
                plan,
                deadline,
                latencies,
                errors,
                tally,
                accepted_keys,
                server_errors,
            ),
        )
        for plan in plans
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    queue.put((latencies, errors[:20], len(errors), elapsed, tally, accepted_keys, server_errors))


def run_load(
    host: str,
    port: int,
    plans: list[list[PreparedRequest]],
    seconds: float,
    tally: dict[str, int] | None = None,
    outcomes: dict[str, list] | None = None,
) -> dict[str, float | int | list[str]]:
    """Run one client per plan for at most ``seconds``; summarise throughput and latency.

    ``tally``, when given, is filled with how many expected answers each
    "METHOD path status" got, so a caller can compare the database with what the
    clients were told. ``outcomes``, when given, gets ``accepted_keys`` ("path key" of
    every 201 answered to a request with an ``Idempotency-Key``, replays included) and
    ``server_errors`` ((unix time, status, path) of every 5xx).
    """
    queue: multiprocessing.Queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=_run, args=(host, port, plans, seconds, queue))
    process.start()
    latencies, sample_errors, error_count, elapsed, received_tally, keys, five = queue.get()
    process.join()
    if tally is not None:
        tally.update(received_tally)
    if outcomes is not None:
        outcomes["accepted_keys"] = keys
        outcomes["server_errors"] = five
    latencies.sort()
    count = len(latencies)

    def pct(p: float) -> float:
        return round(latencies[min(count - 1, int(p * count))] * 1000, 2) if count else 0.0

    return {
        "requests": count,
        "clients": len(plans),
        "seconds": round(elapsed, 2),
        "requests_per_second": round(count / elapsed, 1) if elapsed else 0.0,
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2) if count else 0.0,
        "errors": error_count,
        "error_samples": sample_errors,
    }
