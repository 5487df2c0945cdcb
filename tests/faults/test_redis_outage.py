"""Redis stopped while players enter scores: every entry is recorded at once, and the
follow-up rating jobs run once Redis is back (the outbox rows and the sweep).

Our own Redis is the broker of this process and of a real worker, and the cache this
process uses (the backend ``config.settings`` configures with ``REDIS_URL``), so the
outage hits everything Redis serves: rate limits, enqueueing on commit, the worker.
"""

from __future__ import annotations

import time
import uuid

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from core import outbox
from core.models import DomainEvent
from games.models import Game, Match, RatingChange
from games.services import clubs as club_services
from games.services import match_create
from games.services import ratings as rating_services
from games.services.actors import actor_for_user

from .conftest import celery_broker, wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.faults,
    pytest.mark.django_db(transaction=True),
]

MATCHES = 6
LENGTH = 3  # three single games finish a 3-point match


@pytest.fixture
def cache_on(settings):
    """Point the cache at another Redis, with the backend and options of the settings."""
    configured = django_settings.CACHES["default"]
    if "redis" not in configured["BACKEND"].lower():
        pytest.skip("the Redis outage test needs REDIS_URL (the Redis cache configuration)")

    def point(url: str) -> None:
        settings.CACHES = {"default": {**configured, "LOCATION": url}}

    return point


def test_scores_entered_while_redis_is_down_are_kept_and_rated_when_it_is_back(
    own_redis, start_worker, cache_on, make_user
):
    # Given a worker and this process on our own Redis, and six 3-point matches
    worker = start_worker(own_redis.url)
    cache_on(own_redis.url)
    director = make_user("outage-director")
    club = club_services.create_club(created_by=director, name="Outage Club")
    players = [club_services.create_player(display_name=f"P{i}", clubs=[club]) for i in range(4)]
    actor = actor_for_user(director)
    matches = [
        match_create.create_match(
            actor=actor,
            club=club,
            player1=players[i % 4],
            player2=players[(i + 1) % 4],
            length=LENGTH,
        )
        for i in range(MATCHES)
    ]
    client = APIClient()
    client.force_authenticate(director)

    with celery_broker(own_redis.url):
        # When Redis stops and every game of every match is entered through the API
        own_redis.stop()
        timings = []
        for match in matches:
            for number in range(1, LENGTH + 1):
                started = time.monotonic()
                response = client.post(
                    f"/api/v1/matches/{match.pk}/games/",
                    {"winner": match.player1_id, "number": number},
                    format="json",
                    HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
                )
                timings.append(time.monotonic() - started)
                assert response.status_code == 201, response.content

        # Then every entry is recorded and each finished match left an unhandled event
        assert Game.objects.filter(match__in=matches).count() == MATCHES * LENGTH
        assert set(Match.objects.filter(pk__in=[m.pk for m in matches]).values_list(
            "status", flat=True
        )) == {"finished"}  # fmt: skip
        events = DomainEvent.objects.filter(kind="match.finished")
        assert events.count() == MATCHES
        assert not events.filter(handled_at__isnull=False).exists()
        assert not RatingChange.objects.exists()
        # and no request waited on the broker for long (a failed enqueue is ~0.3 s)
        assert max(timings) < 2.0, timings

        # When Redis is back and the sweep runs (the beat task, here called directly)
        own_redis.start()
        outage_over = time.monotonic()
        assert outbox.sweep_events(older_than_seconds=0) == MATCHES

        # Then the worker (which kept running) reconnects and handles every event once
        wait_until(
            lambda: not DomainEvent.objects.filter(handled_at__isnull=True).exists(),
            90,
            "the worker to handle the swept events",
        )
        caught_up = time.monotonic() - outage_over
    assert set(events.values_list("attempts", flat=True)) == {1}
    assert RatingChange.objects.filter(match__in=matches).count() == 2 * 2 * MATCHES
    # and the ratings are exactly what a from-scratch recomputation gives
    for list_id in rating_services.lists_of_club(club.pk):
        report = rating_services.recompute_list(rating_list_id=list_id)
        assert (report.matches, report.drifted_players) == (MATCHES, 0)
    assert worker.process.poll() is None
    print(
        f"\nredis outage: {len(timings)} entries, all 201; slowest {max(timings):.3f} s, "
        f"mean {sum(timings) / len(timings):.3f} s; {MATCHES} events handled "
        f"{caught_up:.1f} s after Redis came back"
    )
