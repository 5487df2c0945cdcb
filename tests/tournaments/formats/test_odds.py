"""Event odds: the Monte Carlo agrees with exact enumeration, probabilities add up.

The simulation's stated error is its standard error, sqrt(p (1 - p) / S); with a fixed
seed every estimate must lie within 4 standard errors (plus a hair for p near 0 or 1)
of the exact value. Exact enumeration is checked against hand-worked cases and against
the finishing places the bracket itself reports (``elimination_places``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.bracket_engine import derive_bracket_state, play_event
from tournaments.formats.double_elimination import build_double_elimination
from tournaments.formats.elimination import build_single_elimination
from tournaments.formats.errors import FormatError
from tournaments.formats.odds import (
    SwissInput,
    exact_bracket,
    fibs_matrix,
    plan_bracket,
    simulate_bracket,
    simulate_bracket_loop,
    simulate_swiss,
    standard_error,
)
from tournaments.formats.places import elimination_places, place_layout

SIMS = 40_000


def ratings_for(n: int, seed: int = 7) -> np.ndarray:
    return np.random.default_rng(seed).normal(1500, 200, n)


def plan_for(graph, *, winners=None, in_progress=None, withdrawn=(), prize_order=("main",)):
    ratings = ratings_for(graph.entries)
    matrices = [fibs_matrix(ratings, 5), fibs_matrix(ratings, 9)]
    matrix_of = {m.key: (1 if m.round > 1 else 0) for m in graph.matches}
    return plan_bracket(
        graph,
        matrices=matrices,
        matrix_of=matrix_of,
        winners=winners,
        in_progress=in_progress,
        withdrawn=withdrawn,
        prize_order=prize_order,
    )


def assert_within(estimate: np.ndarray, exact: np.ndarray, simulations: int) -> None:
    bound = 4 * np.sqrt(exact * (1 - exact) / simulations) + 1e-9
    assert np.all(np.abs(estimate - exact) <= bound), np.max(np.abs(estimate - exact) - bound)


GRAPHS = {
    "2 single": lambda: build_single_elimination(2),
    "4 single": lambda: build_single_elimination(4),
    "8 single": lambda: build_single_elimination(8),
    "8 + consolation": lambda: build_single_elimination(8, consolation_from=(1, 2)),
    "8 double": lambda: build_double_elimination(8),
    "4 double": lambda: build_double_elimination(4),
    "6 with byes + consolation": lambda: build_single_elimination(6, consolation_from=(1,)),
}


@pytest.mark.parametrize("name", list(GRAPHS))
def test_monte_carlo_agrees_with_exact_within_four_standard_errors(name):
    plan = plan_for(GRAPHS[name]())
    exact = exact_bracket(plan)
    simulated = simulate_bracket(plan, SIMS, seed=11)
    assert_within(simulated.win, exact.win, SIMS)
    assert_within(simulated.final, exact.final, SIMS)
    for j, bucket in enumerate(exact.buckets):
        # a shared place: each player's chance is a probability too
        assert_within(simulated.places[:, j], exact.places[:, j], SIMS)
        assert exact.places[:, j].sum() == pytest.approx(bucket.size)
        assert simulated.places[:, j].sum() == pytest.approx(bucket.size)
    assert exact.win.sum() == pytest.approx(1.0)
    assert simulated.win.sum() == pytest.approx(1.0)
    assert exact.final.sum() == pytest.approx(2.0)
    assert exact.places.sum(axis=1) == pytest.approx(np.ones(plan.entries))


@pytest.mark.parametrize("name", ["4 single", "8 + consolation", "8 double"])
def test_plain_loop_is_the_same_simulation(name):
    plan = plan_for(GRAPHS[name]())
    exact = exact_bracket(plan)
    looped = simulate_bracket_loop(plan, 8_000, seed=5)
    assert_within(looped.win, exact.win, 8_000)
    assert_within(looped.places, exact.places, 8_000)


def test_two_players_exact_is_the_match_chance():
    graph = build_single_elimination(2)
    ratings = [1700.0, 1500.0]
    plan = plan_bracket(graph, matrices=[fibs_matrix(ratings, 7)], matrix_of={})
    p = 1 / (10 ** (-200 * math.sqrt(7) / 2000) + 1)
    exact = exact_bracket(plan)
    assert exact.win == pytest.approx([p, 1 - p])
    assert exact.final == pytest.approx([1, 1])
    assert [b.label for b in exact.buckets] == ["1", "2"]


def test_four_players_by_hand():
    """Equal chances 1/2 except seed 1 beats everyone with 3/4."""
    graph = build_single_elimination(4)
    matrix = np.full((4, 4), 0.5)
    matrix[0, :], matrix[:, 0] = 0.75, 0.25
    plan = plan_bracket(graph, matrices=[matrix], matrix_of={})
    exact = exact_bracket(plan)
    assert exact.win[0] == pytest.approx(0.75 * 0.75)
    # seed 2 (1 v 4, 2 v 3): wins the semi half the time, then meets seed 1 (3/4) or 4
    assert exact.win[1] == pytest.approx(0.5 * (0.75 * 0.25 + 0.25 * 0.5))
    assert exact.final[0] == pytest.approx(0.75)


def test_in_progress_match_uses_its_own_chance():
    graph = build_single_elimination(2)
    plan = plan_bracket(
        graph, matrices=[np.full((2, 2), 0.5)], matrix_of={}, in_progress={"main-r1-m1": 0.9}
    )
    assert exact_bracket(plan).win == pytest.approx([0.9, 0.1])


def test_withdrawn_entry_loses_every_match_left():
    graph = build_single_elimination(4)
    plan = plan_for(graph, withdrawn=(0,))
    exact = exact_bracket(plan)
    assert exact.win[0] == 0.0
    assert exact.final[0] == 0.0
    assert exact.win.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("name", list(GRAPHS))
def test_finished_event_gives_zero_or_one(name):
    graph = GRAPHS[name]()
    played = play_event(graph, list(range(graph.entries)), lambda m, a, b: max(a, b))
    plan = plan_for(graph, winners=played.winners)
    for odds in (exact_bracket(plan), simulate_bracket(plan, 500, seed=1)):
        assert set(np.unique(odds.win)) <= {0.0, 1.0}
        assert odds.win[played.champion] == 1.0
        assert set(np.unique(odds.places)) <= {0.0, 1.0}


@pytest.mark.parametrize("name", list(GRAPHS))
def test_places_agree_with_the_bracket_places_once_played(name):
    """Every way a bracket can end, the place layout gives each entry its real place."""
    graph = GRAPHS[name]()
    layout = place_layout(graph, ("main", "consolation:2"))
    entries = list(range(graph.entries))
    for bits in itertools.islice(itertools.product((0, 1), repeat=len(graph.matches)), 256):
        choice = dict(zip((m.key for m in graph.matches), bits, strict=True))

        def decide(m, a, b, c=choice):
            return a if c[m.key] else b

        played = play_event(graph, entries, decide)
        state = derive_bracket_state(graph, entries, played.winners)
        places = elimination_places(graph, state, entries, ("main", "consolation:2"))
        plan = plan_for(graph, winners=played.winners, prize_order=("main", "consolation:2"))
        odds = exact_bracket(plan)
        for entry in entries:
            bucket = layout.buckets[int(np.argmax(odds.places[entry]))]
            assert places.label(entry) == bucket.label
            assert places.place_of[entry].position == bucket.position


@settings(max_examples=25, deadline=None)
@given(
    entries=st.integers(2, 12),
    consolation=st.booleans(),
    double=st.booleans(),
    decided=st.integers(0, 6),
    seed=st.integers(0, 1000),
)
def test_probabilities_add_up_part_way(entries, consolation, double, decided, seed):
    if double:
        graph = build_double_elimination(entries)
    else:
        graph = build_single_elimination(
            entries, consolation_from=(1,) if consolation and entries >= 4 else ()
        )
    played = play_event(graph, list(range(entries)), lambda m, a, b: min(a, b) + seed % 2 * 0)
    winners = dict(list(played.winners.items())[:decided])
    plan = plan_for(graph, winners=winners, prize_order=("main", "consolation"))
    odds = simulate_bracket(plan, 2_000, seed=seed)
    assert odds.win.sum() == pytest.approx(1.0)
    assert odds.final.sum() == pytest.approx(2.0)
    assert odds.places.sum(axis=1) == pytest.approx(np.ones(entries))
    for j, bucket in enumerate(odds.buckets):
        assert odds.places[:, j].sum() == pytest.approx(bucket.size)
    assert np.all(odds.win <= odds.final + 1e-12)


def test_exact_refuses_a_big_bracket():
    plan = plan_for(build_single_elimination(64))
    with pytest.raises(FormatError) as caught:
        exact_bracket(plan)
    assert caught.value.code == "odds_too_many_matches"


def test_standard_error_figures():
    assert standard_error(100_000) == pytest.approx(0.00158, abs=1e-5)
    assert standard_error(0) == 0.0


def swiss_event(n: int, rounds_left: int, *, played: int = 2, current=()) -> SwissInput:
    rng = np.random.default_rng(3)
    wins = rng.integers(0, played + 1, n).tolist()
    ratings = ratings_for(n)
    return SwissInput(
        wins=wins,
        opponents=[[(i + 1 + r) % n for r in range(played)] for i in range(n)],
        current=list(current),
        rounds_left=rounds_left,
        matrices=[fibs_matrix(ratings, 7)] * (rounds_left + 1),
        active=[True] * n,
        places=4,
    )


@pytest.mark.parametrize("n", [7, 20])
def test_swiss_probabilities_add_up(n):
    odds = simulate_swiss(swiss_event(n, 3, current=[(0, 1, 0.6)]), 5_000, seed=2)
    assert odds.win.sum() == pytest.approx(1.0)
    assert odds.final is None
    assert odds.places.sum(axis=0) == pytest.approx(np.ones(4))


def test_swiss_finished_is_decided_by_wins_then_buchholz_then_seed():
    event = SwissInput(
        wins=[2, 3, 3, 1],
        opponents=[[1, 2, 3], [0, 3, 2], [3, 0, 1], [2, 1, 0]],
        current=[],
        rounds_left=0,
        matrices=[np.full((4, 4), 0.5)],
        active=[True] * 4,
        places=4,
    )
    odds = simulate_swiss(event, 100, seed=0)
    # 1 and 2 have three wins; Buchholz: 1 met 0, 3, 2 (2+1+3=6), 2 met 3, 0, 1 (1+2+3=6): seed
    assert odds.win.tolist() == [0.0, 1.0, 0.0, 0.0]
    assert odds.places[:, 1].tolist() == [0.0, 0.0, 1.0, 0.0]


def test_swiss_withdrawn_player_wins_nothing_more():
    event = swiss_event(8, 3)
    event = SwissInput(**{**event.__dict__, "wins": [3] + [0] * 7, "active": [False] + [True] * 7})
    odds = simulate_swiss(event, 2_000, seed=1)
    # 3 wins and out: anyone else can reach 3 wins and beat them only on tie-breaks
    assert odds.win[0] < 1.0
    assert odds.win.sum() == pytest.approx(1.0)
