"""Benchmark: pure Swiss pairing (tournaments.formats.swiss) on a big field.

``docs/rules.md``, "Swiss pairing" (optimal pairing by minimum-cost perfect matching;
never a rematch when one can be avoided). Simulates a
1,024-player Swiss over 10 rounds, results drawn by the FIBS/Elo win probability of
the players' ratings, and reports the slowest round's pairing time (target < 1.5 s on
the 2-core machine), the rematches (must be 0), and how far the sparse graph is from
the optimum: every round is checked against the penalty's lower bounds (no rematch,
the rightful bye, the smallest score gaps the groups allow), and a smaller event is
paired both on the sparse and on the complete graph to compare total penalties.
``quick`` shrinks the event for a smoke run.
"""

from __future__ import annotations

import random
import time

from tournaments.formats.swiss import (
    SwissPlayer,
    min_score_gap,
    pair_swiss_round,
)


def simulate_swiss(
    players: int, rounds: int, *, seed: int = 2024, compare_full_graph: bool = False
) -> dict:
    """Play a Swiss with rating-weighted random results; time each round's pairing."""
    rng = random.Random(seed)
    rating = {i: rng.gauss(1500.0, 200.0) for i in range(players)}
    wins = dict.fromkeys(range(players), 0)
    met: dict[int, set[int]] = {i: set() for i in range(players)}
    byes = dict.fromkeys(range(players), 0)
    times: list[float] = []
    rematches = 0
    widenings = 0
    bound_met = 0
    penalty_sparse = penalty_full = 0
    for _ in range(rounds):
        order = sorted(range(players), key=lambda i: (-wins[i], -rating[i]))
        field = [SwissPlayer(i, wins[i], 0, frozenset(met[i]), byes[i]) for i in order]
        started = time.perf_counter()
        result = pair_swiss_round(field)
        times.append(time.perf_counter() - started)
        rematches += result.breakdown.rematches
        widenings += result.widenings
        bound_met += (
            result.breakdown.rematches == 0
            and result.breakdown.bye_rank == 0
            and result.breakdown.score_gap == min_score_gap(field, result.bye)
        )
        if compare_full_graph:
            penalty_sparse += result.penalty
            penalty_full += pair_swiss_round(field, full_graph=True).penalty
        for a, b in result.pairs:
            met[a].add(b)
            met[b].add(a)
            p_a = 1.0 / (1.0 + 10 ** ((rating[b] - rating[a]) / 400.0))
            wins[a if rng.random() < p_a else b] += 1
        if result.bye is not None:
            wins[result.bye] += 1
            byes[result.bye] += 1
    report = {
        "players": players,
        "rounds": rounds,
        "slowest_round_s": round(max(times), 3),
        "round_times_s": [round(t, 3) for t in times],
        "rematches": rematches,
        "widenings": widenings,
        "rounds_at_lower_bound": f"{bound_met}/{rounds}",
    }
    if compare_full_graph:
        report["penalty_sparse"] = penalty_sparse
        report["penalty_full_graph"] = penalty_full
    return report


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    """The 1,024 × 10 figure, an odd field (byes, floats) and a full-graph comparison."""
    size, odd, check = (128, 101, 40) if quick else (1024, 1001, 128)
    main = simulate_swiss(size, 10 if not quick else 7)
    odd_field = simulate_swiss(odd, 10 if not quick else 7, seed=7)
    small = simulate_swiss(check, 7, seed=11, compare_full_graph=True)
    return {
        "players": main["players"],
        "rounds": main["rounds"],
        "slowest_round_s": main["slowest_round_s"],
        "target_s": 1.5,
        "round_times_s": main["round_times_s"],
        "rematches": main["rematches"] + odd_field["rematches"] + small["rematches"],
        "rounds_at_lower_bound": main["rounds_at_lower_bound"],
        "odd_field": {
            k: odd_field[k]
            for k in (
                "players",
                "slowest_round_s",
                "rematches",
                "widenings",
                "rounds_at_lower_bound",
            )
        },
        "full_graph_check": {
            "players": check,
            "penalty_sparse": small["penalty_sparse"],
            "penalty_full_graph": small["penalty_full_graph"],
            "equal": small["penalty_sparse"] == small["penalty_full_graph"],
        },
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
