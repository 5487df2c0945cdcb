"""The explicit write path from a match result to the bracket (issue 18, part 4).

* The first game of a tournament match is not a result: the tournament is neither
  locked nor bumped, so the directors' ``If-Match`` and the bracket cache stay valid.
* Score entry and a bracket redraw take their locks in one order (matches, then the
  tournament): run together many times on PostgreSQL they never deadlock (which the
  API would report as a 503) and always leave one consistent outcome.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Match, MatchStatus
from games.rules.errors import BoxcarsError
from tests.factories import token_for
from tests.races import race
from tests.tournaments.conftest import pairing
from tournaments.models import Tournament
from tournaments.services import draws


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.django_db
def test_the_first_game_of_a_tournament_match_leaves_the_tournament_version(make_event, director):
    event = make_event(4)
    etag = _client(director).get(f"/api/v1/tournaments/{event.slug}/")["ETag"]
    match = pairing(event, "main-r1-m1").match
    url = f"/api/v1/matches/{match.pk}/games/"

    response = _client(director).post(url, {"winner": match.player1_id}, format="json")

    assert response.status_code == 201, response.json()
    assert Match.objects.get(pk=match.pk).status == MatchStatus.IN_PROGRESS
    assert Tournament.objects.get(pk=event.pk).version == event.version
    assert _client(director).get(f"/api/v1/tournaments/{event.slug}/")["ETag"] == etag


@pytest.mark.django_db
def test_a_finished_tournament_match_moves_the_bracket_and_the_version(make_event, director):
    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    response = _client(director).post(
        f"/api/v1/matches/{match.pk}/result/", {"score": [match.length, 0]}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert Tournament.objects.get(pk=event.pk).version == event.version + 1
    assert pairing(event, "main-r2-m1").entry1_id is not None


def _together(*calls):
    return race(calls, capture_errors=True)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_score_entry_and_a_redraw_at_once_never_deadlock(make_event, director, actor):
    """30 rounds of a score entry racing a redraw of the same bracket.

    Even rounds enter a first game, odd rounds a final score (a result, which takes
    the tournament's lock through the bracket listener). Either the score entry wins
    (the redraw is refused: the bracket has started) or the redraw wins (the match is
    void, the entry is refused): never a deadlock, never a 5xx.
    """
    outcomes = set()
    for round_number in range(30):
        event = make_event(4, name=f"Race {round_number}")
        match = pairing(event, "main-r1-m1").match
        body: dict[str, Any]
        if round_number % 2:
            url, body = f"/api/v1/matches/{match.pk}/result/", {"score": [match.length, 0]}
        else:
            url, body = f"/api/v1/matches/{match.pk}/games/", {"winner": match.player1_id}

        def enter(url=url, body=body):
            return _client(director).post(url, body, format="json")

        def redraw(event=event):
            return draws.redraw_bracket(actor=actor, tournament_id=event.pk)

        entered, redrawn = _together(enter, redraw)
        assert entered.status_code < 500, (round_number, entered.status_code, entered.json())
        assert not isinstance(redrawn, Exception) or getattr(redrawn, "status_code", 500) < 500, (
            round_number,
            repr(redrawn),
        )
        status = Match.objects.get(pk=match.pk).status
        if entered.status_code in (200, 201):
            # the entry went first: the redraw was refused and the match stands
            assert isinstance(redrawn, BoxcarsError), (round_number, redrawn)
            assert redrawn.code == "bracket_started"
            assert status != MatchStatus.VOID
            outcomes.add("entry first")
        else:
            # the redraw went first: the match is void, the entry refused
            assert entered.status_code == 409, entered.json()
            assert entered.json()["code"] == "match_closed"
            assert isinstance(redrawn, dict), redrawn
            assert status == MatchStatus.VOID
            outcomes.add("redraw first")
    assert outcomes  # the race ran; which side wins each round is up to the scheduler


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_what_a_score_entry_costs_in_a_tournament(
    make_event, director, django_assert_max_num_queries
):
    """A game of a tournament match: the same 8 queries as any match while it is not a
    result (the bracket listener does not run); the game that finishes the match is 29:
    the bracket listener locks the tournament, records the pairing's winner, moves the
    winner on and bumps the tournament (each with its audit row), and the outbox event.
    """

    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    _, token = token_for(director)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    url = f"/api/v1/matches/{match.pk}/games/"

    def enter(number):
        return client.post(
            url,
            {"winner": match.player1_id, "number": number},
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )

    with django_assert_max_num_queries(8):
        first = enter(1)
    assert first.status_code == 201, first.json()
    for number in range(2, match.length):
        assert enter(number).status_code == 201
    with CaptureQueriesContext(connection) as finishing:
        last = enter(match.length)
    assert last.status_code == 201 and last.json()["status"] == "finished", last.json()
    assert pairing(event, "main-r2-m1").entry1_id is not None
    # the request's own queries end with its COMMIT (here the outbox task runs eagerly
    # after it; in production a worker does)
    sqls = [q["sql"] for q in finishing.captured_queries]
    assert (
        len(sqls[: sqls.index("COMMIT") + 1]) <= 29
    )  # +1: the calls listener reads whether the round is complete; +1: the clock guard
    # reads the round's clock policy (only on the game that ends the match)
