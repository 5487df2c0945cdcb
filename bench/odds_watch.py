"""The event odds watched through a championship round (``bench championship``).

The issue's measure is the time from a round's last result to odds that take it in.
Asking only once the round's clients are done (after the last confirmations) measured
when the bench asked, not when the odds were ready: up to date "at the first ask", 3.5-4
s after the last result, when the job had stored them a second or two after it. So a
thread asks every quarter second from the round's start, and the freshness is read
afterwards from what it saw: the first answer after the last result that is up to date
and counts every decided pairing of the event.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from datetime import datetime
from typing import Any

POLL_SECONDS = 0.25


class OddsWatch:
    """Asks ``GET /api/v1/tournaments/<slug>/odds/`` every :data:`POLL_SECONDS` on its
    own connection, and keeps (time, up to date, results) of each answer."""

    def __init__(self, host: str, port: int, slug: str, token: str) -> None:
        self.host, self.port, self.slug, self.token = host, port, slug, token
        self.seen: list[tuple[float, bool, int | None]] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="odds-watch", daemon=True)

    def __enter__(self) -> OddsWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _loop(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        path = f"/api/v1/tournaments/{self.slug}/odds/"
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        while not self._stop.is_set():
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                body = json.loads(response.read() or b"{}")
                fresh = response.status == 200 and bool(body.get("up_to_date"))
                results = body.get("results") if response.status == 200 else None
            except (OSError, http.client.HTTPException, ValueError):
                conn.close()
                conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                fresh, results = False, None
            with self._lock:
                self.seen.append((time.time(), fresh, results))
            self._stop.wait(POLL_SECONDS)
        conn.close()

    def fresh_after(self, last_result: datetime, decided: int) -> float | None:
        """The first answer after ``last_result`` up to date with ``decided`` results."""
        since = last_result.timestamp()
        with self._lock:
            seen = list(self.seen)
        for at, fresh, results in seen:
            if at >= since and fresh and results == decided:
                return at
        return None

    def wait_fresh(self, last_result: datetime, decided: int, wait: float) -> dict[str, Any]:
        """Once the round is over: wait up to ``wait`` s for fresh odds; the figures."""
        ended = time.time()
        with self._lock:
            at_end = self.seen[-1][1] if self.seen else None
        while (found := self.fresh_after(last_result, decided)) is None:
            if time.time() - ended > wait:
                break
            time.sleep(POLL_SECONDS / 2)
        return {
            # as the bench reported it before: were they up to date as the round ended
            "up_to_date_at_round_end": at_end,
            "fresh_after_last_result_s": (
                round(found - last_result.timestamp(), 2) if found is not None else None
            ),
            "polls": len(self.seen),
        }
