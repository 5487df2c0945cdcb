"""Benchmark ``pairing``: a 1,024-player Swiss over 10 rounds (docs/rules.md, "Swiss pairing").

Each round is paired by :func:`tournaments.formats.swiss.pair_swiss_round` (the sparse
graph, solved with rustworkx's blossom) on rating-weighted random results, and the
same field is paired again on the complete graph (~520k edges) to get the optimum, so
the figure "total penalty against the optimum" is exact, not a bound. Reported: the
slowest round's pairing time (target < 1.5 s), rematches (must be 0), the summed
penalties, and a 1,001-player odd field (a bye every round). ``quick`` uses 128/101.
"""

from __future__ import annotations

from bench.pairing_pure import simulate_swiss


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    size, odd = (128, 101) if quick else (1024, 1001)
    main = simulate_swiss(size, 10, seed=2024, compare_full_graph=True)
    odd_field = simulate_swiss(odd, 10, seed=7)
    return {
        "players": size,
        "rounds": 10,
        "slowest_round_s": main["slowest_round_s"],
        "target_s": 1.5,
        "round_times_s": main["round_times_s"],
        "rematches": main["rematches"],
        "penalty_total": main["penalty_sparse"],
        "penalty_optimum": main["penalty_full_graph"],
        "penalty_over_optimum": main["penalty_sparse"] - main["penalty_full_graph"],
        "rounds_at_lower_bound": main["rounds_at_lower_bound"],
        "odd_field_players": odd,
        "odd_field_slowest_round_s": odd_field["slowest_round_s"],
        "odd_field_rematches": odd_field["rematches"],
    }
