"""Single elimination, consolation, last chance and the bracket engine (docs/rules.md,
"Tournaments")."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.bracket_engine import (
    MatchStatus,
    derive_bracket_state,
    play_event,
)
from tournaments.formats.bracket_graph import Bye, LoserOf, Seed, Stage, WinnerOf, playable_matches
from tournaments.formats.drop_maps import drop_map_preview, feed_note
from tournaments.formats.elimination import FeedOrder, build_single_elimination
from tournaments.formats.errors import FormatError


def random_winner(seed: int):
    rng = random.Random(seed)
    return lambda match, a, b: rng.choice((a, b))


def assert_once_per_round(result) -> None:
    seen: Counter[tuple[object, int, object]] = Counter()
    for state in result.played:
        for player in (state.player_a, state.player_b):
            seen[(state.match.stage, state.match.round, player)] += 1
    assert max(seen.values(), default=1) == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=600), st.integers(min_value=0, max_value=10**6))
def test_single_elimination_plays_entries_minus_one_matches(entries, seed):
    graph = build_single_elimination(entries)
    result = play_event(graph, list(range(entries)), random_winner(seed))
    assert len(result.played) == entries - 1  # byes are not matches
    losers = [s.loser for s in result.played]
    assert len(set(losers)) == entries - 1
    assert result.champion is not None and result.champion not in losers
    assert_once_per_round(result)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=3, max_value=600), st.integers(min_value=0, max_value=10**6))
def test_progressive_consolation_gives_every_first_round_loser_a_match(entries, seed):
    last_chance = (1,) if entries >= 4 else ()  # 3 entries: one consolation match, no more
    graph = build_single_elimination(entries, consolation_from=(1, 2), last_chance_from=last_chance)
    result = play_event(graph, list(range(entries)), random_winner(seed))
    main_r1_losers = {
        s.loser for s in result.played if s.match.stage == Stage.MAIN and s.match.round == 1
    }
    consolation_players = {
        p
        for s in result.played
        if s.match.stage == Stage.CONSOLATION
        for p in (s.player_a, s.player_b)
    }
    assert main_r1_losers <= consolation_players
    assert_once_per_round(result)
    # each fed bracket produces exactly one winner, and main has one champion
    assert result.state.stage_winners[Stage.MAIN] == result.champion
    assert result.state.stage_winners[Stage.CONSOLATION] is not None
    # a consolation match is between players who lost in main
    main_losers = {s.loser for s in result.played if s.match.stage == Stage.MAIN}
    assert consolation_players <= main_losers


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=4, max_value=300), st.integers(min_value=0, max_value=10**6))
def test_first_round_consolation_only(entries, seed):
    """Milwaukee: only first-round losers go to the consolation, which is not progressive."""
    graph = build_single_elimination(entries, consolation_from=(1,))
    result = play_event(graph, list(range(entries)), random_winner(seed))
    r1_losers = [
        s.loser for s in result.played if s.match.stage == Stage.MAIN and s.match.round == 1
    ]
    consolation = [s for s in result.played if s.match.stage == Stage.CONSOLATION]
    assert len(consolation) == max(0, len(r1_losers) - 1)
    if len(r1_losers) >= 2:
        assert {p for s in consolation for p in (s.player_a, s.player_b)} == set(r1_losers)


def test_eight_player_bracket_wiring():
    graph = build_single_elimination(8, consolation_from=(1, 2))
    main = graph.rounds(Stage.MAIN)
    assert [len(r) for r in main] == [4, 2, 1]
    assert main[0][0].sides == (Seed(1), Seed(8))
    assert main[1][0].sides == (WinnerOf("main-r1-m1"), WinnerOf("main-r1-m2"))
    assert graph.winner_destination("main-r1-m2").match == "main-r2-m1"
    consolation = graph.rounds(Stage.CONSOLATION)
    assert [len(r) for r in consolation] == [2, 2, 1]
    # round 1: losers of adjacent main matches; round 2: drop-ins reversed
    assert consolation[0][0].sides == (LoserOf("main-r1-m1"), LoserOf("main-r1-m2"))
    assert consolation[1][0].sides == (WinnerOf("consolation-r1-m1"), LoserOf("main-r2-m2"))
    assert graph.loser_destination("main-r3-m1") is None


def test_five_players_first_round_bye_and_consolation_bye():
    """Portland, Apr 2023: a 5-player bracket had a first-round bye and a consolation bye."""
    graph = build_single_elimination(5, consolation_from=(1, 2))
    assert graph.match("main-r1-m2").sides == (Seed(4), Seed(5))
    assert graph.match("main-r1-m1").sides == (Seed(1), Bye())
    result = play_event(graph, ["A", "B", "C", "D", "E"], lambda m, a, b: min(a, b))
    statuses = Counter((s.match.stage, s.status) for s in result.state.matches.values())
    assert statuses[(Stage.MAIN, MatchStatus.WALKOVER)] == 3
    assert statuses[(Stage.CONSOLATION, MatchStatus.WALKOVER)] >= 1
    assert len(result.played) == 4 + 2  # main 4 matches, consolation of 3 players 2


def test_correcting_a_result_marks_later_results_stale():
    graph = build_single_elimination(4)
    entries = ["A", "B", "C", "D"]
    winners = {"main-r1-m1": "A", "main-r1-m2": "B", "main-r2-m1": "A"}
    assert derive_bracket_state(graph, entries, winners).champion == "A"
    corrected = {**winners, "main-r1-m1": "D"}
    state = derive_bracket_state(graph, entries, corrected)
    assert state.stale == ("main-r2-m1",)
    assert state.matches["main-r2-m1"].status == MatchStatus.READY
    assert state.champion is None


def test_state_reports_ready_and_waiting():
    graph = build_single_elimination(6)
    state = derive_bracket_state(graph, list("ABCDEF"), {})
    assert [s.match.key for s in state.ready()] == ["main-r1-m2", "main-r1-m3"]
    assert state.matches["main-r2-m1"].status == MatchStatus.WAITING
    assert state.matches["main-r2-m1"].player_a == "A"  # the bye already went through
    assert not state.finished


def test_last_chance_needs_a_consolation():
    with pytest.raises(FormatError):
        build_single_elimination(8, last_chance_from=(1,))
    with pytest.raises(FormatError):
        build_single_elimination(8, consolation_from=(4,))


@pytest.mark.parametrize("entries", [8, 16, 32, 64, 128])
def test_alternating_feed_order_has_fewer_possible_rematches(entries):
    straight = build_single_elimination(
        entries, consolation_from=(1, 2, 3), feed_orders=(FeedOrder.STRAIGHT,)
    )
    default = build_single_elimination(entries, consolation_from=(1, 2, 3))
    assert (
        drop_map_preview(default).possible_rematches < drop_map_preview(straight).possible_rematches
    )


def test_drop_map_preview_lists_every_loser():
    graph = build_single_elimination(16, consolation_from=(1, 2))
    preview = drop_map_preview(graph)
    assert len(preview.drops) == len(graph)
    by_match = {d.match: d for d in preview.drops}
    assert by_match["main-r1-m1"].to_stage == Stage.CONSOLATION
    assert by_match["main-r2-m1"].to_round == 2
    assert by_match["main-r3-m1"].to_match is None
    # the main bracket alone can never produce a rematch
    assert not any(k.startswith("main") for k in preview.possible_rematch_matches)
    # and with the default alternation the first consolation rounds have none either
    assert not any(
        k.startswith(("consolation-r1", "consolation-r2")) for k in preview.possible_rematch_matches
    )


CONSOLATIONS = [(1,), (1, 2), (1, 2, 3)]
LAST_CHANCES = [(1,), (1, 2), (2,)]


SIZES = sorted(
    {*range(2, 140), *range(140, 601, 13), *(n + d for n in (256, 512) for d in (-1, 0, 1)), 600}
)
"""Every size up to 139, then a stride to 600 with the sizes around powers of two."""


def expected_last_chance_error(consolation_graph, entries: int, last_chance: tuple) -> bool:
    """Whether a last chance is impossible, judged from the consolation alone.

    Counted independently of the builder: the consolation's rounds that can hold a match,
    and how many losers they can send from the first round asked for onwards.
    """
    playable = playable_matches(consolation_graph.matches, entries)
    real = [
        r for r in consolation_graph.rounds(Stage.CONSOLATION) if any(playable[m.key] for m in r)
    ]
    if max(last_chance) > len(real):
        return True
    from_first = real[min(last_chance) - 1 :]
    return sum(playable[m.key] for r in from_first for m in r) < 2


@pytest.mark.parametrize("consolation", CONSOLATIONS)
def test_every_size_last_chance_gets_a_match_or_is_refused(consolation):
    """2..600 entries: a last chance that exists can hold a match; otherwise it is refused.

    Issue 13: with 24 entries the first consolation round is walkovers only, and a last
    chance fed by it was built empty.
    """
    for entries in SIZES:
        try:
            alone = build_single_elimination(entries, consolation_from=consolation)
        except FormatError:
            continue  # too few main rounds for this consolation: nothing to feed
        for last_chance in LAST_CHANCES:
            expected_error = expected_last_chance_error(alone, entries, last_chance)
            try:
                graph = build_single_elimination(
                    entries, consolation_from=consolation, last_chance_from=last_chance
                )
            except FormatError as error:
                assert expected_error, (entries, last_chance, error)
                continue
            assert not expected_error, (entries, last_chance)
            playable = playable_matches(graph.matches, entries)
            last = graph.stage_matches(Stage.LAST_CHANCE)
            assert any(playable[m.key] for m in last), (entries, last_chance)
            feed = graph.feeds[-1]
            assert feed.stage == Stage.LAST_CHANCE and len(feed.rounds) >= len(feed.asked)
            # every round used can hold a match: no round of walkovers feeds it
            consolation_rounds = graph.rounds(Stage.CONSOLATION)
            for r in feed.rounds:
                assert any(playable[m.key] for m in consolation_rounds[r - 1]), (entries, r)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=600),
    st.sampled_from(CONSOLATIONS),
    st.sampled_from([(), *LAST_CHANCES]),
    st.integers(min_value=0, max_value=10**6),
)
def test_fed_brackets_receive_players_and_paths_stay_consistent(
    entries, consolation, last_chance, seed
):
    try:
        graph = build_single_elimination(
            entries, consolation_from=consolation, last_chance_from=last_chance
        )
    except FormatError:
        assert last_chance or entries < 4
        return
    result = play_event(graph, list(range(entries)), random_winner(seed))
    assert_once_per_round(result)
    assert len({s.loser for s in result.played if s.match.stage == Stage.MAIN}) == entries - 1
    by_stage = {
        stage: [s for s in result.played if s.match.stage == stage] for stage in graph.stages
    }
    main_losers = {s.loser for s in by_stage[Stage.MAIN]}
    consolation_players = {
        p for s in by_stage.get(Stage.CONSOLATION, []) for p in (s.player_a, s.player_b)
    }
    assert consolation_players <= main_losers
    if last_chance:
        played = by_stage.get(Stage.LAST_CHANCE, [])
        assert played, "the last chance received nobody"
        fed_rounds = set(graph.feeds[-1].rounds)
        fed = {s.loser for s in by_stage[Stage.CONSOLATION] if s.match.round in fed_rounds}
        entrants = {p for s in played for p in (s.player_a, s.player_b)}
        assert entrants <= fed  # only losers of the feeding rounds
        assert len(played) == len(fed) - 1  # and all of them play it out to one winner
        assert result.state.stage_winners[Stage.LAST_CHANCE] in fed


def test_twenty_four_entries_last_chance_takes_the_first_round_with_matches():
    """24 entries: consolation round 1 is all walkovers, so round 2 feeds the last chance."""
    graph = build_single_elimination(24, consolation_from=(1, 2), last_chance_from=(1,))
    playable = playable_matches(graph.matches, 24)
    assert not any(playable[m.key] for m in graph.rounds(Stage.CONSOLATION)[0])
    (feed,) = [f for f in graph.feeds if f.stage == Stage.LAST_CHANCE]
    assert (feed.asked, feed.rounds) == ((1,), (2,))
    note = feed_note(feed)
    assert "consolation round 2" in note and "Asked: round 1" in note
    result = play_event(graph, list(range(24)), random_winner(3))
    assert len([s for s in result.played if s.match.stage == Stage.LAST_CHANCE]) == 8 - 1
    preview = drop_map_preview(graph)
    assert preview.feeds == graph.feeds
