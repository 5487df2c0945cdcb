"""What one score entry costs in SQL queries: a contract of the write path.

A game recorded through the API the way a phone sends it (a knox token, ``number``,
an ``Idempotency-Key``) on a match outside any tournament is at most 8 queries on
PostgreSQL, ``BEGIN`` and ``COMMIT`` included, however many games the match has: the
token with its user and player; ``BEGIN``; the idempotency claim; the match locked,
bringing its games and whether the actor directs the club; the game; the match; both
audit rows and the stored answer in one statement; ``COMMIT``. The database is real
(``transaction=True``), so the count is the one production pays: no test savepoints
around the request. (SQLite has neither ``FOR UPDATE`` nor data-modifying ``WITH``:
the contract is PostgreSQL's.)
"""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from core.models import IdempotentRequest
from games.models import Game, Match
from games.services import match_create, match_records, score_entry
from games.services.actors import actor_for_user
from tests.factories import token_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

MAX_QUERIES = 8


def _token_client(user) -> APIClient:
    _, token = token_for(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _enter(client, match, winner, number):
    return client.post(
        f"/api/v1/matches/{match.pk}/games/",
        {"winner": winner.pk, "number": number},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


@pytest.mark.parametrize("games_before", [0, 30])
def test_a_score_entry_is_at_most_eight_queries(
    director, club, alice, bob, games_before, django_assert_max_num_queries
):
    actor = actor_for_user(director)
    match = match_create.create_match(actor=actor, club=club, player1=alice, player2=bob, length=99)
    for _ in range(games_before):
        score_entry.record_game(
            actor=actor, match_id=match.pk, game=match_records.GameInput(winner_id=alice.pk)
        )
    client = _token_client(director)

    with django_assert_max_num_queries(MAX_QUERIES):
        response = _enter(client, match, bob, games_before + 1)

    assert response.status_code == 201, response.json()
    body = response.json()
    assert [g["number"] for g in body["games"]] == list(range(1, games_before + 2))
    assert body["score"] == [games_before, 1] and body["next_game"] == games_before + 2
    assert response["ETag"] == f'"{games_before + 2}"'
    # nothing of what the queries were cut from went missing: the audit rows (with
    # who wrote them), the stored answer, the match as the answer shows it
    game = Game.objects.get(match=match, number=games_before + 1)
    assert game.history.get().history_user_id == director.pk
    latest = Match.history.filter(id=match.pk).latest("history_id")
    assert latest.version == games_before + 2 and latest.history_user_id == director.pk
    stored = IdempotentRequest.objects.get(scope=f"user:{director.pk}")
    assert stored.status_code == 201 and stored.body == body
    assert Match.objects.get(pk=match.pk).score2 == 1


def test_a_players_entry_by_token_is_as_cheap(
    alice_user, director, club, alice, bob, django_assert_max_num_queries
):
    """A participant (not a director) entering by token: the same count, the entry awaits bob."""
    match = match_create.create_match(
        actor=actor_for_user(director), club=club, player1=alice, player2=bob, length=5
    )
    client = _token_client(alice_user)

    with django_assert_max_num_queries(MAX_QUERIES):
        response = _enter(client, match, alice, 1)

    assert response.status_code == 201, response.json()
    assert response.json()["confirmation"] == "pending"
    assert response.json()["awaiting"] == bob.pk
    assert response.json()["games"][0]["entered_by"] == alice.pk
