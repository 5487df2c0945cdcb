"""Many results of one stage at once never void or move a called match whose players
did not change (issue 41, item 1), on PostgreSQL with real threads.

The weekend open: a no-show's forfeit made a consolation walkover; the slot after it
got its match from the fast path of a later result, and was called. Then six clients
entered main results at once while the director awarded another no-show's match by
forfeit (the whole re-derivation under the tournament's lock, beside the results'
fast paths). The called match was voided "because the players changed" and replaced
at another table under the same two players. Here: eleven results and a forfeit at
the same instant, a result refused with ``tournament_changed`` retried as a client
does; the called match keeps its row, its table and its players, and no match of the
event is voided.
"""

from __future__ import annotations

import functools

import pytest

from games.models import Match, MatchStatus
from games.rules.errors import ConflictError
from tests.races import race
from tournaments.models import Entry, Pairing
from tournaments.services import calls
from tournaments.services import results as result_services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _win_by_better_seed(win, event, key: str):
    slot = Pairing.objects.select_related("entry1", "entry2").get(tournament=event, key=key)
    return win(event, key, min(slot.entry1.seed, slot.entry2.seed))


def _retrying(call):
    """A client's retry of a result refused because the bracket moved under it."""
    for _ in range(5):
        try:
            return call()
        except ConflictError as exc:
            if exc.code != "tournament_changed":
                raise
    return call()


def test_results_and_a_forfeit_at_once_leave_a_called_match_alone(make_event, win, actor):
    event = make_event(32, consolation_from=[1])
    seed = {e.seed: e.pk for e in Entry.objects.filter(tournament=event)}
    result_services.forfeit_pairing(  # seed 32 is a no-show: a walkover in the consolation
        actor=actor, tournament_id=event.pk, key="main-r1-m1", winner_entry_id=seed[1]
    )
    for key in ("main-r1-m2", "main-r1-m3", "main-r1-m4"):
        _win_by_better_seed(win, event, key)
    _win_by_better_seed(win, event, "consolation-r1-m2")
    slot = Pairing.objects.select_related("match").get(tournament=event, key="consolation-r2-m1")
    assert slot.match is not None and not slot.stale
    calls.call_round(actor=actor, tournament_id=event.pk, round_number=2, stage="consolation")
    called = Match.objects.get(pk=slot.match_id)
    players, table = {called.player1_id, called.player2_id}, called.table
    assert table is not None

    results = [
        functools.partial(_retrying, functools.partial(_win_by_better_seed, win, event, key))
        for key in [f"main-r1-m{n}" for n in range(5, 17) if n != 9]
    ]
    forfeit = functools.partial(  # another no-show, awarded while the results come in
        result_services.forfeit_pairing,
        actor=actor,
        tournament_id=event.pk,
        key="main-r1-m9",
        winner_entry_id=Pairing.objects.get(tournament=event, key="main-r1-m9").entry1_id,
    )
    outcome = race([*results, forfeit], capture_errors=True)

    assert not [r for r in outcome if isinstance(r, Exception)], outcome
    slot.refresh_from_db()
    assert slot.match_id == called.pk and slot.replaced_matches == [] and not slot.stale
    called.refresh_from_db()
    assert called.status == MatchStatus.SCHEDULED
    assert {called.player1_id, called.player2_id} == players
    assert called.table == table
    assert not Match.objects.filter(club=event.club, status=MatchStatus.VOID).exists()
    assert not Pairing.objects.filter(tournament=event).exclude(replaced_matches=[]).exists()
    # every result went in: the main's second round is full
    assert (
        Pairing.objects.filter(
            tournament=event, key__startswith="main-r2-", match__isnull=False
        ).count()
        == 8
    )
