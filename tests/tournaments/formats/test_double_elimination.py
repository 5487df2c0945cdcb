"""Double elimination: two losses and you are out; the grand final and its reset."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.bracket_engine import MatchStatus, play_event
from tournaments.formats.bracket_graph import LoserOf, Stage, WinnerOf
from tournaments.formats.double_elimination import build_double_elimination
from tournaments.formats.drop_maps import drop_map_preview


def random_winner(seed: int):
    rng = random.Random(seed)
    return lambda match, a, b: rng.choice((a, b))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=600), st.integers(min_value=0, max_value=10**6))
def test_everyone_but_the_champion_is_out_by_exactly_their_second_loss(entries, seed):
    graph = build_double_elimination(entries, reset=True)
    result = play_event(graph, list(range(entries)), random_winner(seed))
    losses = Counter(s.loser for s in result.played)
    champion = result.champion
    assert champion is not None and losses[champion] <= 1
    assert all(losses[p] == 2 for p in range(entries) if p != champion)
    # nobody plays after their second loss, and nobody twice in one round
    seen_losses: Counter = Counter()
    per_round: Counter = Counter()
    for state in result.played:
        for player in (state.player_a, state.player_b):
            assert seen_losses[player] < 2
            per_round[(state.match.stage, state.match.round, player)] += 1
        seen_losses[state.loser] += 1
    assert max(per_round.values()) == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=300), st.integers(min_value=0, max_value=10**6))
def test_without_reset_one_champion_and_at_most_two_losses(entries, seed):
    graph = build_double_elimination(entries, reset=False)
    result = play_event(graph, list(range(entries)), random_winner(seed))
    losses = Counter(s.loser for s in result.played)
    assert result.champion is not None
    assert max(losses.values()) <= 2
    assert sum(1 for p in range(entries) if losses[p] < 2) <= 2  # champion, maybe runner-up


def test_losers_bracket_shape_for_eight():
    graph = build_double_elimination(8)
    assert [len(r) for r in graph.rounds(Stage.WINNERS)] == [4, 2, 1]
    # minor, major, minor, major
    assert [len(r) for r in graph.rounds(Stage.LOSERS)] == [2, 2, 1, 1]
    lb = graph.rounds(Stage.LOSERS)
    assert lb[1][0].sides == (WinnerOf("losers-r1-m1"), LoserOf("winners-r2-m2"))
    assert lb[3][0].sides == (WinnerOf("losers-r3-m1"), LoserOf("winners-r3-m1"))
    reset = graph.match("grand_final-r2-m1")
    assert reset.reset_of == "grand_final-r1-m1"


def test_reset_is_played_only_when_the_losers_champion_wins_the_first_final():
    graph = build_double_elimination(4)
    top_seed_wins = play_event(graph, list("ABCD"), lambda m, a, b: min(a, b))
    assert top_seed_wins.champion == "A"
    assert top_seed_wins.state.matches["grand_final-r2-m1"].status == MatchStatus.NOT_NEEDED

    def losers_champion_wins_first_final(match, a, b):
        if match.key == "grand_final-r1-m1":
            return b
        return min(a, b)

    reset = play_event(graph, list("ABCD"), losers_champion_wins_first_final)
    assert reset.state.matches["grand_final-r2-m1"].status == MatchStatus.PLAYED
    assert reset.champion == "A"  # A wins the reset


def test_double_elimination_drop_map_has_no_rematch_in_the_first_drop_rounds():
    preview = drop_map_preview(build_double_elimination(32))
    assert not any(
        key.startswith(("winners", "losers-r1-", "losers-r2-", "losers-r3-"))
        for key in preview.possible_rematch_matches
    )
    assert preview.possible_rematches > 0  # the late rounds cannot avoid every one
