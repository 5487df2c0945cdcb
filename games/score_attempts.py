"""Failed attempts at score entry, counted per client address (``score_failed``).

A forged, expired or foreign score link, a bad API token or a write with no
credentials counts against the address; once its budget is spent every score-entry
write from it waits (``games.api.throttling`` explains the limits). The API and the
score-link pages count the same failures, so this lives in neither door.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import SimpleRateThrottle


class FailedScoreAttempts(SimpleRateThrottle):
    """The ``score_failed`` rate per client address, counting only failed attempts:
    :meth:`refusal` is asked before anything else, :meth:`note` after a failure."""

    scope = "score_failed"

    def get_rate(self) -> str | None:
        """The configured rate; none configured (or ``None``): not limited."""
        return self.THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def refusal(self, request: Any) -> float | None:
        """Seconds to wait when the address has spent its failures, else None."""
        num_requests, duration = self.parse_rate(self.rate)
        if num_requests is None or duration is None:
            return None
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - duration:
            self.history.pop()
        if len(self.history) >= num_requests:
            return self.wait() or 1.0
        return None

    def note(self, request: Any) -> None:
        """Count one failed attempt from the request's address."""
        if self.rate is None:
            return
        self.refusal(request)  # loads and trims the history
        self.throttle_success()
