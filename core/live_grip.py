"""Live streams held by Pushpin instead of a web thread (docs/live.md, "Behind Pushpin").

In production Pushpin is the front door (every path, on ``PORT``) and proxies to
gunicorn. A request for ``/live/stream/`` reaches the usual view, which checks each
channel as always and, when the request was signed by our Pushpin (``Grip-Sig``, a
JWT made with ``LIVE_GRIP_KEY``), answers at once with GRIP instructions: *hold this
response open as a stream, subscribed to these channels, with a keep-alive every 15 s*.
Pushpin keeps the connection; the gunicorn thread and its database connection are
free as soon as the answer is sent, and a browser that goes away is dropped by
Pushpin at once (or at the next keep-alive).

Notices reach Pushpin through one relay process (``manage.py live_relay``): the web
processes and the workers still publish to Redis (:func:`core.live.publish`); the
relay copies each notice to Pushpin's publish API, on the notice's own channel and on
the channels that also hear it (a match's event, :func:`core.live.owners_of`, looked
up once per match and cached), each reported under the name its followers asked for.
It also appends each published event to a Redis stream (the ring), whose entry id is
the event's id: a browser reconnecting with ``Last-Event-ID`` gets what it missed
from there, in the held response's first bytes, or a ``resync`` when that is no
longer possible.

Without ``LIVE_GRIP_KEY`` (``make run``, the tests' live server) or for a request that
did not come through Pushpin, the view streams in-process as before
(:mod:`core.live_stream`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import http.client
import json
import logging
import time
import urllib.parse
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse

from core import live

logger = logging.getLogger(__name__)

#: How many published events the ring (a Redis stream) keeps for reconnecting browsers.
RING_SIZE = 10_000
#: Ids of events from the ring start with this (an in-process id never does).
ID_PREFIX = "g"
#: How often the relay looks whether its database connection is broken or too old.
CONNECTION_CHECK_SECONDS = 10.0


def _key() -> str:
    return str(getattr(settings, "LIVE_GRIP_KEY", "") or "")


def ring_key() -> str:
    """The Redis stream holding the recent events of this site."""
    return f"{live.redis_channel()}:ring"


# --- the request: did our Pushpin send it? ---------------------------------------------------


def _unb64(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def valid_signature(token: str) -> bool:
    """Is ``token`` a valid, unexpired ``Grip-Sig`` made with ``LIVE_GRIP_KEY`` (an
    HS256 JWT from Pushpin, issuer ``pushpin``)? False when no key is set."""
    key = _key()
    if not key or not token:
        return False
    try:
        head, body, signature = token.split(".")
        expected = hmac.new(key.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(_unb64(signature), expected):
            return False
        header, claims = json.loads(_unb64(head)), json.loads(_unb64(body))
        return (
            header.get("alg") == "HS256"
            and claims.get("iss") == "pushpin"
            and float(claims.get("exp", 0)) > time.time()
        )
    except (ValueError, TypeError, AttributeError, binascii.Error):
        return False


def signed_by_proxy(request: HttpRequest) -> bool:
    """Did this request come through our Pushpin? A client cannot get a held answer
    by sending the header itself: without the key it cannot sign one."""
    return valid_signature(request.headers.get("Grip-Sig", ""))


class ClientAddressFromProxy:
    """WSGI middleware: behind Pushpin every request comes from Pushpin's address, so
    per-address limits (sign-in lockout, anonymous throttles) would see one client.
    For a request Pushpin signed, take the client's address from the
    ``X-Forwarded-For`` it set (it drops what the client sent and appends the peer:
    ``x_forwarded_for=truncate:0,append`` in ``deploy/pushpin.sh``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if valid_signature(environ.get("HTTP_GRIP_SIG", "")):
            forwarded = environ.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
            if forwarded:
                environ["REMOTE_ADDR"] = forwarded
        return self.app(environ, start_response)


# --- the held response -----------------------------------------------------------------------


def _event(event_id: str, notice: live.Notice) -> str:
    return f"id: {event_id}\nevent: changed\ndata: {notice.as_json()}\n\n"


def _client() -> Any:
    return live._publisher(live._redis_url())


def _stream_id(raw: str) -> tuple[int, int] | None:
    head, _, tail = raw.partition("-")
    return (int(head), int(tail)) if head.isdigit() and tail.isdigit() else None


def catch_up(names: list[str], last_event_id: str) -> list[str]:
    """The events a browser reconnecting with ``last_event_id`` missed on ``names``,
    from the ring; one ``resync`` per channel when that cannot be told (an id from
    elsewhere, older than the ring, or Redis unreachable)."""
    if not last_event_id:
        return []
    seen = last_event_id[len(ID_PREFIX) :] if last_event_id.startswith(ID_PREFIX) else ""
    try:
        client = _client()
        newest = client.xrevrange(ring_key(), count=1)
        newest_id = newest[0][0].decode() if newest else "0-0"
        oldest = client.xrange(ring_key(), count=1)
        seen_id = _stream_id(seen)
        gone = seen_id is None or (oldest and _stream_id(oldest[0][0].decode()) > seen_id)  # type: ignore[operator]
        if gone:
            resync = ID_PREFIX + newest_id
            return [_event(resync, live.Notice(name, "resync")) for name in names]
        followed = set(names)
        events = []
        for entry_id, fields in client.xrange(ring_key(), min=f"({seen}", count=RING_SIZE):
            channel = fields[b"c"].decode()
            if channel in followed:
                notice = live.Notice(channel, fields[b"v"].decode())
                events.append(_event(ID_PREFIX + entry_id.decode(), notice))
        return events
    except Exception as exc:  # Redis down: the page refetches once
        logger.warning("live catch-up not read (%r)", exc)
        return [_event(ID_PREFIX + "0-0", live.Notice(name, "resync")) for name in names]


def held_stream(request: HttpRequest, names: list[str]) -> HttpResponse:
    """The answer Pushpin holds open: the stream's first bytes (reconnect delay,
    catch-up) and the GRIP instructions (channels, keep-alive)."""
    if not connection.in_atomic_block:
        connection.close()  # nothing more to read: give the connection back now
    retry_ms = int(getattr(settings, "LIVE_RETRY_MS", 1000))
    heartbeat = int(getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15))
    body = [f"retry: {retry_ms}\n: open\n\n"]
    body += catch_up(names, request.headers.get("Last-Event-ID", ""))
    response = HttpResponse("".join(body), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["Grip-Hold"] = "stream"
    response["Grip-Channel"] = ", ".join(names)
    response["Grip-Keep-Alive"] = f": keep-alive\\n\\n; format=cstring; timeout={heartbeat}"
    return response


# --- the relay: Redis -> Pushpin ---------------------------------------------------------------


class Relay:
    """Publishes each notice from Redis to Pushpin, on its channel and its owners'.

    The owners of a channel (a match's events) are looked up once and cached; a notice
    of an owner (a write of the event, which is how matches join it) forgets what was
    cached for it and the "no owner" answers, so a match added to an event is found at
    its first notice.
    """

    def __init__(self, publish_url: str) -> None:
        parts = urllib.parse.urlsplit(publish_url)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._path = parts.path or "/publish/"
        self._conn: http.client.HTTPConnection | None = None
        self._owners: dict[str, frozenset[str]] = {}
        self._check_at = 0.0
        self.published = 0

    def _owners_of(self, channel_name: str) -> frozenset[str]:
        found = self._owners.get(channel_name)
        if found is None:
            try:
                found = frozenset(live.owners_of(channel_name))
            except DatabaseError:
                if connection.in_atomic_block:
                    raise
                connection.close()  # broken meanwhile (a restart): once more, on a new one
                found = frozenset(live.owners_of(channel_name))
            if not connection.in_atomic_block and time.monotonic() >= self._check_at:
                # kept for the next lookup (a new match's channel is a lookup per match: a
                # new PostgreSQL backend each time was most of the relay's CPU), and closed
                # once older than CONN_MAX_AGE or broken. Looked at every few seconds, not
                # per lookup: with CONN_HEALTH_CHECKS each look costs a ``SELECT 1`` at the
                # next query (a sixth of the relay's CPU at a round's end, profiled)
                connection.close_if_unusable_or_obsolete()
                self._check_at = time.monotonic() + CONNECTION_CHECK_SECONDS
            if len(self._owners) > 100_000:
                self._owners.clear()
            self._owners[channel_name] = found
        return found

    def _forget_for(self, owner: str) -> None:
        for name, found in list(self._owners.items()):
            if not found or owner in found:
                del self._owners[name]

    def targets(self, notice: live.Notice) -> list[str]:
        """Every channel that hears ``notice``, its own first."""
        if live.has_members(notice.channel):
            self._forget_for(notice.channel)
        return [notice.channel, *sorted(self._owners_of(notice.channel) - {notice.channel})]

    def deliver(self, notice: live.Notice) -> None:
        """Record and publish one notice (never raises: a lost notice is logged)."""
        self.deliver_many([notice])

    def deliver_many(self, notices: list[live.Notice]) -> None:
        """Record and publish these notices, in order, in one Redis round trip and one
        publish request (never raises: lost notices are logged)."""
        try:
            self._publish([(name, n.version) for n in notices for name in self.targets(n)])
        except Exception as exc:
            logger.warning("%d live notices not relayed to Pushpin (%r)", len(notices), exc)

    def _publish(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Append each (channel, version) to the ring, then publish them with the ring's
        ids (the browsers' ``Last-Event-ID``)."""
        pairs = list(pairs)
        pipe = _client().pipeline(transaction=False)
        for name, version in pairs:
            pipe.xadd(ring_key(), {"c": name, "v": version}, maxlen=RING_SIZE, approximate=True)
        ids = [raw.decode() for raw in pipe.execute()]
        items = [
            {
                "channel": name,
                "formats": {
                    "http-stream": {
                        "content": _event(ID_PREFIX + entry_id, live.Notice(name, version))
                    }
                },
            }
            for (name, version), entry_id in zip(pairs, ids, strict=True)
        ]
        self._post(json.dumps({"items": items}).encode())
        self.published += len(items)

    def _post(self, body: bytes) -> None:
        for attempt in (1, 2):  # a kept-alive connection Pushpin closed: once more
            if self._conn is None:
                self._conn = http.client.HTTPConnection(self._host, self._port, timeout=5)
            try:
                self._conn.request("POST", self._path, body, {"Content-Type": "application/json"})
                response = self._conn.getresponse()
                response.read()
                if response.status >= 300:
                    raise RuntimeError(f"Pushpin answered {response.status}")
                return
            except (OSError, http.client.HTTPException):
                self._conn.close()
                self._conn = None
                if attempt == 2:
                    raise


def run_relay() -> None:
    """Relay forever (``manage.py live_relay``); needs ``REDIS_URL``."""
    url = live._redis_url()
    if not url:
        raise RuntimeError("the live relay needs REDIS_URL")
    publish_url = str(getattr(settings, "LIVE_GRIP_PUBLISH_URL", ""))
    relay = Relay(publish_url)
    logger.info("live relay: %s -> %s", live.redis_channel(), publish_url)
    live.relay_forever(
        url, live.redis_channel(), relay.deliver, lambda: None, deliver_many=relay.deliver_many
    )
