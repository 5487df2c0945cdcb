"""Live pages (docs/live.md): notices after commit, the stream, and who may follow what."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from typing import cast

import pytest
from django.http import StreamingHttpResponse
from django.test import Client, override_settings
from hypothesis import given
from hypothesis import strategies as st

from core import live, live_stream
from games.services.match_records import GameInput
from games.services.score_entry import record_game
from tests.tournaments.conftest import pairing

pytestmark = pytest.mark.django_db

# A stream lives long enough for a loaded machine's relay thread (seconds, at worst):
# the tests read its chunks until the event they wait for, never for its whole life.
FAST = {"LIVE_HEARTBEAT_SECONDS": 0.05, "LIVE_STREAM_SECONDS": 30}


def notices_since(seen: int, wanted: int = 0, timeout: float = 5) -> list[live.Notice]:
    """The notices after ``seen``, waiting (up to ``timeout``) until ``wanted`` came:
    with ``REDIS_URL`` a notice reaches this process's ring through the relay thread."""
    ring = live.ring()
    deadline = time.monotonic() + timeout
    notices = ring.after(seen)[1]
    while len(notices) < wanted and time.monotonic() < deadline:
        ring.wait_after(seen + len(notices), timeout=deadline - time.monotonic())
        notices = ring.after(seen)[1]
    return notices


def open_stream(client: Client, *channels: str, last_event_id: str | None = None):
    headers = {"Last-Event-ID": last_event_id} if last_event_id else {}
    response = client.get("/live/stream/", {"channel": list(channels)}, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    body = cast(StreamingHttpResponse, response).streaming_content
    assert isinstance(body, Iterator)  # a WSGI stream: a plain iterator
    return response, body


def next_event(chunks, timeout: float = 20) -> str:
    """The next chunk that is an event (keep-alive comments skipped), within
    ``timeout`` seconds (a notice comes through the relay thread with ``REDIS_URL``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        chunk = next(chunks).decode()
        if "event: changed" in chunk:
            return chunk
    raise AssertionError("no event came")


def data_of(chunk: str) -> dict[str, str]:
    line = next(x for x in chunk.splitlines() if x.startswith("data: "))
    return json.loads(line.removeprefix("data: "))


# --- the ring ----------------------------------------------------------------------------------


@given(
    size=st.integers(min_value=1, max_value=8),
    sent=st.integers(min_value=0, max_value=20),
    seen=st.integers(min_value=0, max_value=20),
)
def test_ring_gives_what_came_after_or_says_some_were_missed(size, sent, seen):
    ring = live.NoticeRing(size)
    for i in range(sent):
        ring.append(live.Notice(f"tournament:{i}", str(i)))
    last, notices, missed = ring.after(seen)
    assert last == sent
    if seen > sent:
        assert missed and notices == []
    elif sent - seen > size:
        assert missed  # the oldest ones fell out of the ring
    else:
        assert not missed
        assert [n.version for n in notices] == [str(i) for i in range(seen, sent)]


# --- publishing --------------------------------------------------------------------------------


def test_nothing_is_published_before_the_commit(django_capture_on_commit_callbacks):
    before = live.ring().last
    assert live.relay_alive(wait=5)  # with Redis: subscribed before anything is sent
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        live.publish_on_commit(["tournament:1"], 3)
    assert notices_since(before) == []  # rolled back: the callbacks never run
    callbacks[0]()
    assert notices_since(before, wanted=1) == [live.Notice("tournament:1", "3")]


def test_a_game_entered_notifies_the_match_its_players_and_club(
    make_event, actor, django_capture_on_commit_callbacks
):
    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    before = live.ring().last
    assert live.relay_alive(wait=5)
    with django_capture_on_commit_callbacks(execute=True):
        record_game(
            actor=actor,
            match_id=match.pk,
            game=GameInput(winner_id=match.player1_id),
        )
    assert {n.channel for n in notices_since(before, wanted=4)} == {
        f"match:{match.pk}",
        f"player:{match.player1_id}",
        f"player:{match.player2_id}",
        f"club:{event.club_id}",
    }  # the event hears its matches through the stream (below): no lookup here


@override_settings(**FAST)
def test_the_events_stream_hears_a_game_on_any_of_its_matches_even_new_ones(
    make_event, actor, win, django_capture_on_commit_callbacks
):
    event = make_event(8)
    friendly = pairing(make_event(2, name="Other Night"), "main-r1-m1").match
    response, chunks = open_stream(Client(), f"tournament:{event.pk}")
    next(chunks)

    def game(match) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            record_game(
                actor=actor,
                match_id=match.pk,
                game=GameInput(winner_id=match.player1_id),
            )

    game(friendly)  # another event's match: not heard
    first = pairing(event, "main-r1-m3").match
    game(first)
    chunk = next_event(chunks)
    assert data_of(chunk) == {
        "channel": f"tournament:{event.pk}",  # reported under the followed channel
        "version": f"match.{first.pk}.{first.version + 1}",
    }
    with django_capture_on_commit_callbacks(execute=True):
        for key in ("main-r1-m1", "main-r1-m2"):
            win(event, key, pairing(event, key).entry1.seed)
    final = pairing(event, "main-r2-m1").match  # created by the second result
    assert final is not None
    game(final)  # its event's notice came first: the stream knows the final by now
    versions: list[str] = []
    while not any(f"match.{final.pk}." in v for v in versions):
        versions.append(data_of(next_event(chunks))["version"])  # fails if it never comes
    response.close()


@override_settings(**FAST)
def test_a_public_stream_never_carries_another_channels_notices(make_event):
    event = make_event(2)
    response, chunks = open_stream(Client(), f"tournament:{event.pk}")
    next(chunks)
    live.publish([f"club:{event.club_id}", "tournament:999999"], "secret")
    live.publish([f"tournament:{event.pk}"], "mine")
    chunk = next_event(chunks)
    assert data_of(chunk)["version"] == "mine"
    assert "secret" not in chunk
    response.close()


@override_settings(**FAST)
def test_a_reconnecting_browser_gets_what_it_missed(make_event):
    event = make_event(2)
    ring = live.ring()
    seen = ring.last
    assert live.relay_alive(wait=10)  # with Redis: subscribed before anything is sent
    live.publish([f"tournament:{event.pk}"], "missed-1")
    # missed: in this process's ring before the browser reconnects (with REDIS_URL it
    # comes through the relay thread, which a loaded machine can hold up for seconds)
    assert [n.version for n in notices_since(seen, wanted=1, timeout=30)] == ["missed-1"]
    response, chunks = open_stream(
        Client(), f"tournament:{event.pk}", last_event_id=f"{ring.token}-{seen}"
    )
    next(chunks)
    assert data_of(next_event(chunks))["version"] == "missed-1"
    response.close()


@override_settings(**FAST)
def test_a_browser_from_another_process_is_told_to_refetch(make_event):
    event = make_event(2)
    response, chunks = open_stream(Client(), f"tournament:{event.pk}", last_event_id="deadbeef-12")
    next(chunks)
    assert data_of(next_event(chunks)) == {
        "channel": f"tournament:{event.pk}",
        "version": "resync",
    }
    response.close()


@override_settings(LIVE_HEARTBEAT_SECONDS=0.01, LIVE_STREAM_SECONDS=0.05)
def test_a_stream_ends_after_its_lifetime(make_event):
    event = make_event(2)
    response, chunks = open_stream(Client(), f"tournament:{event.pk}")
    body = b"".join(chunks).decode()  # ends by itself: the browser reconnects
    assert body.startswith("retry: ")
    assert ": keep-alive" in body
    response.close()


# --- who may follow what -----------------------------------------------------------------------


def test_a_clubs_channel_is_for_its_directors_only(make_event, director, make_user):
    event = make_event(2)
    channel = f"club:{event.club_id}"
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    for client in (Client(), stranger):
        response = client.get("/live/stream/", {"channel": [f"tournament:{event.pk}", channel]})
        assert response.status_code == 403
        assert response.json() == {
            "code": "channel_private",
            "detail": f"You may not follow {channel!r}.",
            "field": "channel",
        }
    own = Client()
    own.force_login(director)
    response = own.get("/live/stream/", {"channel": channel})
    assert response.status_code == 200
    response.close()


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ({}, 400, "channel_required"),
        ({"channel": "tournament"}, 400, "channel_unknown"),
        ({"channel": "secrets:1"}, 400, "channel_unknown"),
        ({"channel": "tournament:999999"}, 404, "channel_not_found"),
        ({"channel": [f"match:{i}" for i in range(9)]}, 400, "too_many_channels"),
    ],
)
def test_a_bad_channel_is_refused_in_the_error_shape(query, status, code):
    response = Client().get("/live/stream/", query)
    assert response.status_code == status
    assert response.json()["code"] == code


def test_the_live_pages_follow_their_channels(make_event, director, client):
    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    pages = {
        f"/tournaments/{event.slug}/screen/": f"tournament%3A{event.pk}",
        f"/tournaments/{event.slug}/bracket/": f"tournament%3A{event.pk}",
        f"/tournaments/{event.slug}/standings/": f"tournament%3A{event.pk}",
        f"/players/{match.player1.slug}/": f"player%3A{match.player1_id}",
        f"/matches/{match.pk}/": f"match%3A{match.pk}",
    }
    for url, channel in pages.items():
        html = client.get(url).content.decode()
        assert f'sse-connect="/live/stream/?channel={channel}"' in html, url
        assert "data-live-badge" in html and "data-live-part" in html, url
    client.force_login(director)
    html = client.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert f"channel=tournament%3A{event.pk}&amp;channel=club%3A{event.club_id}" in html


# --- across processes: Redis --------------------------------------------------------------------


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")
def test_with_redis_a_notice_reaches_the_ring_through_the_relay():
    with override_settings(REDIS_URL=os.environ["REDIS_URL"]):
        ring = live.ring()  # starts the relay
        live.ensure_relay()
        time.sleep(0.5)  # the relay subscribes (a subscription is not retroactive)
        seen = ring.last
        live.publish(["tournament:424242"], "via-redis")
        _, notices, _ = ring.wait_after(seen, timeout=5)
        assert live.Notice("tournament:424242", "via-redis") in notices


@override_settings(**FAST)
def test_a_stream_ends_when_this_process_hears_nothing(make_event, monkeypatch):
    event = make_event(2)
    monkeypatch.setattr(live, "relay_alive", lambda wait=0: False)  # Redis lost
    response, chunks = open_stream(Client(), f"tournament:{event.pk}")
    body = b"".join(chunks).decode()  # the page goes offline and polls
    assert body.startswith("retry: ") and "event:" not in body
    response.close()


def test_a_new_token_sends_returning_browsers_a_resync(rf):
    ring = live.NoticeRing()
    ring.append(live.Notice("tournament:1", "1"))
    returning = rf.get("/live/stream/", headers={"Last-Event-ID": f"{ring.token}-1"})
    assert live_stream._resume_point(returning, ring) == 1
    ring.new_token()  # the relay reconnected: notices may have been lost meanwhile
    assert live_stream._resume_point(returning, ring) == -1
    assert ring.after(-1)[2]  # missed: a "resync" per channel
