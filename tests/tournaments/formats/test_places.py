"""Finishing places of elimination events, in the prize order (issue 13, item 7)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.bracket_engine import MatchStatus, derive_bracket_state, play_event
from tournaments.formats.bracket_graph import Stage
from tournaments.formats.double_elimination import build_double_elimination
from tournaments.formats.elimination import build_single_elimination
from tournaments.formats.errors import FormatError
from tournaments.formats.places import (
    DEFAULT_PRIZE_ORDER,
    describe_prize_order,
    elimination_places,
    parse_prize_order,
)


def best_seed_wins(match, a, b):
    return min(a, b)


def random_winner(seed: int):
    rng = random.Random(seed)
    return lambda match, a, b: rng.choice((a, b))


def labels(places):
    return [(p.label, sorted(p.entries)) for p in places.places]


def test_eight_players_with_a_consolation_rank_by_place_not_by_wins():
    """The consolation winner (2 wins) stands below the main runner-up and semi-finalists."""
    graph = build_single_elimination(8, consolation_from=(1,))
    entries = list(range(1, 9))
    result = play_event(graph, entries, best_seed_wins)
    places = elimination_places(graph, result.state, entries)
    assert labels(places) == [
        ("1", [1]),
        ("2", [2]),
        ("3–4", [3, 4]),
        ("Consolation 1", [5]),
        ("Consolation 2", [6]),
        ("Consolation 3–4", [7, 8]),
    ]
    assert places.order == (1, 2, 3, 4, 5, 6, 7, 8)
    assert places.winner == 1
    assert places.place_of[3].position == places.place_of[4].position == 3
    wins = Counter(s.winner for s in result.played)
    assert wins[5] > wins[3]  # by match wins the consolation winner would stand above


def test_twenty_four_with_consolation_and_last_chance_places_everyone_once():
    graph = build_single_elimination(24, consolation_from=(1, 2), last_chance_from=(1,))
    entries = list(range(1, 25))
    result = play_event(graph, entries, best_seed_wins)
    places = elimination_places(graph, result.state, entries)
    assert [p.label for p in places.places][:8] == [
        "1",
        "2",
        "3–4",
        "5–8",
        "Consolation 1",
        "Consolation 2",
        "Last chance 1",
        "Last chance 2",
    ]
    assert sorted(places.order) == entries
    main = [e for p in places.places if p.block == "main" for e in p.entries]
    assert main == [1, 2, 3, 4, 5, 6, 7, 8]  # round-2+ main losers out; others fed on


def test_prize_order_is_configurable():
    graph = build_single_elimination(8, consolation_from=(1,))
    entries = list(range(1, 9))
    state = play_event(graph, entries, best_seed_wins).state
    places = elimination_places(graph, state, entries, ["main:2", "consolation:1", "main"])
    assert [p.label for p in places.places] == [
        "1",
        "2",
        "Consolation 1",
        "3–4",
        "Consolation 2",
        "Consolation 3–4",
    ]


def test_in_play_a_quarter_final_loser_is_five_to_eight():
    graph = build_single_elimination(8)
    entries = list("ABCDEFGH")
    first_round = {m.key: None for m in graph.rounds(Stage.MAIN)[0]}
    state = derive_bracket_state(graph, entries, {})
    winners = {
        key: state.matches[key].player_a for key in first_round
    }  # seeds in standard order: side A is the better seed
    state = derive_bracket_state(graph, entries, winners)
    places = elimination_places(graph, state, entries)
    assert labels(places) == [("5–8", sorted(s.loser for s in state.played()))]
    assert places.winner is None
    assert places.order[:4] == tuple(sorted(winners.values(), key=entries.index))


def test_double_elimination_places_come_from_the_grand_final_and_losers_bracket():
    graph = build_double_elimination(6)
    entries = list(range(1, 7))
    result = play_event(graph, entries, best_seed_wins)
    places = elimination_places(graph, result.state, entries)
    assert [p.label for p in places.places][:3] == ["1", "2", "3"]
    assert places.place_of[1].label == "1" and places.place_of[2].label == "2"
    assert sorted(places.order) == entries


def test_grand_final_reset_played_places_its_loser_second():
    graph = build_double_elimination(4)
    entries = [1, 2, 3, 4]

    def losers_champion_wins_finals(match, a, b):
        return b if match.stage == Stage.GRAND_FINAL and match.round == 1 else min(a, b)

    result = play_event(graph, entries, losers_champion_wins_finals)
    reset = result.state.matches["grand_final-r2-m1"]
    assert reset.status == MatchStatus.PLAYED
    places = elimination_places(graph, result.state, entries)
    assert places.place_of[reset.winner].label == "1"
    assert places.place_of[reset.loser].label == "2"


SIZES = st.integers(min_value=2, max_value=200)
CONFIGS = st.sampled_from([(), (1,), (1, 2)])


@settings(max_examples=60, deadline=None)
@given(SIZES, CONFIGS, st.booleans(), st.booleans(), st.integers(0, 10**6))
def test_every_player_has_one_place_and_ranges_tile_each_block(
    entries, consolation, last_chance, double, seed
):
    try:
        if double:
            graph = build_double_elimination(entries)
        else:
            graph = build_single_elimination(
                entries,
                consolation_from=consolation,
                last_chance_from=(1,) if last_chance and consolation else (),
            )
    except FormatError:
        return
    players = list(range(entries))
    result = play_event(graph, players, random_winner(seed))
    places = elimination_places(graph, result.state, players)
    assert sorted(places.order) == players
    placed = [e for p in places.places for e in p.entries]
    assert sorted(placed) == players  # a finished event places everyone, once
    assert places.place_of[result.champion].label == "1"
    for block in {p.block for p in places.places}:
        spans = sorted((p.first, p.last, len(p.entries)) for p in places.places if p.block == block)
        assert spans[0][0] == 1
        for (first, last, count), nxt in zip(spans, [*spans[1:], None], strict=True):
            assert last - first + 1 == count  # a shared range holds exactly its players
            if nxt is not None:
                assert nxt[0] == last + 1  # no gap, no overlap
    # every player's place follows their last match: a loser there, or its stage winner
    for player in players:
        place = places.place_of[player]
        if place.first == 1:
            continue
        last_match = [s for s in result.played if player in (s.player_a, s.player_b)][-1]
        assert last_match.loser == player


@settings(max_examples=40, deadline=None)
@given(SIZES, CONFIGS, st.integers(0, 10**6), st.floats(0, 1))
def test_partway_places_never_change_once_given(entries, consolation, seed, fraction):
    """A place given during the event is the place the player finishes in."""
    graph = build_single_elimination(entries, consolation_from=consolation if entries > 4 else ())
    players = list(range(entries))
    result = play_event(graph, players, random_winner(seed))
    keep = int(len(result.winners) * fraction)
    partial = dict(list(result.winners.items())[:keep])
    midway = elimination_places(graph, derive_bracket_state(graph, players, partial), players)
    final = elimination_places(graph, result.state, players)
    for player, place in midway.place_of.items():
        assert final.place_of[player].label == place.label


@pytest.mark.parametrize(
    "tokens",
    [["mian"], ["main", "main"], ["consolation:0"], ["consolation:x"], ["main:3", "main:2"], [3]],
)
def test_bad_prize_orders_are_refused_naming_the_field(tokens):
    with pytest.raises(FormatError) as error:
        parse_prize_order(tokens)
    assert error.value.field == "prize_order"


def test_prize_order_in_words():
    assert describe_prize_order(DEFAULT_PRIZE_ORDER) == (
        "main places, consolation 1–2, last chance 1–2, then the other places"
    )
    assert describe_prize_order([]) == describe_prize_order(DEFAULT_PRIZE_ORDER)
