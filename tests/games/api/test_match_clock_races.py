"""Real concurrency on PostgreSQL for the match clock: the match and clock locks
serialise reports, so a turn resent at the same instant counts once, and a flag fall
racing a turn of the other side never leaves both applied."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import ClockTurn, MatchClock, MatchStatus
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _started(match, user):
    url = f"/api/v1/matches/{match.pk}/clock/"
    body = {"preset": "custom", "delay_ms": 1000, "reserve_ms": 2000}
    assert _client(user).post(url, body, format="json").status_code == 201
    first = {"seq": 1, "side": 2, "used_ms": 0}  # Alice's time runs
    assert _client(user).post(url + "turns/", first, format="json").status_code == 200
    return url


@pytest.mark.parametrize("attempt", range(2))
def test_the_same_turn_sent_twice_at_once_counts_once(
    attempt, match, alice_user, director, server_clock
):
    url = _started(match, alice_user)
    server_clock.advance(1500)
    turn = {"seq": 2, "side": 1, "used_ms": 1500}
    responses = race(
        [
            lambda: _client(alice_user).post(url + "turns/", turn, format="json"),
            # the same report from the director's device: only Alice or a director
            # may report the end of Alice's turn
            lambda: _client(director).post(url + "turns/", turn, format="json"),
        ]
    )
    assert sorted(r.status_code for r in responses) == [200, 200]
    clock = MatchClock.objects.get(match=match)
    assert clock.reserve1_ms == 1500
    assert ClockTurn.objects.filter(clock=clock).count() == 2


def test_a_flag_and_a_turn_at_once_apply_one(match, alice_user, bob_user, server_clock):
    url = _started(match, alice_user)
    server_clock.advance(3000)  # by the server's clock Alice's time has just run out
    responses = race(
        [
            lambda: _client(alice_user).post(
                url + "turns/", {"seq": 2, "side": 1, "used_ms": 1200}, format="json"
            ),
            lambda: _client(bob_user).post(
                url + "flag/", {"seq": 2, "side": 1, "used_ms": 3000}, format="json"
            ),
        ]
    )
    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 409], [r.json() for r in responses]
    clock = MatchClock.objects.get(match=match)
    match.refresh_from_db()
    if clock.status == "flagged":
        assert match.status == MatchStatus.FORFEIT
    else:
        assert match.status == MatchStatus.SCHEDULED and clock.reserve1_ms == 1800
