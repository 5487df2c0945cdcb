"""PostgreSQL: the rating history is partitioned by list, and a full recomputation
swaps a fresh partition in (games.services.ratings.history)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from games.models import Rating, RatingChange
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services import ratings as rating_services
from games.services.actors import actor_for_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _partition_of(list_id: int) -> str | None:
    """The table holding the list's rows (a list without its own partition: the default)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT tableoid::regclass::text FROM games_ratingchange "
            "WHERE rating_list_id = %s",
            [list_id],
        )
        tables = [t for (t,) in cursor.fetchall()]
    assert len(tables) <= 1, tables
    return tables[0] if tables else None


def _partitions() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'games_ratingchange'::regclass"
        )
        return {name for (name,) in cursor.fetchall()}


def _history(rating_list):
    return list(
        RatingChange.objects.filter(rating_list=rating_list)
        .order_by("at", "match_id", "player_id")
        .values_list(
            "match_id", "player_id", "opponent_id", "won", "at", "rating_before",
            "rating_after", "change", "experience_before", "experience_after",
        )
    )  # fmt: skip


def _ratings(rating_list):
    return {
        r.player_id: (r.rating, r.experience, r.matches_played, r.last_change, r.last_played_at)
        for r in Rating.objects.filter(rating_list=rating_list)
    }


@pytest.fixture
def played(club, director, django_capture_on_commit_callbacks):
    """Eight matches among four players, applied one by one as they finish."""
    players = [club_services.create_player(display_name=n, clubs=[club]) for n in "ABCD"]
    actor = actor_for_user(director)
    matches = []
    for i in range(8):
        winner, loser = players[i % 4], players[(i + 1) % 4]
        with django_capture_on_commit_callbacks(execute=True):
            match = match_create.create_match(
                actor=actor, club=club, player1=winner, player2=loser, length=3 + i % 3
            )
            score_entry.record_final_score(actor=actor, match_id=match.pk, score=(match.length, 1))
        matches.append(match)
    return players, matches


def test_a_full_recomputation_moves_a_list_into_its_own_partition_unchanged(club, played):
    club_list = rating_services.club_list(club)
    assert _partition_of(club_list.pk) == "games_ratingchange_default"  # created after 0008
    history, ratings = _history(club_list), _ratings(club_list)
    assert len(history) == 16

    report = rating_services.recompute_list(rating_list_id=club_list.pk)

    assert report.matches == 8 and report.drifted_players == 0
    assert _partition_of(club_list.pk) == f"games_ratingchange_l{club_list.pk}"
    assert _history(club_list) == history and _ratings(club_list) == ratings
    site = rating_services.site_list()
    assert _partition_of(site.pk) == "games_ratingchange_default"  # other lists untouched
    assert len(_history(site)) == 16


def test_recomputing_again_replaces_the_partition_and_later_matches_go_into_it(
    club, director, played, django_capture_on_commit_callbacks
):
    players, _ = played
    club_list = rating_services.club_list(club)
    rating_services.recompute_list(rating_list_id=club_list.pk)
    rating_services.recompute_list(rating_list_id=club_list.pk)
    own = f"games_ratingchange_l{club_list.pk}"
    assert own in _partitions() and f"{own}_new" not in _partitions()
    actor = actor_for_user(director)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create.create_match(
            actor=actor, club=club, player1=players[0], player2=players[2], length=7
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(7, 0))
    assert RatingChange.objects.filter(rating_list=club_list, match=match).count() == 2
    assert _partition_of(club_list.pk) == own
    applied = _ratings(club_list)
    report = rating_services.recompute_list(rating_list_id=club_list.pk)
    assert report.drifted_players == 0 and _ratings(club_list) == applied


def test_the_swapped_partition_still_refuses_a_match_applied_twice(club, played):
    _, matches = played
    club_list = rating_services.club_list(club)
    rating_services.recompute_list(rating_list_id=club_list.pk)
    row = RatingChange.objects.filter(rating_list=club_list, match=matches[0]).first()
    row.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()


def test_a_recomputation_that_fails_midway_leaves_the_old_history(club, played):
    club_list = rating_services.club_list(club)
    rating_services.recompute_list(rating_list_id=club_list.pk)
    history, ratings = _history(club_list), _ratings(club_list)

    def fail(done, total, message):
        raise RuntimeError("worker died")

    with pytest.raises(RuntimeError):
        rating_services.recompute_list(rating_list_id=club_list.pk, progress=fail)
    assert _history(club_list) == history and _ratings(club_list) == ratings
    assert f"games_ratingchange_l{club_list.pk}_new" not in _partitions()
