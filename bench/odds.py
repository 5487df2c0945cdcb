"""Benchmark: event odds by Monte Carlo (tournaments.formats.odds), pure, no database.

``docs/chances.md`` ("Event odds", "Benchmark"): 100,000 simulations of a 64-player
main + consolation bracket (consolation fed by main rounds 1 and 2) from round 1 and
from the quarter-finals, and of a 200-player Swiss with 4 rounds left. The bracket is
simulated twice in the same run: vectorised with numpy (target ≤ 2 s) and by the plain
Python loop of the same simulation (``simulate_bracket_loop``), and the ratio is
reported. ``quick`` runs 10,000 simulations.

``championship`` (also ``python -m bench.odds --championship`` alone): the 512-player
single elimination with progressive consolation and last chance of a championship
(1,149 matches), from round 1, after main round 1 and after main round 2: the CPU of
one odds computation with the job's old 50,000 simulations and with the count the
work budget gives (``ODDS_WORK_BUDGET``, ``tournaments.services.odds``).
"""

from __future__ import annotations

import time

import numpy as np

from tournaments.formats.bracket_engine import MatchStatus, derive_bracket_state, play_event
from tournaments.formats.bracket_graph import Stage
from tournaments.formats.elimination import build_single_elimination
from tournaments.formats.odds import (
    SwissInput,
    fibs_matrix,
    plan_bracket,
    simulate_bracket,
    simulate_bracket_loop,
    simulate_swiss,
    standard_error,
)

PLAYERS, SWISS_PLAYERS = 64, 200
CHAMPIONSHIP = 512
WORK_BUDGET, MIN_SIMULATIONS, OLD_SIMULATIONS = 10_000_000, 5_000, 50_000


def _ratings(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(1600.0, 200.0, n)


def _at_quarter_finals(graph, ratings) -> dict[str, int]:
    """Results of a played-out event, kept up to the main quarter-finals: every main
    match before them and every consolation match that can be played by then."""
    rng = np.random.default_rng(5)
    matrix = fibs_matrix(ratings, 7)
    played = play_event(
        graph,
        list(range(graph.entries)),
        lambda m, a, b: a if rng.random() < matrix[a, b] else b,
    ).winners
    quarter_final = len(graph.rounds(Stage.MAIN)) - 2
    kept: dict[str, int] = {}
    while True:
        state = derive_bracket_state(graph, list(range(graph.entries)), kept)
        ready = [
            s.match.key
            for s in state.matches.values()
            if s.status == MatchStatus.READY
            and not (s.match.stage == Stage.MAIN and s.match.round >= quarter_final)
        ]
        if not ready:
            return kept
        kept.update({key: played[key] for key in ready})


def _bracket(simulations: int, winners: dict[str, int]) -> dict:
    graph = build_single_elimination(PLAYERS, consolation_from=(1, 2))
    ratings = _ratings(PLAYERS, 64)
    lengths = {m.key: (11 if m.stage == Stage.MAIN and m.round >= 5 else 7) for m in graph}
    plan = plan_bracket(
        graph,
        matrices=[fibs_matrix(ratings, 7), fibs_matrix(ratings, 11)],
        matrix_of={key: (1 if length == 11 else 0) for key, length in lengths.items()},
        winners=winners or None,
    )
    started, cpu = time.perf_counter(), time.process_time()
    fast = simulate_bracket(plan, simulations, seed=1)
    numpy_s, numpy_cpu = time.perf_counter() - started, time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    slow = simulate_bracket_loop(plan, simulations, seed=1)
    loop_s, loop_cpu = time.perf_counter() - started, time.process_time() - cpu
    gap = float(np.max(np.abs(fast.win - slow.win)))
    return {
        "matches": len(graph),
        "undecided": plan.undecided,
        "numpy_s": round(numpy_s, 3),
        "loop_s": round(loop_s, 2),
        "speed_up": round(loop_s / numpy_s, 1),
        # CPU seconds of this process: what a busy machine's wall clock hides
        "numpy_cpu_s": round(numpy_cpu, 3),
        "loop_cpu_s": round(loop_cpu, 2),
        "speed_up_cpu": round(loop_cpu / numpy_cpu, 1),
        "target_s": 2.0,
        "win_sum": round(float(fast.win.sum()), 9),
        # two independent runs of the same simulation: their gap is about
        # sqrt(2) standard errors at most, so within 6 * SE(p = 0.5)
        "numpy_vs_loop_max_gap": round(gap, 4),
        "within_6_se": gap <= 6 * standard_error(simulations),
    }


def _swiss(simulations: int) -> dict:
    n, played, rounds = SWISS_PLAYERS, 3, 7
    ratings = _ratings(n, 200)
    matrix = fibs_matrix(ratings, 7)
    rng = np.random.default_rng(9)
    wins = np.zeros(n, dtype=int)
    opponents: list[list[int]] = [[] for _ in range(n)]
    for _ in range(played):  # a plausible record: adjacent pairing by score
        order = sorted(range(n), key=lambda i: (-wins[i], i))
        for a, b in zip(order[0::2], order[1::2], strict=True):
            wins[a if rng.random() < matrix[a, b] else b] += 1
            opponents[a].append(b)
            opponents[b].append(a)
    event = SwissInput(
        wins=wins.tolist(),
        opponents=opponents,
        current=[],
        rounds_left=rounds - played,
        matrices=[matrix] * (rounds - played + 1),
        active=[True] * n,
    )
    started, cpu = time.perf_counter(), time.process_time()
    odds = simulate_swiss(event, simulations, seed=3)
    return {
        "players": n,
        "rounds_left": rounds - played,
        "numpy_s": round(time.perf_counter() - started, 3),
        "numpy_cpu_s": round(time.process_time() - cpu, 3),
        "win_sum": round(float(odds.win.sum()), 9),
    }


def _timed(plan, simulations: int) -> dict:
    started, cpu = time.perf_counter(), time.process_time()
    odds = simulate_bracket(plan, simulations, seed=1)
    return {
        "simulations": simulations,
        "standard_error_max": round(standard_error(simulations), 4),
        "wall_s": round(time.perf_counter() - started, 2),
        "cpu_s": round(time.process_time() - cpu, 2),
        "win_sum": round(float(odds.win.sum()), 6),
    }


def championship(*, quick: bool = False) -> dict:
    """The odds of a 512-player championship at three moments of its first rounds."""
    from tournaments.formats.bracket_engine import MatchStatus, derive_bracket_state

    graph = build_single_elimination(CHAMPIONSHIP, consolation_from=(1, 2), last_chance_from=(1, 2))
    ratings = _ratings(CHAMPIONSHIP, 512)
    matrix = fibs_matrix(ratings, 7)
    rng = np.random.default_rng(5)
    entries = list(range(CHAMPIONSHIP))
    played = play_event(graph, entries, lambda m, a, b: a if rng.random() < matrix[a, b] else b)
    figures: dict[str, dict] = {}
    winners: dict[str, int] = {}
    for moment in ("from_round_1", "after_main_round_1", "after_main_round_2"):
        plan = plan_bracket(graph, matrices=[matrix], matrix_of={}, winners=winners)
        budgeted = max(min(OLD_SIMULATIONS, WORK_BUDGET // plan.undecided), MIN_SIMULATIONS)
        figures[moment] = {
            "undecided": plan.undecided,
            "budgeted": _timed(plan, budgeted),
            **({} if quick else {"old_50000": _timed(plan, OLD_SIMULATIONS)}),
        }
        state = derive_bracket_state(graph, entries, winners)
        main_round = 2 if winners else 1
        winners.update(
            {
                key: played.winners[key]
                for key, slot in state.matches.items()
                if slot.status == MatchStatus.READY
                and slot.match.stage == Stage.MAIN
                and slot.match.round == main_round
            }
        )
    return {"matches": len(graph), **figures}


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    import os

    simulations = 10_000 if quick else 100_000
    graph = build_single_elimination(PLAYERS, consolation_from=(1, 2))
    quarter_finals = _at_quarter_finals(graph, _ratings(PLAYERS, 64))
    return {
        "load_average": round(os.getloadavg()[0], 1),
        "simulations": simulations,
        "standard_error_max": round(standard_error(simulations), 5),
        "bracket_64_from_round_1": _bracket(simulations, {}),
        "bracket_64_from_quarter_finals": _bracket(simulations, quarter_finals),
        "swiss_200_four_rounds_left": _swiss(simulations),
        "championship_512": championship(quick=quick),
        "load_average_after": [round(x, 1) for x in os.getloadavg()],
    }


if __name__ == "__main__":
    import json
    import os
    import sys

    if "--championship" in sys.argv:
        result = {"load_average_before": [round(x, 1) for x in os.getloadavg()]}
        result.update(championship(quick="--quick" in sys.argv))
        result["load_average_after"] = [round(x, 1) for x in os.getloadavg()]
        print(json.dumps(result, indent=2))
    else:
        print(json.dumps(run(quick="--quick" in sys.argv), indent=2))
