"""Results of different matches of one event never wait on each other (issue 26, item 2).

A new result locks its match, holds the tournament ``FOR KEY SHARE`` (shared with every
other result) and locks only the bracket slots it reads and writes; the version bump,
tables and round statuses come in a short follow-up at the end of the transaction. On
PostgreSQL with real threads:

* every first-round match of an event with a consolation finished at once: all succeed,
  no deadlock, exactly the next matches the bracket asks for, the round complete once;
* a lock-wait probe (``pg_stat_activity``, not timing): while one result's transaction
  is held open after its advancement, a result of a match feeding *another* next match
  commits without ever waiting on a lock; one feeding the *same* next match waits for
  that slot (the probe sees it), then both make one next match.
"""

from __future__ import annotations

import functools
import threading

import pytest
from django.conf import settings
from django.db import connection, connections

from core.listeners import ResultChange, listeners_replaced, result_listeners
from games.models import Match, MatchStatus
from games.services import score_entry
from tests.races import race, waiting_on_a_lock
from tests.tournaments.conftest import pairing
from tournaments.models import Pairing, PairingStatus, Round, RoundStatus

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _finish(actor, match_id: int):
    """Player 1 wins on a final score, in its own transaction (the service's)."""
    match = Match.objects.get(pk=match_id)
    return score_entry.record_final_score(actor=actor, match_id=match_id, score=(match.length, 0))


def test_every_first_round_result_at_once_makes_the_right_next_matches(make_event, actor):
    event = make_event(16, consolation_from=[1])
    first = list(
        Pairing.objects.filter(tournament=event, key__startswith="main-r1-").select_related("match")
    )
    assert len(first) == 8 and all(p.match_id for p in first)
    before = Match.objects.filter(tournament_pairing__tournament=event).count()
    version = event.version

    calls = [functools.partial(_finish, actor, p.match_id) for p in first]
    results = race(calls, capture_errors=True)

    assert not [r for r in results if isinstance(r, Exception)], results
    # every winner is in its next main slot and every loser in its consolation slot
    by_key = {p.key: p for p in Pairing.objects.filter(tournament=event).select_related("match")}
    for p in first:
        p.refresh_from_db()
        assert p.status == PairingStatus.PLAYED
        loser = p.entry2_id if p.winner_id == p.entry1_id else p.entry1_id
        assert p.winner_id in (by_key[p.winner_to].entry1_id, by_key[p.winner_to].entry2_id)
        assert loser in (by_key[p.loser_to].entry1_id, by_key[p.loser_to].entry2_id)
    # exactly one match per slot now ready: 4 in the main round 2, 4 in the consolation
    ready = [p for p in by_key.values() if p.status == PairingStatus.READY]
    assert len(ready) == 8 and all(p.match_id for p in ready)
    for p in ready:
        assert {p.match.player1_id, p.match.player2_id} == {
            p.entry1.player_id,
            p.entry2.player_id,
        }
    after = Match.objects.filter(tournament_pairing__tournament=event).count()
    assert after - before == 8
    assert len({p.match.table for p in ready}) == 8  # no table handed out twice
    main_r1 = Round.objects.get(stage__tournament=event, stage__kind="main", number=1)
    assert main_r1.status == RoundStatus.COMPLETE and main_r1.completed_at is not None
    event.refresh_from_db()
    # every result's follow-up settled, or one that began after it committed did: the
    # version moved (a queue of follow-ups coalesces: not necessarily one bump each)
    assert event.version > version


def _held_after_advancement(actor, held_match: int, other_match: int) -> dict:
    """Finish ``held_match`` in one thread and keep its transaction open after its
    advancement (before the follow-up); meanwhile finish ``other_match`` in another
    thread and watch whether it ever waits on a lock. Then let the first one go."""
    reached, release = threading.Event(), threading.Event()
    follow_up = dict(result_listeners())["tournaments.follow_up"]

    def hold_then_follow_up(change: ResultChange) -> None:
        if change.match_id == held_match:
            reached.set()
            release.wait()
        follow_up(change)

    outcome: dict = {"waited": False}

    def first() -> None:
        try:
            outcome["first"] = _finish(actor, held_match)
        except Exception as exc:  # reported by the assertions below
            outcome["first"] = exc
        finally:
            reached.set()
            connection.close()

    def second() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                outcome["pid"] = cursor.fetchone()[0]
            pid_known.set()
            outcome["second"] = _finish(actor, other_match)
        except Exception as exc:
            outcome["second"] = exc
        finally:
            pid_known.set()
            connection.close()

    pid_known = threading.Event()
    with listeners_replaced(**{"tournaments.follow_up": hold_then_follow_up}):
        one = threading.Thread(target=first)
        one.start()
        reached.wait()
        two = threading.Thread(target=second)
        two.start()
        pid_known.wait()
        while two.is_alive():  # the probe: the other result either commits or waits on a lock
            if "pid" in outcome and waiting_on_a_lock(outcome["pid"]):
                outcome["waited"] = True
                break
            two.join(0.01)
        outcome["second_done_while_held"] = not two.is_alive()
        release.set()
        one.join()
        two.join()
    connections["default"].close()
    return outcome


def test_a_result_never_waits_for_another_matchs_result(make_event, actor):
    event = make_event(8, consolation_from=[1])
    held = pairing(event, "main-r1-m1").match
    other = pairing(event, "main-r1-m3").match  # feeds main-r2-m2 and another consolation slot

    outcome = _held_after_advancement(actor, held.pk, other.pk)

    assert not outcome["waited"], "the second result waited on a lock the first one held"
    assert outcome["second_done_while_held"]
    assert isinstance(outcome["first"], Match) and isinstance(outcome["second"], Match)
    assert Match.objects.get(pk=held.pk).status == MatchStatus.FINISHED
    assert Match.objects.get(pk=other.pk).status == MatchStatus.FINISHED
    assert pairing(event, "main-r2-m1").entry1_id is not None
    assert pairing(event, "main-r2-m2").entry1_id is not None


def test_a_result_feeding_the_same_next_match_takes_its_turn_on_that_slot(make_event, actor):
    """The probe's other side: the same next slot is the one thing two results share."""
    event = make_event(8, consolation_from=[1])
    held = pairing(event, "main-r1-m1").match
    other = pairing(event, "main-r1-m2").match  # the same next match: main-r2-m1

    outcome = _held_after_advancement(actor, held.pk, other.pk)

    assert outcome["waited"]
    assert isinstance(outcome["first"], Match) and isinstance(outcome["second"], Match)
    next_slot = pairing(event, "main-r2-m1")
    assert next_slot.status == PairingStatus.READY and next_slot.match is not None
    assert {next_slot.match.player1_id, next_slot.match.player2_id} == {
        held.player1_id,
        other.player1_id,
    }
    assert (
        Match.objects.filter(
            tournament_pairing__tournament=event,
            player1_id__in=[held.player1_id, other.player1_id],
            player2_id__in=[held.player1_id, other.player1_id],
        ).count()
        == 1
    )


def test_with_a_worker_results_leave_the_settling_to_it_and_a_burst_settles_once(
    make_event, actor, monkeypatch
):
    """With a worker (tasks not eager) a result commits without taking the event's turn:
    it writes a ``tournament.settle`` outbox event, or joins one still waiting for the
    worker (so there are at most as many as results). The worker's first handler takes over
    every such event already committed (its run reads after them), so a round's burst
    of results settles once: the round complete, every new match with its own table,
    the version moved once; the others' messages then find their event handled."""
    from config.celery import app
    from core import enqueue, outbox
    from core.models import DomainEvent
    from tournaments.event_kinds import SETTLE

    event = make_event(16, consolation_from=[1])
    first = list(Pairing.objects.filter(tournament=event, key__startswith="main-r1-"))
    version = event.version
    sent: list[int] = []
    countdowns: dict[int, float | None] = {}
    app.conf.task_always_eager = False  # the conftest's fixture puts it back

    def send_event(pk, **kw):
        sent.append(pk)
        countdowns[pk] = kw.get("countdown")

    monkeypatch.setattr(enqueue, "send_event", send_event)

    results = race([functools.partial(_finish, actor, p.match_id) for p in first])
    assert not [r for r in results if isinstance(r, Exception)], results

    settles = DomainEvent.objects.filter(kind=SETTLE, payload__tournament_id=event.pk)
    settle_ids = sorted(settles.values_list("pk", flat=True))
    # one per result at most: a result joins an event still waiting for the worker
    assert 1 <= len(settle_ids) <= 8 and set(settle_ids) <= set(sent)  # sent on commit
    # each due SETTLE_DELAY_SECONDS later (the results meanwhile join it), its lease
    # past that, so the sweep does not send it again meanwhile
    assert {countdowns[pk] for pk in settle_ids} == {settings.SETTLE_DELAY_SECONDS} != {0}
    for created, lease in settles.values_list("created_at", "lease_until"):
        assert (lease - created).total_seconds() >= settings.SETTLE_DELAY_SECONDS
    main_r1 = Round.objects.get(stage__tournament=event, stage__kind="main", number=1)
    assert main_r1.status == RoundStatus.PLAYING  # nobody settled in the request
    event.refresh_from_db()
    assert event.version == version

    outcomes = [outbox.handle_event(event_id=pk) for pk in settle_ids]  # the worker
    assert outcomes == ["handled"] + ["already handled"] * (len(settle_ids) - 1)
    assert settles.filter(handled_at__isnull=True).count() == 0
    main_r1.refresh_from_db()
    assert main_r1.status == RoundStatus.COMPLETE and main_r1.completed_at is not None
    event.refresh_from_db()
    assert event.version == version + 1  # one settling for the burst
    ready = Pairing.objects.filter(tournament=event, status=PairingStatus.READY)
    tables = [p.match.table for p in ready.select_related("match")]
    assert len(tables) == 8 and None not in tables and len(set(tables)) == 8


def test_a_settle_event_of_an_event_deleted_meanwhile_does_nothing(make_event):
    """The worker's settling of an event deleted after its result: nothing to lock, no
    error (the outbox marks it handled rather than retrying it forever)."""
    from tournaments.services.results import settle_deferred

    event = make_event(4)
    version = event.version
    settle_deferred({"tournament_id": event.pk + 10_000, "club_id": event.club_id})  # no error
    event.refresh_from_db()
    assert event.version == version  # the event that exists is untouched
