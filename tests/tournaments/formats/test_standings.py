"""Standings and tie-breaks, computed from results (docs/rules.md, "Standings")."""

from __future__ import annotations

import pytest

from tournaments.formats.errors import FormatError
from tournaments.formats.standings import (
    ROUND_ROBIN_TIE_BREAKS,
    MatchResult,
    TieBreak,
    compute_standings,
)


def r(a, b, winner, pa=0, pb=0, **flags):
    return MatchResult(a, b, winner, pa, pb, **flags)


RESULTS = [
    # round 1
    r("A", "B", "A", 5, 2),
    r("C", "D", "C", 5, 4),
    r("E", None, "E", bye=True),
    # round 2
    r("A", "C", "A", 5, 0),
    r("B", "E", "E", 3, 5),
    r("D", None, "D", bye=True),
    # round 3
    r("A", "E", "E", 1, 5, forfeit=True),
    r("B", "D", "B", 5, 3),
    r("C", None, "C", bye=True),
]


def test_match_wins_then_buchholz():
    rows = compute_standings(list("ABCDE"), RESULTS)
    wins = {row.player: row.wins for row in rows}
    assert wins == {"A": 2, "B": 1, "C": 2, "D": 1, "E": 3}
    assert rows[0].player == "E"
    buchholz = {row.player: row.values[TieBreak.BUCHHOLZ] for row in rows}
    # A met B(1), C(2), E(3); C met D(1), A(2)
    assert buchholz["A"] == 6 and buchholz["C"] == 3
    assert [row.player for row in rows][:3] == ["E", "A", "C"]


def test_median_buchholz_drops_best_and_worst():
    rows = {row.player: row for row in compute_standings(list("ABCDE"), RESULTS)}
    assert rows["A"].values[TieBreak.MEDIAN_BUCHHOLZ] == 2  # 1, 2, 3 -> 2
    assert rows["C"].values[TieBreak.MEDIAN_BUCHHOLZ] == 3  # fewer than 3 opponents: all


def test_forfeits_and_byes_are_reported():
    rows = {row.player: row for row in compute_standings(list("ABCDE"), RESULTS)}
    assert rows["E"].forfeit_wins == 1 and rows["A"].forfeit_losses == 1
    assert rows["E"].byes == 1 and rows["E"].played == 2


def test_a_bye_need_not_be_a_win():
    """Milwaukee: a bye does not count as a match win."""
    rows = {row.player: row for row in compute_standings(list("ABCDE"), RESULTS, bye_is_win=False)}
    assert rows["E"].wins == 2


def test_head_to_head_only_among_players_still_tied():
    results = [
        r("A", "B", "B", 3, 5),
        r("B", "C", "C", 4, 5),
        r("C", "A", "A", 2, 5),
        r("A", "D", "A", 5, 0),
        r("B", "D", "B", 5, 0),
        r("C", "D", "C", 5, 0),
        r("D", "E", "E", 0, 5),
    ]
    rows = compute_standings(list("ABCDE"), results, ROUND_ROBIN_TIE_BREAKS)
    top = rows[:3]
    assert {row.values[TieBreak.MATCH_WINS] for row in top} == {2}
    # a cycle: each beat one of the others, so head-to-head decides nothing and shows 0
    assert {row.values[TieBreak.HEAD_TO_HEAD] for row in top} == {0}
    # points difference decides: A +3-2+5... computed from the scores
    diffs = {row.player: row.values[TieBreak.POINTS_DIFFERENCE] for row in top}
    assert [row.player for row in top] == sorted(diffs, key=lambda p: -diffs[p])


def test_head_to_head_separates_two_tied_players():
    results = [r("A", "B", "B", 0, 5), r("A", "C", "A", 5, 0), r("B", "D", "D", 0, 5)]
    rows = compute_standings(list("ABCD"), results, (TieBreak.MATCH_WINS, TieBreak.HEAD_TO_HEAD))
    order = [row.player for row in rows]
    assert order.index("B") < order.index("A")  # both 1 win, B beat A


def test_fully_tied_players_share_a_rank_in_seed_order():
    rows = compute_standings(["X", "Y"], [], (TieBreak.MATCH_WINS,))
    assert [(row.player, row.rank) for row in rows] == [("X", 1), ("Y", 1)]


def test_bad_results_are_refused():
    with pytest.raises(FormatError):
        r("A", "B", "C")
    with pytest.raises(FormatError):
        compute_standings(["A"], [r("A", "Z", "A")])


def test_swiss_head_to_head_counts_games_within_the_score_group():
    """Issue 13: the Swiss column was all 0 because head-to-head was counted only among
    players also level on Buchholz and median Buchholz, who had not met."""
    results = [
        # round 1
        r("A", "B", "A", 3, 1),
        r("C", "D", "C", 3, 0),
        r("E", "F", "E", 3, 2),
        # round 2
        r("A", "C", "C", 3, 2),
        r("E", "B", "E", 3, 0),
        r("D", "F", "D", 3, 1),
        # round 3
        r("A", "D", "A", 3, 0),
        r("C", "E", "E", 3, 1),
        r("B", "F", "B", 3, 2),
    ]
    rows = {row.player: row for row in compute_standings(list("ABCDEF"), results)}
    assert (rows["A"].wins, rows["C"].wins) == (2, 2)
    assert rows["A"].values[TieBreak.BUCHHOLZ] != rows["C"].values[TieBreak.BUCHHOLZ]
    # C beat A, the only game inside the 2-win group
    assert rows["C"].values[TieBreak.HEAD_TO_HEAD] == 1
    assert rows["A"].values[TieBreak.HEAD_TO_HEAD] == 0
    # a win over a player on another score is not head-to-head
    assert rows["E"].values[TieBreak.HEAD_TO_HEAD] == 0  # alone on 3 wins
    assert rows["D"].values[TieBreak.HEAD_TO_HEAD] == rows["B"].values[TieBreak.HEAD_TO_HEAD] == 0


def test_head_to_head_is_zero_where_the_tied_players_never_met():
    results = [r("A", "C", "A", 5, 0), r("B", "D", "B", 5, 0)]
    rows = compute_standings(list("ABCD"), results, ROUND_ROBIN_TIE_BREAKS)
    assert all(row.values[TieBreak.HEAD_TO_HEAD] == 0 for row in rows)


def test_head_to_head_separates_players_level_on_wins():
    results = [r("A", "C", "A"), r("C", "B", "B"), r("C", "D", "C"), r("A", "B", "A")]
    rows = compute_standings(list("ABCD"), results, (TieBreak.MATCH_WINS, TieBreak.HEAD_TO_HEAD))
    by_player = {row.player: row for row in rows}
    assert (by_player["B"].wins, by_player["C"].wins) == (1, 1)
    assert by_player["B"].values[TieBreak.HEAD_TO_HEAD] == 1
    order = [row.player for row in rows]
    assert order.index("B") < order.index("C")  # B beat C
    assert by_player["B"].rank < by_player["C"].rank
