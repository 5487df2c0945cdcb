"""The pure rating replay (games.rules.rating_replay): each match moves its players by
the FIBS formula, order matters, and replaying in batches equals replaying in one go."""

from __future__ import annotations

import copy
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.errors import RuleViolation
from games.rules.fibs import BoostPolicy, rating_change
from games.rules.rating_replay import HISTORY_COLUMNS, Standing, replay

PLAYERS = st.integers(min_value=1, max_value=6)
LENGTHS = st.integers(min_value=1, max_value=25)
#: Around the end of the newcomer boost (K reaches 1 at 400) as well as anywhere.
EXPERIENCES = st.one_of(
    st.sampled_from([0, 1, 99, 375, 390, 395, 399, 400, 401]),
    st.integers(min_value=0, max_value=2000),
)


@st.composite
def match_lists(draw, max_size=40):
    """Matches (id, player1, player2, winner, length, at) among a few players, in order."""
    rows = []
    for match_id in range(1, draw(st.integers(min_value=0, max_value=max_size)) + 1):
        p1 = draw(PLAYERS)
        p2 = draw(PLAYERS.filter(lambda p, p1=p1: p != p1))  # type: ignore[arg-type]  # mypy types the lambda with its default
        winner = draw(st.sampled_from([p1, p2]))
        rows.append((match_id, p1, p2, winner, draw(LENGTHS), f"t{match_id}"))
    return rows


def _run(rows, standings=None, *, policy="fibs", initial=1500.0):
    standings = {} if standings is None else standings
    out = replay(rows, standings, rating_list_id=7, initial=initial, policy=policy)
    return out, standings


def _state(standings):
    return {
        p: (s.rating, s.experience, s.matches, s.last_change, s.last_played_at)
        for p, s in standings.items()
    }


@settings(max_examples=300, deadline=None)
@given(
    st.floats(min_value=0, max_value=3500, allow_nan=False),
    st.floats(min_value=0, max_value=3500, allow_nan=False),
    EXPERIENCES,
    EXPERIENCES,
    LENGTHS,
    st.sampled_from(list(BoostPolicy)),
)
def test_one_match_moves_both_ratings_by_the_fibs_formula_exactly(
    w_rating, l_rating, w_exp, l_exp, length, policy
):
    standings = {
        1: Standing(rating=w_rating, experience=w_exp, matches=3),
        2: Standing(rating=l_rating, experience=l_exp, matches=4),
    }
    out, _ = _run([(10, 2, 1, 1, length, "at")], standings, policy=policy)
    expected = rating_change(
        winner_rating=w_rating,
        loser_rating=l_rating,
        winner_experience=w_exp,
        loser_experience=l_exp,
        length=length,
        policy=policy,
    )
    winner_row, loser_row = (dict(zip(HISTORY_COLUMNS, r, strict=True)) for r in out)
    # Bit for bit: the inlined arithmetic is the formula's, term for term.
    assert winner_row["change"] == expected.winner_delta
    assert loser_row["change"] == expected.loser_delta
    assert standings[1].rating == w_rating + expected.winner_delta
    assert standings[2].rating == l_rating + expected.loser_delta
    assert winner_row == {
        "rating_list_id": 7,
        "player_id": 1,
        "match_id": 10,
        "opponent_id": 2,
        "won": True,
        "length": length,
        "at": "at",
        "rating_before": w_rating,
        "rating_after": standings[1].rating,
        "change": expected.winner_delta,
        "experience_before": w_exp,
        "experience_after": w_exp + length,
    }
    assert loser_row["player_id"] == 2 and loser_row["won"] is False
    assert (standings[1].matches, standings[2].matches) == (4, 5)
    assert (standings[1].experience, standings[2].experience) == (w_exp + length, l_exp + length)


def test_newcomers_start_at_the_initial_rating_and_an_even_match_moves_them_4_k_sqrt_n_halves():
    out, standings = _run([(1, 1, 2, 2, 9, "at")], initial=1000.0)
    # Equal ratings: P = 1/2; newcomers' K = 5 (fibs boost, no experience yet).
    assert standings[2].rating == pytest.approx(1000.0 + 5 * 4 * math.sqrt(9) / 2)
    assert standings[1].rating == pytest.approx(1000.0 - 5 * 4 * math.sqrt(9) / 2)
    assert [r[1] for r in out] == [2, 1]  # the winner's row first


@settings(max_examples=200, deadline=None)
@given(match_lists(), st.data(), st.sampled_from(list(BoostPolicy)))
def test_replaying_in_two_halves_with_the_state_carried_over_equals_one_go(rows, data, policy):
    cut = data.draw(st.integers(min_value=0, max_value=len(rows)))
    whole, whole_state = _run(rows, policy=policy)
    first, carried = _run(rows[:cut], policy=policy)
    second, carried = _run(rows[cut:], carried, policy=policy)
    assert first + second == whole
    assert _state(carried) == _state(whole_state)


@settings(max_examples=200, deadline=None)
@given(match_lists(max_size=12))
def test_the_standings_are_the_last_history_row_of_each_player(rows):
    out, standings = _run(rows)
    last = {}
    for row in out:
        r = dict(zip(HISTORY_COLUMNS, row, strict=True))
        last[r["player_id"]] = r
    assert set(last) == set(standings)
    for player, r in last.items():
        s = standings[player]
        assert (s.rating, s.experience, s.last_change, s.last_played_at) == (
            r["rating_after"],
            r["experience_after"],
            r["change"],
            r["at"],
        )
        assert s.matches == sum(1 for row in out if row[1] == player)


def test_order_matters():
    a = (1, 1, 2, 1, 5, "t1")  # 1 beats 2
    b = (2, 1, 3, 3, 7, "t2")  # 3 beats 1
    _, forward = _run([a, b])
    _, backward = _run([b, a])
    assert _state(forward) != _state(backward)
    assert forward[2].rating != backward[2].rating  # 2 met a different 1


def test_the_standings_passed_in_are_updated_in_place_and_others_are_left_alone():
    standings = {1: Standing(rating=1600.0, experience=500, matches=80), 9: Standing(rating=1.0)}
    before = copy.deepcopy(standings[9])
    _run([(1, 1, 2, 1, 3, "t")], standings)
    assert standings[1].matches == 81 and standings[1].rating > 1600.0
    assert standings[9] == before and standings[2].matches == 1


@pytest.mark.parametrize("length", [0, -1])
def test_a_match_without_a_length_is_not_rated(length):
    with pytest.raises(RuleViolation) as excinfo:
        _run([(1, 1, 2, 1, length, "t")])
    assert excinfo.value.code == "rated_match_length_invalid"


def test_the_rules_module_imports_no_django():
    import ast
    from pathlib import Path

    import games.rules.rating_replay as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert not any(name.startswith("django") for name in imported if name)
