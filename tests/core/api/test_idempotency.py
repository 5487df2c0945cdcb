"""``Idempotency-Key`` under races and across callers.

A phone that times out resends its POST with the same key, sometimes many times at
once. Every copy must get the first answer (same status, same body) and the write
must happen once. The PostgreSQL tests release twenty threads, each with its own
connection, at a barrier; the SQLite tests check the scope and the body check.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from chouette.models import ChouetteGame
from chouette.services import sessions as session_services
from core.models import IdempotentRequest
from games import score_links
from games.models import Game, Match
from games.services import score_entry
from games.services.actors import actor_for_user
from tests.chouette.helpers import make_table, member, sessions_url
from tests.races import race

RACERS = 20


def _race(sends):
    return race(sends)


def _client(user=None, link=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    if link is not None:
        client.credentials(HTTP_X_SCORE_LINK=link)
    return client


def _post_twenty(user, url, body, key="phone-retry-1"):
    send = lambda: _client(user).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)  # noqa: E731
    return _race([send] * RACERS)


def _assert_all_got_the_first_answer(responses, status):
    summary = sorted((r.status_code, r.json().get("code", "")) for r in responses)
    assert [r.status_code for r in responses] == [status] * RACERS, summary
    first = [r for r in responses if not r.has_header("Idempotent-Replayed")]
    assert len(first) == 1, "exactly one request did the work; the others replayed it"
    for replay in responses:
        assert replay.json() == first[0].json()
        assert replay.get("ETag") == first[0].get("ETag")


# --- twenty concurrent retries with one key (PostgreSQL) --------------------------------------


@pytest.mark.parametrize("attempt", range(2))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_retries_of_a_numbered_game_all_get_the_first_201(attempt, director, match, alice):
    url = f"/api/v1/matches/{match.pk}/games/"
    responses = _post_twenty(director, url, {"winner": alice.pk, "number": 1})
    _assert_all_got_the_first_answer(responses, 201)
    assert Game.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 2


@pytest.mark.parametrize("attempt", range(2))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_retries_of_the_game_that_ends_a_match_all_get_the_first_201(
    attempt, director, make_match, alice
):
    one_pointer = make_match(1)
    url = f"/api/v1/matches/{one_pointer.pk}/games/"
    responses = _post_twenty(director, url, {"winner": alice.pk})
    _assert_all_got_the_first_answer(responses, 201)
    assert responses[0].json()["status"] == "finished"
    assert Game.objects.filter(match=one_pointer).count() == 1


@pytest.mark.parametrize("attempt", range(2))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_retries_of_a_refused_game_all_get_the_same_refusal(attempt, director, match, alice):
    """A refusal undoes the request's transaction with its claim (no savepoint), and is
    kept by claiming the key again with the answer: twins waiting on the first claim
    may do the work in between, and still every copy answers the same, stored once."""
    refused = {"winner": alice.pk, "number": 1, "cube": 2, "level": "gammon", "points": 3}
    responses = _post_twenty(director, f"/api/v1/matches/{match.pk}/games/", refused)
    _assert_all_got_the_first_answer(responses, 400)
    assert not Game.objects.filter(match=match).exists()
    assert IdempotentRequest.objects.filter(key="phone-retry-1").count() == 1


@pytest.mark.parametrize("attempt", range(2))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_retries_of_a_chouette_game_all_get_the_first_201(attempt, club, director):
    table = make_table(club, count=3, accounts=0)
    ann, ben, cat = table["Ann"], table["Ben"], table["Cat"]
    session = session_services.open_session(
        actor=actor_for_user(director), club=club, stake="1", players=[ann.pk, ben.pk, cat.pk]
    )
    # The team wins, so Ben takes the box: a second recording of the same body would
    # name the new box as a team member (the probe's 400 box_as_member).
    body = {"winner": "team", "members": [member(ben), member(cat)]}
    responses = _post_twenty(director, sessions_url(session.pk, "games/"), body)
    _assert_all_got_the_first_answer(responses, 201)
    assert ChouetteGame.objects.filter(session=session).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_key_racing_two_different_bodies_gets_one_201_and_one_422(director, match, alice, bob):
    url = f"/api/v1/matches/{match.pk}/games/"

    def send(winner):
        return lambda: _client(director).post(
            url, {"winner": winner.pk, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k"
        )

    responses = _race([send(alice), send(bob)])
    answers = sorted((r.status_code, r.json().get("code")) for r in responses)
    assert answers == [(201, None), (422, "idempotency_key_reused")]
    assert Game.objects.filter(match=match).count() == 1


# --- whose key it is ------------------------------------------------------------------------


def test_two_score_links_may_use_the_same_key_on_two_matches(db, make_match, alice, bob):
    first, second = make_match(5), make_match(5)
    alice_link = score_links.make_token(first, alice)
    bob_link = score_links.make_token(second, bob)
    key = "the-same-uuid"
    one = _client(link=alice_link).post(
        f"/api/v1/matches/{first.pk}/games/",
        {"winner": alice.pk},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    two = _client(link=bob_link).post(
        f"/api/v1/matches/{second.pk}/games/",
        {"winner": bob.pk},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert (one.status_code, two.status_code) == (201, 201), two.json()
    assert Game.objects.filter(match=first).count() == 1
    assert Game.objects.filter(match=second).count() == 1


def test_a_score_link_retry_replays_and_another_players_link_does_not(db, match, alice, bob):
    url = f"/api/v1/matches/{match.pk}/games/"
    alice_link = score_links.make_token(match, alice)
    bob_link = score_links.make_token(match, bob)
    body = {"winner": alice.pk}
    first = _client(link=alice_link).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    retry = _client(link=alice_link).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert (first.status_code, retry.status_code) == (201, 201)
    assert retry["Idempotent-Replayed"] == "true" and retry.json() == first.json()
    # Bob's phone picked the same key for his own entry of game 2: it is his, not Alice's.
    other = _client(link=bob_link).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code == 201 and not other.has_header("Idempotent-Replayed")
    assert Game.objects.filter(match=match).count() == 2


def test_a_user_reusing_a_key_with_another_body_gets_422(db, director, make_match, alice, bob):
    first, second = make_match(5), make_match(5)
    client = _client(director)
    ok = client.post(
        f"/api/v1/matches/{first.pk}/games/",
        {"winner": alice.pk},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    again = client.post(
        f"/api/v1/matches/{second.pk}/games/",
        {"winner": bob.pk},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert ok.status_code == 201
    assert (again.status_code, again.json()["code"]) == (422, "idempotency_key_reused")
    assert again.json()["field"] == "Idempotency-Key"
    assert Game.objects.filter(match=second).count() == 0


# --- which answers are kept -------------------------------------------------------------------


def test_a_refusal_is_replayed_to_the_retry(db, director, make_match, alice, bob):
    one_pointer = make_match(1)
    url = f"/api/v1/matches/{one_pointer.pk}/games/"
    client = _client(director)
    client.post(url, {"winner": alice.pk}, format="json")
    refused = client.post(url, {"winner": bob.pk}, format="json", HTTP_IDEMPOTENCY_KEY="late")
    assert (refused.status_code, refused.json()["code"]) == (400, "game_after_match_end")
    score_entry.undo_last_game(
        actor=actor_for_user(director), match_id=one_pointer.pk, expected_version=None
    )
    # The retry is the same request: it gets the same answer, not a second chance.
    retry = client.post(url, {"winner": bob.pk}, format="json", HTTP_IDEMPOTENCY_KEY="late")
    assert retry.status_code == 400 and retry["Idempotent-Replayed"] == "true"
    assert retry.json() == refused.json()
    assert Game.objects.filter(match=one_pointer).count() == 0


def test_a_5xx_is_not_kept_so_the_retry_does_the_work(db, director, match, alice, monkeypatch):
    url = f"/api/v1/matches/{match.pk}/games/"
    real = score_entry.record_game
    calls = {"n": 0}

    def flaky(**kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OperationalError("the database went away")
        return real(**kwargs)

    monkeypatch.setattr(score_entry, "record_game", flaky)
    client = _client(director)
    failed = client.post(url, {"winner": alice.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert failed.status_code == 503
    retry = client.post(url, {"winner": alice.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert retry.status_code == 201 and not retry.has_header("Idempotent-Replayed")
    assert Game.objects.filter(match=match).count() == 1
