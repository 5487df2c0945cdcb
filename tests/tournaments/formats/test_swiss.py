"""Swiss pairing: optimal by brute force on small fields, fast and rematch-free on big ones."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.errors import FormatError
from tournaments.formats.swiss import (
    SwissPlayer,
    active_players,
    min_score_gap,
    pair_swiss_round,
    pairing_penalty,
    rank_for_pairing,
    swiss_is_finished,
)


def all_pairings(ids):
    """Every way to pair ``ids`` (one bye when odd): (pairs, bye)."""
    if len(ids) % 2:
        for index, bye in enumerate(ids):
            rest = ids[:index] + ids[index + 1 :]
            for pairs, _ in all_pairings(rest):
                yield pairs, bye
        return
    if not ids:
        yield [], None
        return
    first, rest = ids[0], ids[1:]
    for index, partner in enumerate(rest):
        for pairs, _ in all_pairings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *pairs], None


@st.composite
def swiss_fields(draw, min_size=2, max_size=9):
    """A field with random wins, byes and a random (symmetric) history of meetings."""
    n = draw(st.integers(min_value=min_size, max_value=max_size))
    wins = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    byes = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    met = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n))
    opponents: dict[int, set[int]] = {i: set() for i in range(n)}
    for a, b in met:
        if a != b:
            opponents[a].add(b)
            opponents[b].add(a)
    players = [SwissPlayer(i, wins[i], 0, frozenset(opponents[i]), byes[i]) for i in range(n)]
    return rank_for_pairing(players)


@settings(max_examples=150, deadline=None)
@given(swiss_fields())
def test_pairing_penalty_equals_the_brute_force_optimum(players):
    result = pair_swiss_round(players)
    ids = [p.id for p in players]
    best = min(pairing_penalty(players, pairs, bye)[0] for pairs, bye in all_pairings(ids))
    assert result.penalty == best
    assert result.penalty == pairing_penalty(players, result.pairs, result.bye)[0]
    paired = [p for pair in result.pairs for p in pair] + (
        [result.bye] if result.bye is not None else []
    )
    assert sorted(paired) == sorted(ids)  # everyone exactly once


@settings(max_examples=150, deadline=None)
@given(swiss_fields())
def test_never_a_rematch_when_one_can_be_avoided(players):
    ids = [p.id for p in players]
    fewest = min(
        pairing_penalty(players, pairs, bye)[1].rematches for pairs, bye in all_pairings(ids)
    )
    assert pair_swiss_round(players).breakdown.rematches == fewest


@settings(max_examples=150, deadline=None)
@given(swiss_fields(min_size=3))
def test_bye_goes_to_the_lowest_ranked_without_one(players):
    """Among the byes that allow the fewest rematches, the lowest-ranked player who has
    had no bye gets it (a player with a bye gets a second only if all have had one)."""
    if len(players) % 2 == 0:
        players = players[:-1]
    ids = [p.id for p in players]
    options = [
        (pairing_penalty(players, pairs, bye)[1].rematches, bye) for pairs, bye in all_pairings(ids)
    ]
    fewest = min(r for r, _ in options)
    possible = {bye for r, bye in options if r == fewest}
    byes = {p.id: p.byes for p in players}
    least = min(byes[b] for b in possible)
    expected = [p.id for p in players if p.id in possible and byes[p.id] == least][-1]
    assert pair_swiss_round(players).bye == expected


def test_first_round_pairs_top_half_against_bottom_half():
    players = [SwissPlayer(i, 0) for i in range(8)]
    result = pair_swiss_round(players)
    assert result.pairs == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert result.penalty == 0


def test_odd_field_bye_to_the_last_player():
    players = [SwissPlayer(i, 0) for i in range(7)]
    assert pair_swiss_round(players).bye == 6
    players[6] = SwissPlayer(6, 1, byes=1)
    players = rank_for_pairing(players)
    assert pair_swiss_round(players).bye == 5


def test_an_odd_score_group_floats_one_player_down():
    players = rank_for_pairing(
        [SwissPlayer("a", 2), SwissPlayer("b", 1), SwissPlayer("c", 1), SwissPlayer("d", 1)]
    )
    result = pair_swiss_round(players)
    assert result.breakdown.floats == 1
    assert result.breakdown.score_gap == 1 == min_score_gap(players)
    assert result.pairs[0] == ("a", "b")  # the floater meets the top of the group below


def test_out_after_k_losses_leaves_eliminated_players_unpaired():
    players = [SwissPlayer(i, 2 - min(i, 2), losses=min(i, 2)) for i in range(6)]
    active = active_players(players, max_losses=2)
    assert [p.id for p in active] == [0, 1]
    result = pair_swiss_round(players, max_losses=2)
    assert result.pairs == ((0, 1),)
    assert swiss_is_finished(3, players, max_losses=1)
    assert not swiss_is_finished(3, players, rounds=5)
    assert swiss_is_finished(5, players, rounds=5)


def test_duplicate_players_are_refused():
    with pytest.raises(FormatError):
        pair_swiss_round([SwissPlayer(1, 0), SwissPlayer(1, 0)])


def simulate(n, rounds, seed, **options):
    rng = random.Random(seed)
    rating = {i: rng.gauss(1500, 200) for i in range(n)}
    wins = dict.fromkeys(range(n), 0)
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    byes = dict.fromkeys(range(n), 0)
    results = []
    for _ in range(rounds):
        order = sorted(range(n), key=lambda i: (-wins[i], -rating[i]))
        players = [SwissPlayer(i, wins[i], 0, frozenset(met[i]), byes[i]) for i in order]
        result = pair_swiss_round(players, **options)
        results.append((players, result))
        for a, b in result.pairs:
            met[a].add(b)
            met[b].add(a)
            wins[a if rng.random() < 0.5 else b] += 1
        if result.bye is not None:
            wins[result.bye] += 1
            byes[result.bye] += 1
    return results


@pytest.mark.parametrize(("n", "seed"), [(31, 1), (40, 2), (57, 3)])
def test_sparse_graph_matches_the_full_graph(n, seed):
    for players, sparse in simulate(n, 7, seed, neighbours=4):
        full = pair_swiss_round(players, full_graph=True)
        assert sparse.penalty == full.penalty
        assert sparse.breakdown.rematches == 0


def test_a_small_field_forced_into_a_rematch_says_so():
    """Four players after three rounds have met everyone: a rematch cannot be avoided."""
    ids = range(4)
    players = [SwissPlayer(i, 0, 0, frozenset(set(ids) - {i})) for i in ids]
    result = pair_swiss_round(players, neighbours=1)
    assert result.breakdown.rematches == 2
    assert result.widenings >= 1


@settings(max_examples=60, deadline=None)
@given(swiss_fields(min_size=2, max_size=40))
def test_rustworkx_and_networkx_find_equally_good_pairings(players):
    """rustworkx solves the matching; networkx stays as an independent cross-check."""
    fast = pair_swiss_round(players, full_graph=True)
    reference = pair_swiss_round(players, full_graph=True, solver="networkx")
    assert fast.penalty == reference.penalty


def test_unknown_solver_is_refused():
    players = [SwissPlayer(1, 0), SwissPlayer(2, 0)]
    with pytest.raises(FormatError) as error:
        pair_swiss_round(players, solver="scipy")
    assert error.value.code == "unknown_solver"
