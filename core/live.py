"""Live pages: "something changed" notices for the browsers showing it (docs/live.md).

A write that changes what a page shows calls :func:`publish_on_commit` with the
channels it touched (``tournament:5``, ``match:12``, ``player:3``, ``club:2``) and a
version marker. Nothing is sent unless the transaction commits, and a notice carries
only the channel (kind and id) and the marker, never a name, a score or anything else
a page shows: the page fetches its own fragment again, through its usual permission
checks. So a public channel cannot leak private data, and a private channel (a club's,
for its directors) is private only because the stream view says so (see
:mod:`core.live_stream` and :func:`register_channel_kind`).

Transport: each web process keeps a small in-memory ring of recent notices
(:class:`NoticeRing`) that its open streams wait on. Without ``REDIS_URL`` (``make
run``, the tests) publishing appends to that ring directly: one process, nothing else
needed. With ``REDIS_URL`` publishing goes through Redis pub/sub and one relay thread
per process copies every notice into its ring, so a result entered on one gunicorn
worker (or by a Celery task) reaches the streams held by every other worker.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

#: The Redis pub/sub channel every process publishes to and relays from, unless
#: ``settings.LIVE_REDIS_CHANNEL`` names another. Pub/sub ignores the database number
#: of ``REDIS_URL``: two sites (or two test workers) sharing one Redis server would
#: hear each other's notices on one channel name.
REDIS_CHANNEL = "boxcars:live"
#: How many recent notices a process keeps for streams that fell behind or reconnect.
RING_SIZE = 2000


# --- channels --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChannelKind:
    """A family of channels (``tournament``) and who may follow one of them.

    ``can_follow(request, pk)`` answers True (follow), False (not allowed: 403) or
    None (no such object: 404). ``private`` says so in the docs and the permission
    matrix; the check itself is ``can_follow``.
    """

    name: str
    can_follow: Callable[[Any, int], bool | None]
    private: bool = False


_kinds: dict[str, ChannelKind] = {}


def register_channel_kind(
    name: str, can_follow: Callable[[Any, int], bool | None], *, private: bool = False
) -> None:
    """Register (or replace) a channel kind; called from an app's ``wiring.py``."""
    _kinds[name] = ChannelKind(name, can_follow, private)


def channel_kind(name: str) -> ChannelKind | None:
    return _kinds.get(name)


def channel(kind: str, pk: int) -> str:
    """The channel name of one object: ``channel("tournament", 5) == "tournament:5"``."""
    return f"{kind}:{int(pk)}"


def parse_channel(text: str) -> tuple[str, int] | None:
    """``("tournament", 5)`` from ``"tournament:5"``; None when malformed."""
    kind, sep, pk = text.partition(":")
    if not sep or not pk.isdigit() or not kind.isidentifier():
        return None
    return kind, int(pk)


# --- which channels a versioned row's write touches --------------------------------------------

#: ``"app_label.ModelName"`` -> functions naming the channels a write of such a row touches.
_row_channels: dict[str, dict[str, Callable[[Any], Iterable[str]]]] = {}


def register_row_channels(
    model_label: str, name: str, channels_of: Callable[[Any], Iterable[str]]
) -> None:
    """Say which channels a write of a ``model_label`` row touches (from an app's ``wiring.py``).

    Several apps may register for one model under different names (``games`` names a
    match's own channels, ``tournaments`` the event a match belongs to); registering a
    name again replaces it.
    """
    _row_channels.setdefault(model_label, {})[name] = channels_of


def row_changed(row: Any) -> None:
    """A versioned row was written (called by :func:`core.locking.bump`, inside the
    transaction): notify its channels after the commit, with its new version."""
    found = _row_channels.get(row._meta.label)
    if not found:
        return
    channels = [c for channels_of in found.values() for c in channels_of(row)]
    publish_on_commit(channels, f"{row._meta.model_name}.{row.pk}.{row.version}")


# --- channels that hear other channels -----------------------------------------------------------

#: kind -> function giving the channels whose notices a channel of that kind also hears.
_members: dict[str, Callable[[int], set[str]]] = {}


def register_channel_members(kind: str, members_of: Callable[[int], set[str]]) -> None:
    """Let a channel of ``kind`` also hear the notices of other channels, e.g. an event
    the notices of its matches (from an app's ``wiring.py``).

    Resolved by the stream (when it starts, and again after each notice of the channel
    itself, since the members change only by a write of the owner), never by the write
    that publishes: a score entry costs no query for the pages that follow it.
    """
    _members[kind] = members_of


def members_of(channel_name: str) -> set[str]:
    """The channels ``channel_name`` also hears (one query at most, usually)."""
    parsed = parse_channel(channel_name)
    found = _members.get(parsed[0]) if parsed else None
    return found(parsed[1]) if parsed and found else set()


def has_members(channel_name: str) -> bool:
    parsed = parse_channel(channel_name)
    return bool(parsed and parsed[0] in _members)


#: kind -> function giving the channels that also hear a channel of that kind.
_owners: dict[str, Callable[[int], set[str]]] = {}


def register_channel_owners(kind: str, owners_of: Callable[[int], set[str]]) -> None:
    """The reverse of :func:`register_channel_members`: which channels also hear a
    channel of ``kind`` (a match's event). Used by the relay that feeds Pushpin
    (:mod:`core.live_grip`), which must name every channel a notice goes to when it
    publishes; resolved there, once per match and cached, never by the write."""
    _owners[kind] = owners_of


def owners_of(channel_name: str) -> set[str]:
    """The channels that also hear ``channel_name`` (one query at most)."""
    parsed = parse_channel(channel_name)
    found = _owners.get(parsed[0]) if parsed else None
    return found(parsed[1]) if parsed and found else set()


# --- notices and the ring --------------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    """One "something changed" notice: a channel and a version marker, nothing else."""

    channel: str
    version: str

    def as_json(self) -> str:
        return json.dumps({"channel": self.channel, "version": self.version})

    @classmethod
    def from_json(cls, raw: str | bytes) -> Notice:
        data = json.loads(raw)
        return cls(channel=str(data["channel"]), version=str(data["version"]))


class NoticeRing:
    """The recent notices of this process, numbered, and a condition to wait on.

    Streams keep the number of the last notice they saw and ask for what came after;
    no per-stream queue exists, so a stream that stops reading costs nothing. A stream
    that fell more than the ring's size behind is told so (``missed``) and then tells
    its page to refetch everything it follows.
    """

    def __init__(self, size: int = RING_SIZE) -> None:
        self.token = uuid.uuid4().hex[:8]  # tells this process's numbers from another's
        self._notices: deque[tuple[int, Notice]] = deque(maxlen=size)
        self._last = 0
        self._changed = threading.Condition()

    def new_token(self) -> None:
        """Forget what browsers saw: their ids no longer match (after lost notices)."""
        with self._changed:
            self.token = uuid.uuid4().hex[:8]

    @property
    def last(self) -> int:
        with self._changed:
            return self._last

    def append(self, notice: Notice) -> int:
        with self._changed:
            self._last += 1
            self._notices.append((self._last, notice))
            self._changed.notify_all()
            return self._last

    def after(self, seen: int) -> tuple[int, list[Notice], bool]:
        """The notices numbered after ``seen``: (last number, notices, missed some)."""
        with self._changed:
            return self._after(seen)

    def wait_after(self, seen: int, timeout: float) -> tuple[int, list[Notice], bool]:
        """Like :meth:`after`, waiting up to ``timeout`` seconds for one to arrive."""
        with self._changed:
            self._changed.wait_for(lambda: self._last > seen, timeout=timeout)
            return self._after(seen)

    def _after(self, seen: int) -> tuple[int, list[Notice], bool]:
        if seen >= self._last:
            return self._last, [], seen > self._last  # a number from the future: missed
        oldest = self._notices[0][0] if self._notices else self._last + 1
        notices = [n for number, n in self._notices if number > seen]
        return self._last, notices, seen + 1 < oldest


_ring = NoticeRing()


def ring() -> NoticeRing:
    """This process's ring (streams wait on it)."""
    ensure_relay()
    return _ring


# --- publishing ------------------------------------------------------------------------------


def _redis_url() -> str:
    return str(getattr(settings, "REDIS_URL", "") or "")


def redis_channel() -> str:
    """The pub/sub channel of this site (see :data:`REDIS_CHANNEL`)."""
    return str(getattr(settings, "LIVE_REDIS_CHANNEL", "") or REDIS_CHANNEL)


def publish(channels: Iterable[str], version: str | int) -> None:
    """Send a notice on each channel now (prefer :func:`publish_on_commit`).

    Never raises: a page that misses a notice still polls while offline, and a write
    must not fail because Redis is down.
    """
    notices = [Notice(c, str(version)) for c in dict.fromkeys(channels)]
    if not notices:
        return
    url = _redis_url()
    if not url:
        for notice in notices:
            _ring.append(notice)
        return
    try:
        channel = redis_channel()
        pipe = _publisher(url).pipeline(transaction=False)  # one round trip for them all
        for notice in notices:
            pipe.publish(channel, notice.as_json())
        pipe.execute()
    except Exception as exc:  # Redis down: the pages' polling fallback covers it
        logger.warning("live notice not published (%r)", exc)


def publish_on_commit(channels: Iterable[str], version: str | int) -> None:
    """Send the notices once the current transaction commits (at once outside one)."""
    wanted = list(channels)
    transaction.on_commit(lambda: publish(wanted, version))


def _notices_of(messages: list[dict[str, Any]]) -> list[Notice]:
    """The notices in these pub/sub messages, in order (malformed ones logged, left out)."""
    notices = []
    for message in messages:
        if message.get("type") != "message":
            continue
        try:
            notices.append(Notice.from_json(message["data"]))
        except (ValueError, KeyError, TypeError):
            logger.warning("ignored a malformed live notice: %r", message["data"])
    return notices


# --- the Redis relay -------------------------------------------------------------------------

_publishers: dict[str, Any] = {}
_relay_lock = threading.Lock()
_relay: threading.Thread | None = None
_relay_connected = threading.Event()


def _publisher(url: str) -> Any:
    client = _publishers.get(url)
    if client is None:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        _publishers[url] = client
    return client


def ensure_relay() -> None:
    """With ``REDIS_URL``: make sure this process's relay thread is running."""
    global _relay
    url = _redis_url()
    if not url:
        return
    with _relay_lock:
        if _relay is not None and _relay.is_alive():
            return
        _relay = threading.Thread(
            target=relay_forever,
            args=(url, redis_channel(), _ring.append, _ring.new_token),
            kwargs={"connected": _relay_connected},
            name="live-relay",
        )
        _relay.daemon = True
        _relay.start()


def relay_alive(wait: float = 0) -> bool:
    """Is notice delivery working in this process (always, without Redis)? ``wait``:
    give a relay that is (re)connecting that many seconds to get there."""
    if not _redis_url():
        return True
    if _relay is None or not _relay.is_alive():
        return False
    return _relay_connected.wait(wait) if wait else _relay_connected.is_set()


#: At most this many notices are handed over at once by :func:`relay_forever`.
RELAY_BATCH = 500


def relay_forever(
    url: str,
    channel: str,
    deliver: Callable[[Notice], object],
    after_loss: Callable[[], object],
    deliver_many: Callable[[list[Notice]], object] | None = None,
    connected: threading.Event | None = None,
) -> None:
    """Hand every notice published on Redis to ``deliver``; reconnect after a failure
    (a second, then up to 30), calling ``after_loss`` once reconnected.

    With ``deliver_many``, the notices already waiting when one arrives (up to
    :data:`RELAY_BATCH`) are handed over together, in order: at a round's end a burst
    of results publishes hundreds of notices a second, and the Pushpin relay sends a
    batch in one Redis round trip and one publish request instead of one each (its CPU
    and Pushpin's were a tenth of the machine's at a championship's round end).

    In a web process ``deliver`` appends to this process's ring. While Redis is lost
    the streams of this process end (:func:`relay_alive` is False) and their pages
    poll. Notices published meanwhile never reach the ring, so on reconnecting the
    ring takes a new token (``after_loss``): a browser coming back with an id from
    before is told to refetch everything it follows (``resync``). The relay feeding
    Pushpin (:mod:`core.live_grip`) runs the same loop with its own ``deliver``.

    ``connected`` is set while subscribed and cleared while Redis is lost: each relay
    has its own (this process's ring relay's is what :func:`relay_alive` reads), so
    another relay running in the same process never speaks for it.
    """
    import redis

    pause = 1.0
    lost = False
    while True:
        try:
            client = redis.Redis.from_url(
                url, socket_connect_timeout=2, socket_keepalive=True, health_check_interval=30
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call,unused-ignore]
            pubsub.subscribe(channel)
            if lost:
                after_loss()
            if connected is not None:
                connected.set()
            pause = 1.0
            for message in pubsub.listen():  # type: ignore[no-untyped-call,unused-ignore]
                waiting = [message]
                while deliver_many is not None and len(waiting) < RELAY_BATCH:
                    more = pubsub.get_message(ignore_subscribe_messages=True, timeout=0.0)
                    if more is None:
                        break
                    waiting.append(more)
                notices = _notices_of(waiting)
                if deliver_many is None:
                    for notice in notices:
                        deliver(notice)
                elif notices:
                    deliver_many(notices)
        except Exception as exc:
            if connected is not None:
                connected.clear()
            lost = True
            logger.warning("live relay lost Redis (%r); retrying in %.0f s", exc, pause)
            time.sleep(pause)
            pause = min(pause * 2, 30.0)
