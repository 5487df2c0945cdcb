"""N lives Swiss (pure): who is still in, who can still win, when the Swiss ends, who
plays the playoff, whole events played out, and the odds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.errors import FormatError
from tournaments.formats.n_lives import (
    check_n_lives,
    contenders,
    n_lives_is_finished,
    playoff_field,
    simulate_n_lives,
)
from tournaments.formats.registry import RecordsInput
from tournaments.formats.swiss import SwissPlayer, pair_swiss_round


def record(pid, wins, losses, opponents=(), byes=0):
    return SwissPlayer(pid, wins, losses, frozenset(opponents), byes)


# -- the configuration ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "code", "field"),
    [
        ({"max_losses": None, "playoff_qualifiers": 4}, "lives_too_few", "max_losses"),
        ({"max_losses": 1, "playoff_qualifiers": 4}, "lives_too_few", "max_losses"),
        ({"max_losses": 3, "playoff_qualifiers": 0}, "playoff_too_small", "playoff_qualifiers"),
        ({"max_losses": 3, "playoff_qualifiers": 1}, "playoff_too_small", "playoff_qualifiers"),
        (
            {"max_losses": 3, "playoff_qualifiers": 4, "bye_is_win": False},
            "bye_is_a_win",
            "bye_is_win",
        ),
    ],
)
def test_a_configuration_without_lives_a_playoff_or_byes_as_wins_is_refused(config, code, field):
    with pytest.raises(FormatError) as refused:
        check_n_lives(config)
    assert (refused.value.code, refused.value.field) == (code, field)


def test_three_lives_and_a_playoff_of_four_are_accepted():
    check_n_lives({"max_losses": 3, "playoff_qualifiers": 4, "bye_is_win": True})


# -- hand-worked cases ---------------------------------------------------------------------


def test_a_player_on_the_last_life_plays_on_but_is_no_contender():
    players = [record(1, 3, 0), record(2, 2, 1), record(3, 2, 2), record(4, 0, 3)]
    # three lives: 4 is out (three losses), 3 is on the last life (two losses)
    assert [p.id for p in contenders(players, 3)] == [1, 2]
    pairing = pair_swiss_round(players, max_losses=3)
    paired = {x for pair in pairing.pairs for x in pair}
    assert paired | {pairing.bye} == {1, 2, 3}  # 4 is out: neither paired nor given the bye


def test_the_swiss_ends_when_the_contenders_fit_the_playoff():
    five = [record(i, 2, 0) for i in range(5)] + [record(9, 1, 2)]
    assert not n_lives_is_finished(2, five, lives=3, playoff=4)
    four = [record(i, 3, 0) for i in range(4)] + [record(8, 2, 1 + 1), record(9, 1, 2)]
    assert n_lives_is_finished(3, four, lives=3, playoff=4)
    # never before the first round, even when the field is small
    assert not n_lives_is_finished(0, [record(i, 0, 0) for i in range(3)], lives=3, playoff=4)


def test_the_playoff_is_the_contenders_in_standings_order():
    players = [record(5, 4, 0), record(2, 3, 1), record(7, 3, 2), record(1, 2, 1)]
    assert playoff_field(players, lives=3, playoff=4) == [5, 2, 1]


def test_a_lone_contender_meets_the_best_of_the_rest_in_a_final():
    players = [record(5, 4, 0), record(2, 3, 2), record(7, 3, 2), record(1, 2, 3)]
    assert playoff_field(players, lives=3, playoff=4) == [5, 2]
    # nobody left below N-1 losses: the two best still in
    players = [record(2, 3, 2), record(7, 3, 2), record(1, 2, 3)]
    assert playoff_field(players, lives=3, playoff=4) == [2, 7]


# -- whole events --------------------------------------------------------------------------


def play_event(entries: int, lives: int, playoff: int, seed: int):
    """Pair and play rounds with random winners until the Swiss ends; the records."""
    rng = random.Random(seed)
    wins = dict.fromkeys(range(entries), 0)
    losses = dict.fromkeys(range(entries), 0)
    met: dict[int, set[int]] = {i: set() for i in range(entries)}
    byes = dict.fromkeys(range(entries), 0)
    played = 0
    rounds = []

    def records():
        ranked = sorted(range(entries), key=lambda i: (-wins[i], i))
        return [record(i, wins[i], losses[i], met[i], byes[i]) for i in ranked]

    while not n_lives_is_finished(played, records(), lives=lives, playoff=playoff):
        pairing = pair_swiss_round(records(), max_losses=lives)
        rounds.append(pairing)
        if pairing.bye is not None:
            wins[pairing.bye] += 1  # a bye is a win
            byes[pairing.bye] += 1
        for a, b in pairing.pairs:
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            wins[winner] += 1
            losses[loser] += 1
            met[a].add(b)
            met[b].add(a)
        played += 1
        assert played < 10 * entries  # every round puts at least one loss on the board
    return records(), rounds


@settings(max_examples=40, deadline=None)
@given(
    entries=st.integers(min_value=2, max_value=40),
    lives=st.integers(min_value=2, max_value=4),
    playoff=st.sampled_from([2, 4, 8]),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_every_event_ends_with_a_playoff_of_those_who_can_still_win(entries, lives, playoff, seed):
    final, rounds = play_event(entries, lives, playoff, seed)
    field = playoff_field(final, lives=lives, playoff=playoff)
    assert 1 <= len(field) <= max(playoff, 2)
    still_in = [p for p in final if p.losses < lives]
    if len(still_in) >= 2:
        assert len(field) >= 2
    can_win = contenders(final, lives)
    if len(can_win) >= 2:  # nobody on the last life goes through while two can win
        assert {p.id for p in can_win} == set(field)
    for pairing in rounds:  # nobody out is paired, nobody plays twice in a round
        seen = [x for pair in pairing.pairs for x in pair] + (
            [pairing.bye] if pairing.bye is not None else []
        )
        assert len(seen) == len(set(seen))


# -- odds ----------------------------------------------------------------------------------


def odds_input(wins, losses, current=(), lives=3, playoff=2, active=None):
    n = len(wins)
    even = np.full((n, n), 0.5)
    return RecordsInput(
        wins=wins,
        losses=losses,
        current=list(current),
        matrix=even,
        later=even,
        active=active or [True] * n,
        options={"max_losses": lives, "playoff_qualifiers": playoff},
    )


def test_the_odds_sum_to_one_and_nobody_out_or_on_the_last_life_can_win():
    # three lives, playoff of two: 0 and 1 contend, 2 is on the last life, 3 is out
    event = odds_input([3, 3, 2, 0], [0, 1, 2, 3])
    odds = simulate_n_lives(event, 2000, seed=1)
    assert odds.win.sum() == pytest.approx(1.0)
    assert odds.win[2] == 0 and odds.win[3] == 0
    assert odds.win[0] == pytest.approx(0.5, abs=0.05)
    assert odds.final is not None and odds.final[0] == odds.final[1] == 1.0


def test_the_odds_play_the_rest_of_the_swiss_first():
    event = odds_input([1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 1, 1], current=[(0, 1, 0.9)], playoff=2)
    progress: list[int] = []
    odds = simulate_n_lives(event, 3000, seed=2, progress=lambda done, total: progress.append(done))
    assert odds.win.sum() == pytest.approx(1.0)
    assert odds.win[0] > odds.win[1]  # 0 is the favourite of the match being played
    assert progress[-1] == 3000 and odds.places[:, 0].sum() == pytest.approx(1.0)


def test_a_withdrawn_player_cannot_win():
    event = odds_input([2, 2, 2, 2], [0, 0, 0, 0], playoff=2, active=[True, True, True, False])
    odds = simulate_n_lives(event, 1000, seed=3)
    assert odds.win[3] == 0
