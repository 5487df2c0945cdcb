"""Failed attempts at score entry, counted per client address (``score_failed``).

A forged, expired or foreign score link, a bad API token or a write with no
credentials counts against the address; once its budget is spent every score-entry
write from it *that nothing vouches for* waits (``games.api.throttling`` explains the
limits). A request carrying a genuinely signed link (or a valid account) is never
refused by the address's budget: the venue's phones share one address, so a stranger
there sending forged links must not lock the room's valid links out (issue #37, item
4); valid links keep their own budget per link. The API and the score-link pages
count the same failures, so this lives in neither door.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import SimpleRateThrottle

from games import score_links


def carries_signed_link(request: Any, token: str | None = None) -> bool:
    """Whether the request (or ``token``, a page's path) holds a link we signed.

    A signature cannot be forged, so such a request is not a guess, whatever match it
    is for; whether the link fits the match is the door's check, and a misfit still
    counts as a failure (:meth:`FailedScoreAttempts.note`).
    """
    token = token or score_links.token_of(request)
    return token is not None and score_links.read_token(token) is not None


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
