"""Round robin: Berger tables, snake groups and the playoff (docs/rules.md, "Tournaments")."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.bracket_engine import play_event
from tournaments.formats.errors import FormatError
from tournaments.formats.round_robin import (
    berger_rounds,
    build_playoff,
    group_schedules,
    playoff_seeding,
    snake_groups,
)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=40))
def test_everyone_meets_everyone_exactly_once(n):
    rounds = berger_rounds(list(range(n)))
    assert len(rounds) == (n if n % 2 else n - 1)
    meetings = Counter(frozenset(pair) for r in rounds for pair in r.pairs)
    assert set(meetings) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
    assert set(meetings.values()) == {1}
    for r in rounds:
        playing = [p for pair in r.pairs for p in pair] + ([r.bye] if r.bye is not None else [])
        assert sorted(playing) == list(range(n))  # once per round
    byes = [r.bye for r in rounds if r.bye is not None]
    assert sorted(byes) == (list(range(n)) if n % 2 else [])


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=40))
def test_sides_are_balanced(n):
    first = Counter(a for r in berger_rounds(list(range(n))) for a, _ in r.pairs)
    second = Counter(b for r in berger_rounds(list(range(n))) for _, b in r.pairs)
    assert all(abs(first[p] - second[p]) <= 1 for p in range(n))


def test_four_players_berger_table():
    rounds = berger_rounds([1, 2, 3, 4])
    assert [r.pairs for r in rounds] == [
        ((1, 4), (2, 3)),
        ((4, 2), (3, 1)),
        ((3, 4), (1, 2)),
    ]


def test_snake_groups():
    assert snake_groups(list(range(1, 9)), 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake_groups(list(range(1, 11)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]
    with pytest.raises(FormatError):
        snake_groups([1, 2, 3], 2)


def test_two_groups_then_a_playoff_between_the_top_two_of_each():
    groups = snake_groups(list("ABCDEFGH"), 2)
    schedules = group_schedules(groups)
    assert [len(s) for s in schedules] == [3, 3]
    seeding = playoff_seeding([["A", "D"], ["B", "C"]], qualifiers=2)
    assert seeding == ["A", "B", "D", "C"]
    playoff = build_playoff(len(seeding))
    first_round = [m.sides for m in playoff.rounds(playoff.stages[0])[0]]
    result = play_event(playoff, seeding, lambda m, a, b: a)
    assert result.champion == "A"
    # winners never meet their own group's runner-up in the first playoff round
    assert [(s.player_a, s.player_b) for s in result.played][:2] == [("A", "C"), ("B", "D")]
    assert len(first_round) == 2
