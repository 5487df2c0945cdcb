"""Ratings through a real Celery worker: a finished match's ratings are applied by
the worker (the outbox task), once, on both lists."""

from __future__ import annotations

import pytest

from games.models import Rating, RatingChange
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services.actors import actor_for_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_finished_match_is_rated_by_the_worker(live_worker, wait_for, make_user):
    director = make_user("rating-director")
    club = club_services.create_club(created_by=director, name="Rated Worker Club")
    a = club_services.create_player(display_name="A", clubs=[club])
    b = club_services.create_player(display_name="B", clubs=[club])
    actor = actor_for_user(director)
    match = match_create.create_match(actor=actor, club=club, player1=a, player2=b, length=5)
    score_entry.record_final_score(actor=actor, match_id=match.pk, score=(5, 3))
    wait_for(
        lambda: RatingChange.objects.filter(match=match).count() == 4, what="the rating update"
    )
    club_rating = Rating.objects.get(rating_list__club=club, player=a)
    site_rating = Rating.objects.get(rating_list__club__isnull=True, player=a)
    assert club_rating.rating == pytest.approx(1500 + 4 * 5**0.5 * 0.5 * 5)
    assert site_rating.rating == club_rating.rating
