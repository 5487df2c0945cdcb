"""The clock's truth is the server's (issue #25, item 2).

The server notes by its own clock when each side's time starts; a turn is reported
only by the player whose turn ends (or a director) and charged as the server saw it,
within a tolerance for the network; a flag falls only when the server's own time of
the turn has spent the delay and the reserve, whoever reports or claims it; and a
director may award a flag fall with a reason, which the audit keeps. The server's time
is moved by the test (``server_clock``), never slept for.
"""

from __future__ import annotations

import pytest

from games.models import ClockTurn, Match, MatchClock, MatchStatus
from games.rules.clock import NETWORK_TOLERANCE_MS

pytestmark = pytest.mark.django_db

SECOND = 1000
MINUTE = 60 * SECOND


def url(match: Match, tail: str = "") -> str:
    return f"/api/v1/matches/{match.pk}/clock/{tail}"


def post(client, match, tail, **body):
    return client.post(url(match, tail), body, format="json")


def snapshot(match: Match) -> tuple:
    clock = MatchClock.objects.get(match=match)
    match.refresh_from_db()
    return (
        clock.version,
        clock.status,
        clock.reserve1_ms,
        clock.reserve2_ms,
        clock.last_seq,
        ClockTurn.objects.filter(clock=clock).count(),
        match.status,
        match.version,
    )


@pytest.fixture
def clocked(client_for, alice_user, match, server_clock):
    """A USBGF clock on a 5-point match (12 s delay, 10 minutes each)."""
    assert post(client_for(alice_user), match, "", preset="usbgf").status_code == 201
    return match


def test_a_forged_flag_fall_is_refused_and_changes_nothing(
    client_for, alice_user, clocked, server_clock
):
    """The issue's reproduction: Alice starts Bob's time and, 0.07 s later, reports
    that Bob's flag fell after 612 s."""
    alice = client_for(alice_user)
    assert post(alice, clocked, "turns/", seq=1, side=1, used_ms=0).status_code == 200
    server_clock.advance(70)
    before = snapshot(clocked)
    forged = post(alice, clocked, "flag/", seq=2, side=2, used_ms=612_000)
    assert forged.status_code == 409, forged.content
    assert forged.json()["code"] == "clock_not_expired"
    assert snapshot(clocked) == before
    assert clocked.status == MatchStatus.SCHEDULED


def test_a_flag_the_server_saw_fall_is_accepted_as_the_opponents_claim(
    client_for, alice_user, clocked, alice, server_clock
):
    alice = client_for(alice_user)
    post(alice, clocked, "turns/", seq=1, side=1, used_ms=0)  # Bob's time runs
    server_clock.advance(12 * SECOND + 10 * MINUTE - 1)
    early = post(alice, clocked, "flag/", seq=2, side=2, used_ms=0)
    assert early.status_code == 409 and early.json()["code"] == "clock_not_expired"
    server_clock.advance(1)
    claimed = post(alice, clocked, "flag/", seq=2, side=2, used_ms=0)
    assert claimed.status_code == 200, claimed.content
    assert claimed.json()["clock"]["flagged"] == 2
    clocked.refresh_from_db()
    assert clocked.status == MatchStatus.FORFEIT
    assert clocked.winner.user.username == "alice"


def test_only_the_player_whose_turn_ends_reports_it(
    client_for, alice_user, bob_user, director, clocked, server_clock
):
    alice = client_for(alice_user)
    post(alice, clocked, "turns/", seq=1, side=1, used_ms=0)  # Bob's time runs
    server_clock.advance(5 * SECOND)
    before = snapshot(clocked)
    refused = post(alice, clocked, "turns/", seq=2, side=2, used_ms=1)
    assert refused.status_code == 403, refused.content
    assert refused.json()["code"] == "turn_not_yours"
    assert snapshot(clocked) == before
    assert (
        post(client_for(bob_user), clocked, "turns/", seq=2, side=2, used_ms=5 * SECOND).status_code
        == 200
    )
    server_clock.advance(SECOND)
    # a director may report for the table
    assert (
        post(client_for(director), clocked, "turns/", seq=3, side=1, used_ms=SECOND).status_code
        == 200
    )


def test_a_report_longer_than_the_server_saw_is_refused(
    client_for, bob_user, alice_user, clocked, server_clock
):
    post(client_for(alice_user), clocked, "turns/", seq=1, side=1, used_ms=0)
    server_clock.advance(20 * SECOND)
    before = snapshot(clocked)
    too_long = post(
        client_for(bob_user),
        clocked,
        "turns/",
        seq=2,
        side=2,
        used_ms=20 * SECOND + NETWORK_TOLERANCE_MS + 1,
    )
    assert too_long.status_code == 400, too_long.content
    assert too_long.json()["code"] == "used_ms_ahead_of_server"
    assert too_long.json()["field"] == "used_ms"
    assert snapshot(clocked) == before
    within = post(
        client_for(bob_user),
        clocked,
        "turns/",
        seq=2,
        side=2,
        used_ms=20 * SECOND + NETWORK_TOLERANCE_MS,
    )
    assert within.status_code == 200
    assert within.json()["clock"]["reserve_ms"][1] == 10 * MINUTE - (
        8 * SECOND + NETWORK_TOLERANCE_MS
    )


def test_a_report_shorter_than_the_server_saw_is_charged_the_servers_time(
    client_for, bob_user, alice_user, clocked, server_clock
):
    post(client_for(alice_user), clocked, "turns/", seq=1, side=1, used_ms=0)
    server_clock.advance(2 * MINUTE)
    response = post(client_for(bob_user), clocked, "turns/", seq=2, side=2, used_ms=0)
    assert response.status_code == 200, response.content
    charged = 2 * MINUTE - NETWORK_TOLERANCE_MS - 12 * SECOND
    assert response.json()["clock"]["reserve_ms"] == [10 * MINUTE, 10 * MINUTE - charged]


def test_paused_time_is_not_charged(client_for, alice_user, bob_user, clocked, server_clock):
    post(client_for(alice_user), clocked, "turns/", seq=1, side=1, used_ms=0)
    server_clock.advance(20 * SECOND)
    post(client_for(alice_user), clocked, "pause/")
    server_clock.advance(30 * MINUTE)  # the director is called; nobody's time runs
    read = client_for(None).get(url(clocked)).json()["clock"]
    assert read["elapsed_ms"] == 20 * SECOND
    post(client_for(bob_user), clocked, "resume/")
    server_clock.advance(10 * SECOND)
    assert client_for(None).get(url(clocked)).json()["clock"]["elapsed_ms"] == 30 * SECOND
    flag = post(client_for(alice_user), clocked, "flag/", seq=2, side=2)
    assert flag.status_code == 409 and flag.json()["code"] == "clock_not_expired"
    done = post(client_for(bob_user), clocked, "turns/", seq=2, side=2, used_ms=30 * SECOND)
    assert done.json()["clock"]["reserve_ms"][1] == 10 * MINUTE - 18 * SECOND


def test_a_director_awards_a_flag_fall_with_a_reason(
    client_for, alice_user, bob_user, director, clocked, server_clock
):
    post(client_for(alice_user), clocked, "turns/", seq=1, side=1, used_ms=0)
    server_clock.advance(5 * SECOND)
    refused = post(client_for(alice_user), clocked, "flag/", seq=2, side=2, reason="he is slow")
    assert refused.status_code == 403 and refused.json()["code"] == "directors_only"
    awarded = post(
        client_for(director), clocked, "flag/", seq=2, side=2, reason="the phone died; table clock"
    )
    assert awarded.status_code == 200, awarded.content
    assert awarded.json()["clock"]["flagged"] == 2
    log = ClockTurn.objects.get(clock__match=clocked, seq=2)
    assert log.award_reason == "the phone died; table clock"
    assert log.reported_by_user == director
    assert log.server_ms == 5 * SECOND
    clocked.refresh_from_db()
    assert clocked.status == MatchStatus.FORFEIT
    reason = clocked.history.first().history_change_reason
    assert reason == "flag awarded by a director: the phone died; table clock"


def test_every_answer_carries_the_servers_figures_the_page_shows(
    client_for, alice_user, clocked, server_clock
):
    """The page (static/js/clock.js) computes no charge: it shows the answer's
    ``delay_left_ms`` and ``remaining_ms``, the server's reckoning of this moment, and
    counts down from them. 20 s into Bob's turn, anyone reading the clock is told
    Bob's delay is spent and 8 s are gone from his reserve."""
    alice = client_for(alice_user)
    answer = post(alice, clocked, "turns/", seq=1, side=1, used_ms=0).json()["clock"]
    assert (answer["delay_left_ms"], answer["remaining_ms"]) == (12 * SECOND, [600_000] * 2)
    server_clock.advance(5 * SECOND)
    read = client_for(alice_user).get(url(clocked)).json()["clock"]
    assert read["elapsed_ms"] == 5 * SECOND
    assert (read["delay_left_ms"], read["remaining_ms"]) == (7 * SECOND, [600_000, 600_000])
    server_clock.advance(15 * SECOND)
    read = client_for(alice_user).get(url(clocked)).json()["clock"]
    assert (read["delay_left_ms"], read["remaining_ms"]) == (0, [600_000, 592_000])
    # stored reserves are untouched until the turn ends: the figures are a reading
    clock = MatchClock.objects.get(match=clocked)
    assert (clock.reserve1_ms, clock.reserve2_ms) == (600_000, 600_000)
