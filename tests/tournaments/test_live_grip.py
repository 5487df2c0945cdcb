"""Live streams held by Pushpin (core/live_grip.py, docs/live.md "Behind Pushpin"):
the view answers a request Pushpin signed with GRIP instructions after the same
channel checks, the relay publishes each notice on every channel that hears it and
keeps the ring a reconnecting browser catches up from, and the web sees the client's
address, not Pushpin's. The real stack (Pushpin, gunicorn, the relay) is exercised in
tests/integration/test_live_stack.py."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import Client, override_settings

from core import live, live_grip
from tests.tournaments.conftest import pairing

pytestmark = pytest.mark.django_db

KEY = "test-grip-key-" + "k" * 30


def grip_sig(key: str = KEY, *, iss: str = "pushpin", exp: float | None = None) -> str:
    """A Grip-Sig as Pushpin makes it: an HS256 JWT signed with its sig_key."""

    def part(data: dict) -> str:
        raw = json.dumps(data).encode()
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    head = part({"typ": "JWT", "alg": "HS256"})
    body = part({"iss": iss, "exp": int(exp if exp is not None else time.time() + 3600)})
    signature = hmac.new(key.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{base64.urlsafe_b64encode(signature).rstrip(b'=').decode()}"


@override_settings(LIVE_GRIP_KEY=KEY)
@pytest.mark.parametrize(
    ("token", "valid"),
    [
        (grip_sig(), True),
        (grip_sig("another-key-" + "x" * 30), False),
        (grip_sig(exp=time.time() - 10), False),
        (grip_sig(iss="someone"), False),
        ("not.a.jwt", False),
        ("", False),
    ],
    # named, not by the tokens: they hold the time, and each test process must collect
    # the same ids (pytest-xdist refuses to run otherwise)
    ids=["with-the-key", "another-key", "expired", "another-issuer", "not-a-jwt", "empty"],
)
def test_only_a_signature_made_with_the_key_counts(token, valid):
    assert live_grip.valid_signature(token) is valid


def test_without_a_key_no_signature_counts():
    assert live_grip.valid_signature(grip_sig()) is False


@override_settings(LIVE_GRIP_KEY=KEY)
def test_a_request_through_pushpin_is_answered_at_once_with_hold_instructions(make_event):
    event = make_event(2)
    channel = f"tournament:{event.pk}"
    response = Client().get("/live/stream/", {"channel": channel}, headers={"Grip-Sig": grip_sig()})
    assert response.status_code == 200
    assert not response.streaming  # no thread waits: Pushpin holds the connection
    assert response["Content-Type"] == "text/event-stream"
    assert response["Grip-Hold"] == "stream"
    assert response["Grip-Channel"] == channel
    assert "timeout=" in response["Grip-Keep-Alive"]
    assert response.content.decode().startswith("retry: ")


@override_settings(LIVE_GRIP_KEY=KEY)
def test_a_request_not_signed_by_pushpin_streams_in_process(make_event):
    event = make_event(2)
    forged = grip_sig("a-guessed-key-" + "g" * 30)
    response = Client().get(
        "/live/stream/", {"channel": f"tournament:{event.pk}"}, headers={"Grip-Sig": forged}
    )
    assert response.streaming
    assert not response.has_header("Grip-Hold")
    response.close()


@override_settings(LIVE_GRIP_KEY=KEY)
@pytest.mark.parametrize(
    ("channel", "status", "code"),
    [("nothing:1", 400, "channel_unknown"), ("tournament:999999", 404, "channel_not_found")],
)
def test_the_checks_come_first_behind_pushpin_too(channel, status, code):
    response = Client().get("/live/stream/", {"channel": channel}, headers={"Grip-Sig": grip_sig()})
    assert response.status_code == status
    assert response.json() == {
        "code": code,
        "detail": response.json()["detail"],
        "field": "channel",
    }
    assert not response.has_header("Grip-Hold")


@override_settings(LIVE_GRIP_KEY=KEY)
def test_a_clubs_channel_stays_private_behind_pushpin(make_event):
    event = make_event(2)
    response = Client().get(
        "/live/stream/", {"channel": f"club:{event.club_id}"}, headers={"Grip-Sig": grip_sig()}
    )
    assert response.status_code == 403
    assert response.json()["code"] == "channel_private"
    assert not response.has_header("Grip-Hold")


def test_behind_pushpin_the_web_sees_the_clients_address():
    seen: list[str] = []

    def app(environ, start_response):
        seen.append(environ["REMOTE_ADDR"])
        return []

    wrapped = live_grip.ClientAddressFromProxy(app)
    base = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    with override_settings(LIVE_GRIP_KEY=KEY):
        wrapped({**base, "HTTP_GRIP_SIG": grip_sig()}, None)
        wrapped(base, None)  # a client setting X-Forwarded-For itself changes nothing
        wrapped({**base, "HTTP_GRIP_SIG": grip_sig("forged-" + "f" * 40)}, None)
    assert seen == ["203.0.113.7", "127.0.0.1", "127.0.0.1"]


# --- the relay and the ring (Redis) ----------------------------------------------------------


class FakePushpin:
    """Pushpin's publish API, recording what is posted to it."""

    def __init__(self) -> None:
        self.items: list[dict] = []
        self.posts = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                owner.items.extend(json.loads(body)["items"])
                owner.posts += 1
                self.send_response(200)
                self.send_header("Content-Length", "9")
                self.end_headers()
                self.wfile.write(b"Published")

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/publish/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def pushpin():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the relay and the ring need REDIS_URL")
    fake = FakePushpin()
    yield fake
    fake.close()


def test_the_relay_publishes_a_game_to_its_match_and_its_event(make_event, pushpin):
    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    relay = live_grip.Relay(pushpin.url)
    relay.deliver(live.Notice(f"match:{match.pk}", "match.1.2"))
    relay.deliver(live.Notice(f"player:{match.player1_id}", "match.1.2"))
    contents = {
        item["channel"]: item["formats"]["http-stream"]["content"] for item in pushpin.items
    }
    assert set(contents) == {
        f"match:{match.pk}",
        f"tournament:{event.pk}",
        f"player:{match.player1_id}",
    }
    for channel, content in contents.items():  # each under the name its followers use
        data = json.loads(content.split("data: ", 1)[1])
        assert data == {"channel": channel, "version": "match.1.2"}
        assert content.startswith("id: g") and "event: changed" in content


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # SystemExit
def test_a_burst_on_redis_reaches_pushpin_in_batches_in_order(make_event, pushpin):
    """At a round's end hundreds of notices a second: the relay hands over what is
    waiting together, and Pushpin gets them in far fewer publish requests, in order."""
    events = [make_event(2, name=f"Burst {i}") for i in range(3)]
    channel = f"test-burst-{os.getpid()}-{time.monotonic_ns()}"
    relay = live_grip.Relay(pushpin.url)
    batches: list[int] = []
    wanted = 300
    subscribed = threading.Event()

    def deliver_many(notices: list[live.Notice]) -> None:
        if notices[0].channel == "ready":
            subscribed.set()
            return
        batches.append(len(notices))
        relay.deliver_many(notices)
        if sum(batches) >= wanted:
            raise SystemExit  # ends the relay's thread (it retries on any Exception)

    def unbatched(notice: live.Notice) -> None:
        raise AssertionError("a burst was handed over one by one")

    url = os.environ["REDIS_URL"]
    thread = threading.Thread(
        target=live.relay_forever,
        args=(url, channel, unbatched, lambda: None),
        kwargs={"deliver_many": deliver_many},
        daemon=True,
    )
    thread.start()
    publisher = live._publisher(url)
    while not subscribed.is_set():  # the relay is listening once it hears a notice
        publisher.publish(channel, live.Notice("ready", "0").as_json())
        subscribed.wait(0.05)
    sent = [(f"tournament:{events[i % 3].pk}", f"v{i}") for i in range(wanted)]
    pipe = publisher.pipeline(transaction=False)
    for name, version in sent:
        pipe.publish(channel, live.Notice(name, version).as_json())
    pipe.execute()
    thread.join(20)
    assert not thread.is_alive() and sum(batches) == wanted
    assert max(batches) > 1 and pushpin.posts == len(batches) < wanted
    published = [
        (item["channel"], json.loads(item["formats"]["http-stream"]["content"].split("data: ")[1]))
        for item in pushpin.items
    ]
    assert [(name, data["version"]) for name, data in published] == sent
    ids = [i["formats"]["http-stream"]["content"].split("\n")[0] for i in pushpin.items]
    assert len(set(ids)) == wanted  # each its own ring id, for Last-Event-ID


def test_a_match_joining_an_event_is_heard_after_the_events_notice(make_event, win, pushpin):
    event = make_event(4)
    relay = live_grip.Relay(pushpin.url)
    win(event, "main-r1-m1", pairing(event, "main-r1-m1").entry1.seed)
    assert pairing(event, "main-r2-m1").match is None
    win(event, "main-r1-m2", pairing(event, "main-r1-m2").entry1.seed)
    final = pairing(event, "main-r2-m1").match
    assert final is not None
    relay._owners[f"match:{final.pk}"] = frozenset()  # cached before it joined
    relay.deliver(live.Notice(f"tournament:{event.pk}", "tournament.1.9"))
    relay.deliver(live.Notice(f"match:{final.pk}", "match.2.1"))
    assert {i["channel"] for i in pushpin.items[-2:]} == {
        f"match:{final.pk}",
        f"tournament:{event.pk}",
    }


@override_settings(LIVE_GRIP_KEY=KEY)
def test_a_browser_reconnecting_through_pushpin_gets_what_it_missed(make_event, pushpin):
    event = make_event(2)
    other = make_event(2, name="Other Night")
    relay = live_grip.Relay(pushpin.url)
    channel = f"tournament:{event.pk}"
    relay.deliver(live.Notice(channel, "seen"))
    seen_id = pushpin.items[-1]["formats"]["http-stream"]["content"].split("\n")[0][4:]
    relay.deliver(live.Notice(channel, "missed-1"))
    relay.deliver(live.Notice(f"tournament:{other.pk}", "not-mine"))
    relay.deliver(live.Notice(channel, "missed-2"))
    headers = {"Grip-Sig": grip_sig(), "Last-Event-ID": seen_id}
    body = Client().get("/live/stream/", {"channel": channel}, headers=headers).content.decode()
    versions = [
        json.loads(line[6:])["version"] for line in body.splitlines() if line.startswith("data: ")
    ]
    assert versions == ["missed-1", "missed-2"]


@override_settings(LIVE_GRIP_KEY=KEY)
def test_an_id_the_ring_cannot_place_gets_a_resync(make_event, pushpin):
    event = make_event(2)
    channel = f"tournament:{event.pk}"
    for last_event_id in ("abc123-4", "g1-0"):  # an in-process id; one older than the ring
        live_grip.Relay(pushpin.url).deliver(live.Notice(channel, "x"))
        headers = {"Grip-Sig": grip_sig(), "Last-Event-ID": last_event_id}
        body = Client().get("/live/stream/", {"channel": channel}, headers=headers).content
        data = [
            json.loads(line[6:]) for line in body.decode().splitlines() if line.startswith("data: ")
        ]
        assert data == [{"channel": channel, "version": "resync"}]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_relay_finds_a_matchs_event_after_its_database_connection_broke(make_event):
    """The relay checks its connection only every few seconds (a check per lookup was
    a sixth of its CPU): a lookup on a connection broken meanwhile (the database
    restarted) is made again on a new one, not lost."""
    from django.db import connection

    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    relay = live_grip.Relay("http://127.0.0.1:9/publish/")
    assert relay.targets(live.Notice(f"match:{match.pk}", "v1"))[1:] == [f"tournament:{event.pk}"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    import psycopg
    from django.conf import settings as django_settings

    db = django_settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"] or None, port=db["PORT"] or None, user=db["USER"],
        dbname=db["NAME"], autocommit=True,
    ) as other:  # fmt: skip
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    relay._owners.clear()
    assert relay.targets(live.Notice(f"match:{match.pk}", "v2"))[1:] == [f"tournament:{event.pk}"]


@override_settings(
    LIVE_GRIP_KEY=KEY,
    CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                        "LOCATION": "live-stream-cap"}},
)  # fmt: skip
def test_one_client_opens_at_most_its_share_of_streams(make_event, settings, make_user):
    """Issue #37, item 7: one client held 734 live streams through Pushpin. Opens per
    client per ``LIVE_STREAM_SECONDS`` are capped: per address for anonymous visitors,
    per account when signed in; another client is not held back."""
    from django.core.cache import cache

    cache.clear()
    settings.LIVE_STREAMS_PER_ADDRESS = 5
    settings.LIVE_STREAMS_PER_USER = 2
    channel = f"tournament:{make_event(2).pk}"

    def open_stream(client: Client, address: str = "203.0.113.9"):
        return client.get(
            "/live/stream/", {"channel": channel}, headers={"Grip-Sig": grip_sig()},
            REMOTE_ADDR=address,
        )  # fmt: skip

    statuses = [open_stream(Client()).status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2
    refused = open_stream(Client())
    assert refused["Retry-After"] and int(refused["Retry-After"]) > 0
    assert refused.json()["code"] == "too_many_streams"
    assert "Grip-Hold" not in refused  # nothing held for it
    assert open_stream(Client(), "198.51.100.4").status_code == 200  # another address
    member = Client()
    member.force_login(make_user())
    assert [open_stream(member).status_code for _ in range(3)] == [200, 200, 429]
