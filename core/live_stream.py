"""The live stream: ``GET /live/stream/?channel=tournament:5&channel=club:2``.

A server-sent events (``text/event-stream``) response that sends ``event: changed``
with ``{"channel": ..., "version": ...}`` whenever a followed channel gets a notice
(:mod:`core.live`), a comment every few seconds to keep proxies from closing it, and
then ends after ``LIVE_STREAM_SECONDS`` (the browser reconnects at once with its
``Last-Event-ID``): under WSGI a stream holds one worker thread, and a bounded stream
frees it regularly and lets a redeploy drain.

Every channel is checked once, before the stream starts, by its kind's ``can_follow``
(registered by the app owning the objects): an unknown or malformed channel is a 400,
a missing object a 404, a private channel the visitor may not follow a 403, all in
the JSON error shape. A reconnecting browser whose ``Last-Event-ID`` is from this
process and still in the ring gets what it missed; otherwise (another process, a
restart, too far behind) one ``changed`` per channel, so its page refetches once.

Behind Pushpin (production, ``make serve``) the same checks run, and then the view
answers at once with instructions for Pushpin to hold the stream
(:mod:`core.live_grip`): no thread waits. The in-process stream below serves
``make run`` and the tests' live server.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from rest_framework.throttling import SimpleRateThrottle

from core import live, live_grip

#: The most channels one stream may follow (a page follows two or three).
MAX_CHANNELS = 8


class StreamOpens(SimpleRateThrottle):
    """Streams one client may open per ``LIVE_STREAM_SECONDS`` window (issue #37, item 7:
    one client held 734 live streams and slowed every read to 16.5 s).

    A client is its account when signed in (``LIVE_STREAMS_PER_USER``), else its address
    (``LIVE_STREAMS_PER_ADDRESS``, high: a venue's phones share one address). The
    in-process stream ends after ``LIVE_STREAM_SECONDS``, so the opens in a window bound
    the streams a client holds at once. Counted in Django's cache (Redis in production:
    across every web process), failing open with it, like the other rate limits.
    """

    scope = "live_stream"

    def __init__(self) -> None:  # the rate comes from the settings, not DRF's table
        self.rate = "live"
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        return 0, int(getattr(settings, "LIVE_STREAM_SECONDS", 300)) or 1

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            self.num_requests = settings.LIVE_STREAMS_PER_USER
            ident = f"user:{user.pk}"
        else:
            self.num_requests = settings.LIVE_STREAMS_PER_ADDRESS
            ident = f"address:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def refusal(self, request: HttpRequest) -> JsonResponse | None:
        """The 429 for a client that opened its share of streams, else None (counted)."""
        self.key = self.get_cache_key(request, None)
        if not self.num_requests:
            return None  # 0: not limited
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        window = self.duration or 1
        while self.history and self.history[-1] <= self.now - window:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            wait = max(1, round(self.wait() or 1))
            refused = JsonResponse(
                {
                    "code": "too_many_streams",
                    "detail": gettext(
                        "This client has opened %(count)s live streams in the last "
                        "%(seconds)s seconds, the most it may; close some pages or wait "
                        "%(wait)s seconds. The page still refreshes without them."
                    )
                    % {"count": self.num_requests, "seconds": self.duration, "wait": wait},
                    "field": None,
                },
                status=429,
            )
            refused["Retry-After"] = str(wait)
            return refused
        self.throttle_success()
        return None


def _error(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail, "field": "channel"}, status=status)


def _resume_point(request: HttpRequest, ring: live.NoticeRing) -> int | None:
    """The ring number a reconnecting browser saw last: None for a first connection,
    -1 (before anything: "you missed some") for an id this process never gave."""
    raw = request.headers.get("Last-Event-ID", "")
    if not raw:
        return None
    token, _, number = raw.partition("-")
    if token != ring.token or not number.isdigit():
        return -1
    return int(number)


@require_GET
def live_stream(request: HttpRequest) -> HttpResponseBase:
    """Stream the notices of the channels asked for (see the module docstring)."""
    names = list(dict.fromkeys(request.GET.getlist("channel")))
    if not names:
        return _error(400, "channel_required", "Name at least one channel to follow.")
    if len(names) > MAX_CHANNELS:
        return _error(400, "too_many_channels", f"Follow at most {MAX_CHANNELS} channels.")
    for name in names:
        parsed = live.parse_channel(name)
        kind = live.channel_kind(parsed[0]) if parsed else None
        if parsed is None or kind is None:
            return _error(400, "channel_unknown", f"There is no live channel {name!r}.")
        allowed = kind.can_follow(request, parsed[1])
        if allowed is None:
            return _error(404, "channel_not_found", f"There is nothing behind {name!r}.")
        if not allowed:
            return _error(403, "channel_private", f"You may not follow {name!r}.")
    refused = StreamOpens().refusal(request)
    if refused is not None:
        return refused
    if live_grip.signed_by_proxy(request):
        return live_grip.held_stream(request, names)  # Pushpin holds it: no thread waits
    ring = live.ring()
    seen = _resume_point(request, ring)
    start = ring.last  # read now: a notice sent once the request is in is not lost
    follow = Following(names)
    response = StreamingHttpResponse(
        _events(ring, follow, seen, start), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


class Following:
    """The channels a stream follows, and the channels each also hears (an event hears
    its matches: :func:`core.live.register_channel_members`). A notice heard through a
    member is reported under the followed channel's name, so a page only knows the
    channels it asked for. Members are read when the stream starts and again after a
    notice of their owner (new matches come only with a write of their event)."""

    def __init__(self, names: list[str]) -> None:
        self.names = sorted(names)
        self._heard_by: dict[str, set[str]] = {}
        for name in self.names:
            self._refresh(name)

    def _refresh(self, name: str) -> None:
        if not live.has_members(name):
            self._heard_by.setdefault(name, set()).add(name)
            return
        for heard in self._heard_by.values():
            heard.discard(name)
        for channel_name in live.members_of(name) | {name}:
            self._heard_by.setdefault(channel_name, set()).add(name)
        if not connection.in_atomic_block:
            connection.close()  # back to holding no connection while waiting

    def report(self, notice: live.Notice) -> list[live.Notice]:
        """The notices to send for one from the ring (none: nobody here hears it)."""
        followed = sorted(self._heard_by.get(notice.channel, ()))
        if notice.channel in self.names and live.has_members(notice.channel):
            self._refresh(notice.channel)
        return [live.Notice(name, notice.version) for name in followed]


def _event(ring: live.NoticeRing, number: int, notice: live.Notice) -> str:
    return f"id: {ring.token}-{number}\nevent: changed\ndata: {notice.as_json()}\n\n"


def _events(
    ring: live.NoticeRing, follow: Following, seen: int | None, start: int
) -> Iterator[str]:
    """The stream's body: reconnect delay, catch-up, then notices as they come (from
    ``seen``, the browser's last, or else ``start``, the ring's last when it asked)."""
    if not connection.in_atomic_block:
        connection.close()  # a stream needs no database: give the connection back now
    lifetime = float(getattr(settings, "LIVE_STREAM_SECONDS", 300))
    heartbeat = float(getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15))
    retry_ms = int(getattr(settings, "LIVE_RETRY_MS", 1000))
    yield f"retry: {retry_ms}\n: open\n\n"
    if not live.relay_alive(wait=2.0):
        return  # no delivery in this process yet: the browser retries, the page polls
    last = start
    if seen is not None:
        last, notices, missed = ring.after(seen)
        yield from _batch(ring, follow, last, notices, missed)
    deadline = time.monotonic() + lifetime
    while (left := deadline - time.monotonic()) > 0:
        if not live.relay_alive():
            return  # no delivery in this process: end, and the page polls meanwhile
        before = last
        last, notices, missed = ring.wait_after(last, timeout=min(heartbeat, left))
        events = _batch(ring, follow, last, notices, missed)
        yield from events
        if not events and last == before:
            yield ": keep-alive\n\n"


def _batch(
    ring: live.NoticeRing,
    follow: Following,
    last: int,
    notices: list[live.Notice],
    missed: bool,
) -> list[str]:
    """The events for a batch from the ring, in order: what the followed channels hear,
    or, when some were missed, one "resync" per channel (the page refetches once)."""
    if missed:
        return [_event(ring, last, live.Notice(name, "resync")) for name in follow.names]
    return [_event(ring, last, mine) for n in notices for mine in follow.report(n)]
