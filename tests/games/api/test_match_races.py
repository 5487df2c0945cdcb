"""Real concurrency on PostgreSQL: two clients entering the same game at once.

Threads with their own connections post at the same moment (a barrier releases
them); the row lock serialises them, so exactly one game is recorded and the other
client is told 409, never both recorded.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from games.models import Game, Match
from games.services import match_records, score_entry
from games.services.actors import actor_for_user
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(requests):
    return race(requests)


def _client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("attempt", range(3))
def test_two_entries_of_the_same_game_record_one(attempt, alice_user, bob_user, match, alice, bob):
    url = f"/api/v1/matches/{match.pk}/games/"
    responses = _race(
        [
            lambda: _client(alice_user).post(url, {"winner": alice.pk, "number": 1}, format="json"),
            lambda: _client(bob_user).post(url, {"winner": bob.pk, "number": 1}, format="json"),
        ]
    )
    codes = sorted(r.status_code for r in responses)
    assert codes == [201, 409], [r.json() for r in responses]
    assert Game.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 2


def test_idempotent_twins_record_once(director, match, alice):
    url = f"/api/v1/matches/{match.pk}/games/"
    send = lambda: _client(director).post(  # noqa: E731
        url, {"winner": alice.pk}, format="json", HTTP_IDEMPOTENCY_KEY="same-key"
    )
    responses = _race([send, send])
    assert [r.status_code for r in responses] == [201, 201]
    assert responses[0].json()["games"] == responses[1].json()["games"]
    assert Game.objects.filter(match=match).count() == 1


def test_entry_racing_a_correction_ends_in_a_serial_order(director, alice_user, match, alice, bob):
    client = _client(director)
    client.post(f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json")
    responses = _race(
        [
            lambda: _client(alice_user).post(
                f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json"
            ),
            lambda: _client(director).patch(
                f"/api/v1/matches/{match.pk}/games/1/", {"winner": bob.pk}, format="json"
            ),
        ]
    )
    assert all(r.status_code in (200, 201) for r in responses)
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [g.winner_id for g in games] == [bob.pk, alice.pk]
    assert [(g.score1_before, g.score2_before) for g in games] == [(0, 0), (0, 1)]
    final = Match.objects.get(pk=match.pk)
    assert (final.score1, final.score2) == (1, 1)
    assert final.version == 4


@pytest.mark.parametrize("attempt", range(3))
def test_two_partial_corrections_of_one_game_both_stand(attempt, director, match, alice, bob):
    """A PATCH names some fields; the others come from the stored game, read under the
    match's lock. Two directors correcting different fields of game 1 at once: both
    corrections stand (one changes the winner, the other the cube), none is lost to a
    copy of the game read before the other's write."""
    client = _client(director)
    client.post(f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json")
    url = f"/api/v1/matches/{match.pk}/games/1/"
    responses = _race(
        [
            lambda: _client(director).patch(url, {"winner": bob.pk}, format="json"),
            lambda: _client(director).patch(
                url, {"cube": 2, "cube_owner": "player1"}, format="json"
            ),
        ]
    )
    assert [r.status_code for r in responses] == [200, 200], [r.json() for r in responses]
    game = Game.objects.get(match=match, number=1)
    assert (game.winner_id, game.cube, game.cube_owner) == (bob.pk, 2, "player1")
    final = Match.objects.get(pk=match.pk)
    assert (final.score1, final.score2) == (0, 2)


def test_an_entry_that_waited_for_the_lock_builds_on_the_game_it_waited_for(
    director, match, alice, bob
):
    """The locking query brings the games, read in its snapshot: when it had to wait for
    another writer, that snapshot predates the writer's game. The next game must still
    be numbered and scored after it (the versions differ, so the games are read again).
    """
    actor = actor_for_user(director)
    locked = threading.Event()

    def first_writer():
        try:
            with transaction.atomic():
                score_entry.record_game(
                    actor=actor, match_id=match.pk, game=match_records.GameInput(alice.pk, 2)
                )
                locked.set()
                with connection.cursor() as cursor:  # commit once the entry waits on the lock
                    for _ in range(600):
                        cursor.execute(
                            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = "
                            "'Lock' AND datname = current_database()"
                        )
                        if cursor.fetchone()[0]:
                            break
                        threading.Event().wait(0.05)
        finally:
            connection.close()

    thread = threading.Thread(target=first_writer)
    thread.start()
    assert locked.wait(timeout=30)
    url = f"/api/v1/matches/{match.pk}/games/"
    try:
        response = _client(director).post(url, {"winner": bob.pk, "number": 2}, format="json")
    finally:
        thread.join()
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [g["number"] for g in body["games"]] == [1, 2]
    assert body["games"][1]["score_before"] == [2, 0] and body["score"] == [2, 1]
    assert Game.objects.get(match=match, number=2).score1_before == 2
