"""Rate limits of score entry that fit a venue (docs/api.md, "Rate limits").

At a weekend open every phone is on the same Wi-Fi, so the whole room reaches the
server from one address: a limit per address throttles a hundred honest players
together. So score entry is limited **per whoever enters it**: per private score link
(its match and player) or per account and match (a token or a session), at the
``score`` rate; a hundred links behind one address each have their own budget. The
address is counted only for what no link or account vouches for, the **failed
attempts**: a score link that is forged, expired or for another match, a bad API
token, a write with no credentials. Those count against the ``score_failed`` rate per
address, and once it is spent every score-entry write from that address that carries
neither a signed link nor a valid account is 429 with ``Retry-After`` until the window
has room again, so links cannot be guessed at speed. A genuine link or account from
the same address is never held back by the address's failures: otherwise one phone
sending forged links would lock the whole venue out (issue #37, item 4).

Both count in Django's default cache (Redis in production), like every DRF throttle,
and fail open with it (docs/reliability.md).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import (
    AuthenticationFailed,
    NotAuthenticated,
    PermissionDenied,
    Throttled,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

from games import score_links
from games.score_attempts import FailedScoreAttempts, carries_signed_link


class LinkRefused(PermissionDenied):
    """A score link that is not valid for the match it was sent to (forged, expired,
    another match's): a failed attempt, counted per address."""


class ScoreEntryThrottle(SimpleRateThrottle):
    """The ``score`` rate per score link (match and player) or per account and match;
    a request that carries neither a valid link nor an account is not counted here
    (:class:`FailedScoreAttempts` counts it if it fails)."""

    scope = "score"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        match_id = view.kwargs.get("pk", "new") if hasattr(view, "kwargs") else "new"
        user = request.user
        if user is not None and user.is_authenticated:
            ident = f"user:{user.pk}:match:{match_id}"
        else:
            token = score_links.token_of(request)
            link = score_links.read_token(token) if token else None
            if link is None:
                return None
            ident = f"link:{link[0]}:{link[1]}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


#: What a failed attempt at score entry raises in a door: no account and no valid link.
FAILURES = (AuthenticationFailed, NotAuthenticated, LinkRefused)


def _vouched_for(request: Request) -> tuple[bool, Exception | None]:
    """Whether a signed link or a valid account vouches for the request, and the
    authentication failure it raised, if any (a bad token).

    Authenticating here costs the one token query a valid request makes anyway; the
    failure is kept and raised after the address's budget is asked, so a bad token
    still answers 401 until the budget is spent, then 429.
    """
    if carries_signed_link(request):
        return True, None
    try:
        return bool(request.user.is_authenticated), None
    except (AuthenticationFailed, NotAuthenticated) as exc:
        return False, exc


class ScoreThrottling:
    """For the score-entry viewsets (matches, clocks): writes are limited per link or
    per account and match; failed attempts per address (module docstring)."""

    throttle_scope = "score"

    def get_throttles(self) -> list[Any]:
        if self.request.method == "POST":  # type: ignore[attr-defined]
            return [ScoreEntryThrottle()]
        return super().get_throttles()  # type: ignore[misc]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        if request.method == "POST":
            vouched, failure = _vouched_for(request)
            if not vouched:
                wait = FailedScoreAttempts().refusal(request)
                if wait is not None:
                    raise Throttled(wait)
                if failure is not None:
                    raise failure  # a bad token: 401, counted by handle_exception
        super().initial(request, *args, **kwargs)  # type: ignore[misc]

    def handle_exception(self, exc: Exception) -> Response:
        request = getattr(self, "request", None)
        if request is not None and request.method == "POST" and isinstance(exc, FAILURES):
            FailedScoreAttempts().note(request)
        return super().handle_exception(exc)  # type: ignore[misc]
