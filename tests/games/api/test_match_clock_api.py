"""The match clock API: start with a preset, report turns (idempotent), pause and
resume, and a flag fall that ends the match as the event's setting says."""

from __future__ import annotations

import pytest

from games import score_links
from games.models import Match, MatchClock, MatchStatus
from games.services.actors import actor_for_user
from games.services.match_records import GameInput
from games.services.score_entry import record_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _server_time(server_clock):
    """The server's clock stands still unless a test moves it (docs/clocks.md: its
    reckoning is the truth)."""


SECOND = 1000
MINUTE = 60 * SECOND


def url(match: Match, tail: str = "") -> str:
    return f"/api/v1/matches/{match.pk}/clock/{tail}"


def start(client, match, **body):
    return client.post(url(match), body or {"preset": "usbgf"}, format="json")


def turn(client, match, seq, side, used_ms, tail="turns/", **headers):
    return client.post(
        url(match, tail), {"seq": seq, "side": side, "used_ms": used_ms}, format="json", **headers
    )


def test_usbgf_clock_starts_with_two_minutes_a_point(client_for, alice_user, match):
    response = start(client_for(alice_user), match)
    assert response.status_code == 201, response.content
    clock = response.json()["clock"]
    assert clock["delay_ms"] == 12 * SECOND
    assert clock["reserve_ms"] == [10 * MINUTE, 10 * MINUTE]
    assert clock["status"] == "ready"
    assert response.json()["policy"]["policy"] == "allowed"
    assert response["ETag"] == '"1"'


def test_clock_brought_in_mid_match_counts_points_scored_by_both(
    client_for, director, alice, bob, match
):
    actor = actor_for_user(director)
    for winner in (alice, bob, alice):
        record_game(actor=actor, match_id=match.pk, game=GameInput(winner_id=winner.pk))
    response = start(client_for(director), match)
    assert response.status_code == 201, response.content
    # 5-point match at 2-1: 10 minutes less 3
    assert response.json()["clock"]["reserve_ms"] == [7 * MINUTE, 7 * MINUTE]
    assert response.json()["clock"]["scored_at_start"] == 3


def test_turns_charge_only_beyond_the_delay(client_for, alice_user, bob_user, match, server_clock):
    start(client_for(alice_user), match)
    assert turn(client_for(bob_user), match, 1, 2, 0).status_code == 200  # Alice's time starts
    server_clock.advance(20 * SECOND)
    response = turn(client_for(alice_user), match, 2, 1, 20 * SECOND)
    assert response.status_code == 200, response.content
    clock = response.json()["clock"]
    assert clock["reserve_ms"] == [10 * MINUTE - 8 * SECOND, 10 * MINUTE]
    assert clock["running"] == 2
    assert clock["last_seq"] == 2


def test_a_resent_turn_is_answered_without_charging_twice(
    client_for, alice_user, match, server_clock
):
    client = client_for(alice_user)
    start(client, match)
    turn(client, match, 1, 2, 0)
    server_clock.advance(30 * SECOND)
    first = turn(client, match, 2, 1, 30 * SECOND)
    again = turn(client, match, 2, 1, 30 * SECOND)
    assert again.status_code == 200
    assert again.json()["clock"] == first.json()["clock"]
    assert MatchClock.objects.get(match=match).turn_log.count() == 2


def test_an_idempotency_key_replays_the_first_answer(client_for, alice_user, match, server_clock):
    client = client_for(alice_user)
    start(client, match)
    turn(client, match, 1, 2, 0)
    server_clock.advance(30 * SECOND)
    first = turn(client, match, 2, 1, 30 * SECOND, HTTP_IDEMPOTENCY_KEY="t-2")
    again = turn(client, match, 2, 1, 30 * SECOND, HTTP_IDEMPOTENCY_KEY="t-2")
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"


def test_a_turn_under_a_used_seq_with_other_times_is_a_conflict(client_for, alice_user, match):
    client = client_for(alice_user)
    start(client, match)
    turn(client, match, 1, 2, 0)
    response = turn(client, match, 1, 1, 5)
    assert response.status_code == 409
    assert response.json()["code"] == "seq_conflict"
    assert response.json()["field"] == "seq"


def test_a_seq_that_skips_one_is_a_conflict(client_for, alice_user, match):
    client = client_for(alice_user)
    start(client, match)
    response = turn(client, match, 3, 2, 0)
    assert response.status_code == 409 and response.json()["code"] == "seq_gap"


def test_a_turn_longer_than_the_server_saw_is_refused(client_for, alice_user, match, server_clock):
    client = client_for(alice_user)
    start(client, match, preset="custom", delay_ms=SECOND, reserve_ms=5 * SECOND)
    turn(client, match, 1, 2, 0)
    server_clock.advance(3 * SECOND)
    response = turn(client, match, 2, 1, 60 * SECOND)
    assert response.status_code == 400
    assert response.json() == {
        "code": "used_ms_ahead_of_server",
        "detail": response.json()["detail"],
        "field": "used_ms",
    }
    assert MatchClock.objects.get(match=match).last_seq == 1


def test_a_turn_the_server_saw_run_out_is_a_flag_fall(client_for, alice_user, match, server_clock):
    client = client_for(alice_user)
    start(client, match, preset="custom", delay_ms=SECOND, reserve_ms=5 * SECOND)
    turn(client, match, 1, 2, 0)
    server_clock.advance(60 * SECOND)
    response = turn(client, match, 2, 1, 60 * SECOND)
    assert response.status_code == 200, response.content
    assert response.json()["clock"]["status"] == "flagged"
    assert response.json()["clock"]["flagged"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seq": 0, "side": 1, "used_ms": 0}, "seq"),
        ({"seq": 1, "side": 3, "used_ms": 0}, "side"),
        ({"seq": 1, "side": 1, "used_ms": -5}, "used_ms"),
    ],
)
def test_invalid_turns_name_their_field(client_for, alice_user, match, body, field):
    client = client_for(alice_user)
    start(client, match)
    response = client.post(url(match, "turns/"), body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_custom_clock_needs_a_reserve(client_for, alice_user, match):
    response = start(client_for(alice_user), match, preset="custom", delay_ms=0)
    assert response.status_code == 400
    assert response.json()["code"] == "custom_needs_settings"
    assert not MatchClock.objects.filter(match=match).exists()


def test_a_second_clock_is_refused(client_for, alice_user, match):
    start(client_for(alice_user), match)
    response = start(client_for(alice_user), match)
    assert response.status_code == 409 and response.json()["code"] == "clock_already_started"


def test_stale_if_match_is_412(client_for, alice_user, match):
    client = client_for(alice_user)
    start(client, match)
    turn(client, match, 1, 2, 0)
    response = client.post(url(match, "pause/"), HTTP_IF_MATCH='"1"')
    assert response.status_code == 412


def test_pause_and_resume_by_either_player_or_the_director(
    client_for, alice_user, bob_user, director, match
):
    start(client_for(alice_user), match)
    turn(client_for(alice_user), match, 1, 2, 0)
    paused = client_for(bob_user).post(url(match, "pause/"))
    assert paused.status_code == 200 and paused.json()["clock"]["status"] == "paused"
    refused = turn(client_for(alice_user), match, 2, 1, 0)
    assert refused.status_code == 409 and refused.json()["code"] == "clock_not_running"
    resumed = client_for(director).post(url(match, "resume/"))
    assert resumed.json()["clock"]["status"] == "running"
    assert resumed.json()["clock"]["running"] == 1


def test_others_read_but_do_not_write(client_for, make_user, match, alice_user):
    start(client_for(alice_user), match)
    stranger = make_user("stranger")
    assert client_for(None).get(url(match)).status_code == 200
    response = client_for(stranger).post(url(match, "pause/"))
    assert response.status_code == 403
    assert client_for(None).post(url(match, "pause/")).status_code == 401


def test_a_score_link_runs_the_clock(api_client, alice, match):
    token = score_links.make_token(match, alice)
    response = api_client.post(
        url(match), {"preset": "usbgf"}, format="json", HTTP_X_SCORE_LINK=token
    )
    assert response.status_code == 201, response.content


def test_flag_fall_loses_the_match_by_forfeit(client_for, alice_user, bob, match, server_clock):
    client = client_for(alice_user)
    start(client, match, preset="custom", delay_ms=SECOND, reserve_ms=2 * SECOND)
    turn(client, match, 1, 2, 0)
    server_clock.advance(500)
    early = turn(client, match, 2, 1, 500, tail="flag/")
    assert early.status_code == 409 and early.json()["code"] == "clock_not_expired"
    server_clock.advance(2500)
    response = turn(client, match, 2, 1, 3 * SECOND, tail="flag/")
    assert response.status_code == 200, response.content
    assert response.json()["clock"]["status"] == "flagged"
    assert response.json()["clock"]["flagged"] == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.FORFEIT
    assert match.winner_id == bob.pk
    assert match.history.first().history_change_reason == "flag"
    detail = client_for(None).get(f"/api/v1/matches/{match.pk}/").json()
    assert detail["clock"]["reserve_ms"] == [0, 2 * SECOND]
    assert detail["clock"]["flagged"] == 1


def test_overtime_first_gives_the_flagged_player_more_time(
    client_for, alice_user, match, server_clock
):
    client = client_for(alice_user)
    start(
        client,
        match,
        preset="custom",
        delay_ms=SECOND,
        reserve_ms=2 * SECOND,
        flag_rule="overtime",
        overtime_ms=MINUTE,
    )
    turn(client, match, 1, 2, 0)
    server_clock.advance(3 * SECOND)
    response = turn(client, match, 2, 1, 3 * SECOND, tail="flag/")
    clock = response.json()["clock"]
    assert clock["status"] == "paused" and clock["reserve_ms"][0] == MINUTE
    assert clock["overtime_used"] == [True, False]
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED


def test_an_event_without_clocks_refuses_one(client_for, alice_user, match, monkeypatch):
    from games import clock_policies

    monkeypatch.setitem(
        clock_policies._providers,
        "test",
        lambda _id: clock_policies.MatchClockPolicy(policy="none", event="Club night"),
    )
    response = start(client_for(alice_user), match)
    assert response.status_code == 409 and response.json()["code"] == "clocks_not_used"
