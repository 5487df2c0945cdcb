"""Late penalties among a match's games (games.rules.scoring, Ending.LATE_PENALTY)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.errors import RuleViolation
from games.rules.scoring import GameRecord, MatchRules, record_next_game, start_match
from games.rules.types import Ending, Level

RULES = MatchRules(length=5)


def penalty(winner: int, points: int) -> GameRecord:
    return GameRecord(winner=winner, ending=Ending.LATE_PENALTY, points=points)


def test_penalty_scores_its_points_without_being_a_crawford_game():
    state = record_next_game(
        start_match(RULES), GameRecord(winner=0, cube=2, cube_owner=1, level=Level.GAMMON)
    )
    assert state.score == (4, 0) and state.next_game_is_crawford
    state = record_next_game(state, penalty(1, 1))
    assert state.score == (4, 1)
    assert not state.games[-1].crawford
    assert state.next_game_is_crawford  # the Crawford game is still to be played
    state = record_next_game(state, GameRecord(winner=1))
    assert state.games[-1].crawford


def test_penalty_taking_a_player_to_match_point_makes_the_next_game_crawford():
    state = record_next_game(start_match(RULES), penalty(0, 4))
    assert state.next_game_is_crawford


def test_penalty_taking_both_to_match_point_leaves_no_crawford_game():
    state = record_next_game(start_match(RULES), penalty(0, 4))
    state = record_next_game(state, penalty(1, 4))
    assert not state.next_game_is_crawford and not state.next_game_post_crawford


def test_penalty_reaching_the_length_ends_the_match():
    state = record_next_game(start_match(RULES), penalty(1, 5))
    assert state.finished and state.winner == 1


@pytest.mark.parametrize(
    ("record", "code"),
    [
        (GameRecord(winner=0, ending=Ending.LATE_PENALTY, points=None), "penalty_points_invalid"),
        (GameRecord(winner=0, ending=Ending.LATE_PENALTY, points=0), "penalty_points_invalid"),
        (
            GameRecord(winner=0, ending=Ending.LATE_PENALTY, cube=2, cube_owner=1, points=1),
            "penalty_has_no_cube",
        ),
        (
            GameRecord(winner=0, ending=Ending.LATE_PENALTY, level=Level.GAMMON, points=1),
            "penalty_is_single",
        ),
    ],
)
def test_impossible_penalties_are_refused(record, code):
    with pytest.raises(RuleViolation) as refused:
        record_next_game(start_match(RULES), record)
    assert refused.value.code == code


def test_no_penalty_in_an_unlimited_session():
    with pytest.raises(RuleViolation) as refused:
        record_next_game(start_match(MatchRules(length=0)), penalty(0, 1))
    assert refused.value.code == "penalty_outside_match"


def test_no_penalty_after_the_match_ended():
    state = record_next_game(start_match(RULES), penalty(1, 5))
    with pytest.raises(RuleViolation) as refused:
        record_next_game(state, penalty(0, 1))
    assert refused.value.code == "game_after_match_end"


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 3)), max_size=6), st.integers(2, 9))
def test_penalties_alone_never_make_a_crawford_game(penalties, length):
    state = start_match(MatchRules(length=length))
    for winner, points in penalties:
        if state.finished:
            break
        state = record_next_game(state, penalty(winner, points))
        assert not state.games[-1].crawford
    assert state.crawford_game is None
    assert state.score == (
        sum(p for w, p in penalties[: len(state.games)] if w == 0),
        sum(p for w, p in penalties[: len(state.games)] if w == 1),
    )
