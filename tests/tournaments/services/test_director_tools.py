"""Director tools: corrections re-derive the bracket, late entries, forfeits, swaps."""

from __future__ import annotations

import pytest

from games.models import MatchStatus
from games.rules.errors import ConflictError
from tests.tournaments.conftest import pairing
from tournaments.models import PairingStatus
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services
from tournaments.services import rounds as round_services
from tournaments.services.brackets import bracket_champion

pytestmark = pytest.mark.django_db


def test_a_result_moves_winner_and_loser_on_in_the_same_transaction(make_event, win):
    event = make_event(4, consolation_from=[1])
    win(event, "main-r1-m1", 1)  # seed 1 beats seed 4
    final = pairing(event, "main-r2-m1")
    assert final.entry1.seed == 1 and final.entry2 is None
    assert final.status == PairingStatus.WAITING
    consolation = pairing(event, "consolation-r1-m1")
    assert {consolation.entry1_id, consolation.entry2_id} - {None} == {
        pairing(event, "main-r1-m1").entry2_id
    }
    win(event, "main-r1-m2", 2)
    final = pairing(event, "main-r2-m1")
    assert final.status == PairingStatus.READY and final.match is not None
    assert {final.entry1.seed, final.entry2.seed} == {1, 2}
    assert pairing(event, "main-r1-m1").round.status == "complete"


def test_correcting_a_result_replaces_the_next_match_nobody_started(make_event, win):
    event = make_event(4)
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 2)
    old_final = pairing(event, "main-r2-m1").match
    win(event, "main-r1-m1", 4)  # the director corrects: seed 4 won
    final = pairing(event, "main-r2-m1")
    assert {final.entry1.seed, final.entry2.seed} == {4, 2}
    assert final.replaced_matches == [old_final.pk]
    old_final.refresh_from_db()
    assert old_final.status == MatchStatus.VOID  # kept on record, not deleted


def test_correcting_a_result_flags_a_final_already_played_and_keeps_it(make_event, win, actor):
    event = make_event(4)
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 2)
    win(event, "main-r2-m1", 1)
    assert bracket_champion(event) == pairing(event, "main-r2-m1").entry1_id
    played_final = pairing(event, "main-r2-m1").match
    win(event, "main-r1-m1", 4)
    final = pairing(event, "main-r2-m1")
    assert final.stale and "correction" in final.stale_reason
    assert final.match_id == played_final.pk  # the played match is kept and flagged
    assert final.match.status == MatchStatus.FINISHED
    assert bracket_champion(event) is None
    result_services.reissue_pairing(actor=actor, tournament_id=event.pk, key="main-r2-m1")
    final = pairing(event, "main-r2-m1")
    assert not final.stale and final.replaced_matches == [played_final.pk]
    assert {final.entry1.seed, final.entry2.seed} == {4, 2}


def test_a_late_entry_fills_a_bye_nobody_has_played_past(make_event, club, actor):
    from games.services import clubs as club_services

    event = make_event(3)
    assert pairing(event, "main-r1-m1").status == PairingStatus.BYE
    late = club_services.create_player(display_name="Late", clubs=[club])
    entry = entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=late.pk)
    first = pairing(event, "main-r1-m1")
    assert entry.late and first.status == PairingStatus.READY
    assert {first.entry1.seed, first.entry2_id} == {1, entry.pk}
    full = club_services.create_player(display_name="Too many", clubs=[club])
    with pytest.raises(ConflictError) as error:
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=full.pk)
    assert error.value.code == "no_bye_to_fill"


def test_a_late_entry_is_refused_once_the_bye_was_played_past(make_event, club, actor, win):
    from games.services import clubs as club_services

    event = make_event(3)
    win(event, "main-r1-m2", 2)  # the final (seed 1 v seed 2) is now set up
    late = club_services.create_player(display_name="Late", clubs=[club])
    with pytest.raises(ConflictError) as error:
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=late.pk)
    assert error.value.code == "late_entry_too_late"


def test_withdrawal_forfeits_the_open_match_and_later_slots_are_walkovers(make_event, actor, win):
    event = make_event(4, consolation_from=[1])
    seed4 = pairing(event, "main-r1-m1").entry2
    entry_services.withdraw_entry(actor=actor, tournament_id=event.pk, entry_id=seed4.pk)
    first = pairing(event, "main-r1-m1")
    assert first.forfeit and first.winner.seed == 1
    assert first.match.status == MatchStatus.FORFEIT
    win(event, "main-r1-m2", 3)
    consolation = pairing(event, "consolation-r1-m1")
    # seed 4 withdrew, so seed 2 goes through the consolation without playing
    assert consolation.forfeit and consolation.match is None
    assert consolation.winner.seed == 2


def test_director_forfeit_advances_the_opponent(make_event, actor):
    event = make_event(4)
    p = pairing(event, "main-r1-m2")
    result_services.forfeit_pairing(
        actor=actor, tournament_id=event.pk, key="main-r1-m2", winner_entry_id=p.entry2_id
    )
    assert pairing(event, "main-r2-m1").entry2_id == p.entry2_id


def test_swapping_into_a_rematch_warns(make_event, win, actor):
    event = make_event(4, format="swiss", swiss_rounds=3)
    r1 = [pairing(event, f"swiss-r1-b{i}") for i in (1, 2)]
    for p in r1:
        win(event, p.key, p.entry1.seed)
    round_services.pair_next_round(actor=actor, tournament_id=event.pk)
    r2 = [pairing(event, f"swiss-r2-b{i}") for i in (1, 2)]
    met = {frozenset((p.entry1_id, p.entry2_id)) for p in r1}
    assert all(frozenset((p.entry1_id, p.entry2_id)) not in met for p in r2)
    # swap so that round-1 opponents meet again
    a, b = r1[0].entry1_id, r1[0].entry2_id
    other = r2[0].entry2_id if r2[0].entry1_id == a else r2[0].entry1_id
    if other == b:
        other = r2[1].entry1_id
    warnings = round_services.swap_entries(
        actor=actor, tournament_id=event.pk, entry_a=b, entry_b=other
    )
    assert any("Rematch" in w for w in warnings)
    r2 = [pairing(event, f"swiss-r2-b{i}") for i in (1, 2)]
    assert frozenset((a, b)) in {frozenset((p.entry1_id, p.entry2_id)) for p in r2}
    assert all(p.match.status == MatchStatus.SCHEDULED for p in r2)
    assert all(len(p.replaced_matches) == 1 for p in r2)


def test_no_swap_once_a_match_of_the_round_started(make_event, win, actor):
    event = make_event(4, format="swiss", swiss_rounds=3)
    p = pairing(event, "swiss-r1-b1")
    win(event, p.key, p.entry1.seed)
    q = pairing(event, "swiss-r1-b2")
    with pytest.raises(ConflictError) as error:
        round_services.swap_entries(
            actor=actor, tournament_id=event.pk, entry_a=p.entry1_id, entry_b=q.entry1_id
        )
    assert error.value.code == "round_started"


def test_double_elimination_grand_final_reset_only_when_the_losers_champion_wins(make_event, win):
    event = make_event(2, format="double_elimination")
    win(event, "winners-r1-m1", 2)
    win(event, "grand_final-r1-m1", 1)  # seed 1 (from the losers' side) wins: reset
    reset = pairing(event, "grand_final-r2-m1")
    assert reset.status == PairingStatus.READY
    win(event, "grand_final-r2-m1", 1)
    seed1 = event.entries.get(seed=1)
    assert bracket_champion(event) == seed1.pk


def test_round_robin_with_a_playoff_between_group_winners(make_event, win, actor):
    event = make_event(6, format="round_robin", groups=2, playoff_qualifiers=1)
    for number in range(1, 4):
        if number > 1:
            round_services.pair_next_round(actor=actor, tournament_id=event.pk)
        for p in event.pairings.filter(status=PairingStatus.READY).select_related(
            "entry1", "entry2"
        ):
            win(event, p.key, min(p.entry1.seed, p.entry2.seed))
    outcome = round_services.pair_next_round(actor=actor, tournament_id=event.pk)
    assert outcome.created
    final = pairing(event, "main-r1-m1")
    assert {final.entry1.seed, final.entry2.seed} == {1, 2}  # the two group winners
    assert final.round.stage.kind == "playoff"
    win(event, "main-r1-m1", 1)
    assert not round_services.more_rounds_due(event)


def test_reopening_a_forfeited_bracket_match_takes_the_walkover_back(
    make_event, actor, client_for, director
):
    """The bracket follows a reopen as it follows a correction: the forfeit winner
    leaves the next slot, and the match's real result then moves them on."""
    event = make_event(4)
    p = pairing(event, "main-r1-m2")
    result_services.forfeit_pairing(
        actor=actor, tournament_id=event.pk, key="main-r1-m2", winner_entry_id=p.entry2_id
    )
    assert pairing(event, "main-r2-m1").entry2_id == p.entry2_id
    reopened = client_for(director).post(
        f"/api/v1/matches/{p.match_id}/reopen/", {"reason": "Wrong pairing forfeited."}, "json"
    )
    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["status"] == "scheduled"
    again = pairing(event, "main-r1-m2")
    assert again.winner_id is None and not again.forfeit
    assert pairing(event, "main-r2-m1").entry2_id is None
    match = again.match
    score = [match.length, 0] if match.player1_id == again.entry1.player_id else [0, match.length]
    played = client_for(director).post(
        f"/api/v1/matches/{match.pk}/result/", {"score": score}, "json"
    )
    assert played.status_code == 200
    assert pairing(event, "main-r2-m1").entry2_id == again.entry1_id
