"""PostgreSQL: a full recomputation in its own transaction (committed data, hence
``transaction=True``) equals the pure replay, and a reader on another connection sees
the old list until the commit, never a part of the new one."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from games.models import Club, Rating, RatingChange, RatingList
from games.rules.rating_replay import replay
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services import ratings as rating_services
from games.services.actors import actor_for_user
from games.services.ratings import recompute

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROW = (
    "match_id", "player_id", "opponent_id", "won", "length", "at", "rating_before",
    "rating_after", "change", "experience_before", "experience_after",
)  # fmt: skip


def _history(rating_list):
    return list(
        RatingChange.objects.filter(rating_list=rating_list)
        .order_by("at", "match_id", "player_id")
        .values_list(*ROW)
    )


def _ratings(rating_list):
    return {
        r.player_id: (r.rating, r.experience, r.matches_played, r.last_change, r.last_played_at)
        for r in Rating.objects.filter(rating_list=rating_list)
    }


@pytest.fixture
def played(make_user):
    """Thirty matches among six players (committed; applied as they finish)."""
    director = make_user("pipe-director")
    club = club_services.create_club(created_by=director, name="Pipe Club", slug="pipe")
    players = [club_services.create_player(display_name=f"P{i}", clubs=[club]) for i in range(6)]
    actor = actor_for_user(director)
    for i in range(30):
        winner, loser = players[i % 6], players[(i * 5 + 1) % 6]
        if winner == loser:
            loser = players[(i + 2) % 6]
        match = match_create.create_match(
            actor=actor, club=club, player1=winner, player2=loser, length=1 + 2 * (i % 4)
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(match.length, 0))
    return rating_services.club_list(club)


def _pure(rating_list):
    """The pure replay of the same matches, in memory, sorted like ``_history``."""
    matches = rating_services.matches_of_list(rating_list).order_by("finished_at", "pk")
    rows = matches.values_list(
        "pk", "player1_id", "player2_id", "winner_id", "length", "finished_at"
    )
    standings: dict = {}
    changes = replay(
        list(rows), standings, rating_list_id=rating_list.pk,
        initial=rating_list.initial_rating, policy=rating_list.boost,
    )  # fmt: skip
    history = sorted(
        (c[2], c[1], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]) for c in changes
    )
    ratings = {
        p: (s.rating, s.experience, s.matches, s.last_change, s.last_played_at)
        for p, s in standings.items()
    }
    return sorted(history, key=lambda r: (r[5], r[0], r[1])), ratings


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of 4 matches: the history is written in several ``COPY`` statements."""
    real = recompute.match_batches
    monkeypatch.setattr(recompute, "match_batches", lambda matches: real(matches, 4))


def test_a_full_recomputation_equals_the_pure_replay(played, small_batches):
    rating_services.recompute_list(rating_list_id=played.pk)  # from the applied history
    report = rating_services.recompute_list(rating_list_id=played.pk)

    assert report.matches == 30 and report.drifted_players == 0
    history, ratings = _pure(played)
    assert _history(played) == history
    assert _ratings(played) == ratings
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname LIKE %s", ["%_new"])
        assert cursor.fetchone() == (0,)


def _other_connection():
    return psycopg.connect(**connection.get_connection_params(), autocommit=True)


def test_a_reader_sees_the_old_list_while_it_is_recomputed_never_a_part(played, small_batches):
    """The new list differs from the old (another initial rating), so a reader could
    tell the old list, a part of the new one and the whole new one apart."""
    rating_services.recompute_list(rating_list_id=played.pk)
    sql = "SELECT count(*), sum(rating_after) FROM games_ratingchange WHERE rating_list_id = %s"
    seen, blocked = [], []
    reader = _other_connection()
    before = reader.execute(sql, [played.pk]).fetchone()
    Club.objects.filter(pk=played.club_id).update(rating_initial=played.initial_rating + 100)

    def read(done, total, message):
        try:
            reader.execute("SET lock_timeout = '300ms'")
            seen.append(reader.execute(sql, [played.pk]).fetchone())
        except psycopg.errors.LockNotAvailable:
            blocked.append(done)  # the swap holds the table: a reader waits for the commit

    try:
        report = rating_services.recompute_list(rating_list_id=played.pk, progress=read)
        after = reader.execute(sql, [played.pk]).fetchone()
    finally:
        reader.close()
    assert report.matches == 30
    assert len(seen) >= 8  # read between batches, while the new history was being written
    assert set(seen) == {before}
    assert blocked == [30]  # the last progress call comes after the swap, before the commit
    assert before[0] == after[0] == 60
    assert after[1] == pytest.approx(before[1] + 60 * 100)  # every row moved by 100
    played = RatingList.objects.select_related("club").get(pk=played.pk)
    assert _history(played) == _pure(played)[0]


def test_a_recomputation_that_fails_midway_leaves_the_old_list(played, small_batches):
    rating_services.recompute_list(rating_list_id=played.pk)
    history, ratings = _history(played), _ratings(played)

    def fail(done, total, message):
        if done >= 10:
            raise RuntimeError("worker died")

    with pytest.raises(RuntimeError):
        rating_services.recompute_list(rating_list_id=played.pk, progress=fail)
    assert _history(played) == history and _ratings(played) == ratings
    with connection.cursor() as cursor:  # the connection is usable, nothing left behind
        cursor.execute("SELECT to_regclass(%s)", [f"games_ratingchange_l{played.pk}_new"])
        assert cursor.fetchone() == (None,)
