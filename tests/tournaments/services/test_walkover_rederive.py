"""The bracket's whole re-derivation leaves a match alone whose players did not change
(issue 41, item 1), after a walkover.

A no-show's forfeit in the main makes their consolation slot a walkover, stored
without a match. The slot after it gets its match from the fast path of a later
result. The next whole re-derivation (any forfeit, withdrawal or correction) used to
compare that match with an intermediate pass, before the walkover was put back in, and
voided and replaced it: a called match moved to another table under its players.
"""

from __future__ import annotations

import pytest

from games.models import Match, MatchStatus
from tournaments.models import Entry, Pairing
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db


def test_a_match_after_a_walkover_survives_the_next_rederivation(make_event, win, actor):
    event = make_event(16, consolation_from=[1])
    seed = {e.seed: e.pk for e in Entry.objects.filter(tournament=event)}
    # seed 16 does not turn up: seed 9 (loser of 8-9) walks over in the consolation
    result_services.forfeit_pairing(
        actor=actor, tournament_id=event.pk, key="main-r1-m1", winner_entry_id=seed[1]
    )
    win(event, "main-r1-m2", 8)
    win(event, "main-r1-m3", 5)
    win(event, "main-r1-m4", 4)
    win(event, "consolation-r1-m2", 12)  # the fast path: 9 v 12 in consolation round 2
    slot = Pairing.objects.get(tournament=event, key="consolation-r2-m1")
    assert slot.match_id is not None and not slot.stale
    called = slot.match_id

    # another no-show: the whole bracket is derived again
    result_services.forfeit_pairing(
        actor=actor, tournament_id=event.pk, key="main-r1-m5", winner_entry_id=seed[3]
    )

    slot.refresh_from_db()
    assert slot.match_id == called and slot.replaced_matches == []
    assert not slot.stale and slot.stale_reason == ""
    assert Match.objects.get(pk=called).status == MatchStatus.SCHEDULED
