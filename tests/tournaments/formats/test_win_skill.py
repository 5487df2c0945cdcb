"""WBIF's Win + Skill: the per-match score and its place among the tie-breaks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.standings import MatchResult, TieBreak, compute_standings, win_and_skill


@pytest.mark.parametrize(
    ("won", "mine", "theirs", "expected"),
    [
        (True, 4.0, 9.0, 2.0),  # better by 5: the whole skill point
        (True, 9.0, 4.0, 1.0),  # won, but played worse by 5: the win only
        (False, 4.0, 9.0, 1.0),  # lost the match, outplayed the winner
        (True, 5.0, 5.6, 1.8),  # 0.5 + 0.6 / 2
        (False, 5.6, 5.0, 0.2),  # 0.5 - 0.6 / 2
        (True, 5.0, 6.0, 2.0),  # exactly 1: the whole point
        (False, None, None, 0.5),  # not analysed: neutral
    ],
)
def test_win_and_skill(won, mine, theirs, expected):
    assert win_and_skill(won, mine, theirs) == pytest.approx(expected)


@given(
    st.floats(min_value=0, max_value=40, allow_nan=False),
    st.floats(min_value=0, max_value=40, allow_nan=False),
)
def test_the_two_skill_parts_of_a_match_make_one_point(a, b):
    total = win_and_skill(True, a, b) + win_and_skill(False, b, a)
    assert total == pytest.approx(2.0)
    assert 0.0 <= win_and_skill(False, a, b) <= 1.0


def test_win_skill_first_is_the_score_and_can_reverse_match_wins():
    # A beat B but played far worse; B beat C playing well; C beat A
    results = [
        MatchResult("A", "B", "A", pr_a=14.0, pr_b=4.0),
        MatchResult("B", "C", "B", pr_a=3.0, pr_b=6.0),
        MatchResult("C", "A", "C", pr_a=8.0, pr_b=8.5),
    ]
    rows = compute_standings(["A", "B", "C"], results, [TieBreak.WIN_SKILL, TieBreak.MATCH_WINS])
    scores = {r.player: r.values[TieBreak.WIN_SKILL] for r in rows}
    assert scores == {"A": 100 + 0 + 25, "B": 100 + 100 + 100, "C": 0 + 100 + 75}
    assert [r.player for r in rows] == ["B", "C", "A"]
    # as a tie-break after match wins, everyone is level on wins (1 each) and it decides
    rows = compute_standings(["A", "B", "C"], results, [TieBreak.MATCH_WINS, TieBreak.WIN_SKILL])
    assert [r.player for r in rows] == ["B", "C", "A"]
