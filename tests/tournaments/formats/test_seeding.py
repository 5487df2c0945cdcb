"""Seeding order and byes (docs/rules.md, "Seeding and byes")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.errors import FormatError
from tournaments.formats.seeding import (
    bracket_size,
    bye_count,
    first_round_pairs,
    seed_by_random_draw,
    seed_by_rating,
    seed_manually,
    seeds_with_byes,
    standard_seed_order,
)


def test_eight_seeds_meet_in_standard_order():
    assert first_round_pairs(8) == [(1, 8), (4, 5), (3, 6), (2, 7)]


def test_sixteen_seeds_meet_in_standard_order():
    assert first_round_pairs(16) == [
        (1, 16),
        (8, 9),
        (5, 12),
        (4, 13),
        (3, 14),
        (6, 11),
        (7, 10),
        (2, 15),
    ]


def test_two_and_four():
    assert standard_seed_order(2) == [1, 2]
    assert first_round_pairs(4) == [(1, 4), (2, 3)]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
def test_better_seeds_meet_only_when_the_bracket_says(size):
    """Seeds s and t (s < t) can meet no earlier than the round the standard order implies:
    the top 2^j seeds are all in different blocks of size / 2^j."""
    order = standard_seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    block = size
    top = 1
    while block >= 2:
        for start in range(0, size, block):
            assert sum(1 for s in order[start : start + block] if s <= top) <= 1
        block //= 2
        top *= 2


@pytest.mark.parametrize(
    ("entries", "size", "byes"), [(2, 2, 0), (3, 4, 1), (5, 8, 3), (10, 16, 6), (17, 32, 15)]
)
def test_bracket_size_and_byes(entries, size, byes):
    assert bracket_size(entries) == size
    assert bye_count(entries) == byes


def test_portland_ten_players_sixteen_slots_six_byes_to_the_top_seeds():
    assert seeds_with_byes(10) == [1, 5, 4, 3, 6, 2]
    real = [pair for pair in first_round_pairs(10) if pair[1] is not None]
    assert real == [(8, 9), (7, 10)]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=600))
def test_byes_go_to_the_top_seeds_and_never_meet(entries):
    pairs = first_round_pairs(entries)
    byes = [a for a, b in pairs if b is None]
    assert sorted(byes) == list(range(1, bye_count(entries) + 1))
    assert all(a is not None for a, _ in pairs)  # a pair has at most one bye
    seen = [s for pair in pairs for s in pair if s is not None]
    assert sorted(seen) == list(range(1, entries + 1))


def test_byes_are_spread_over_the_bracket():
    """With 4 byes in 16 slots, each quarter gets one."""
    pairs = first_round_pairs(12)
    quarters = [pairs[i : i + 2] for i in range(0, 8, 2)]
    assert [sum(1 for _, b in q if b is None) for q in quarters] == [1, 1, 1, 1]


def test_seed_by_rating_breaks_ties_by_entry_id():
    ratings = [(7, 1500.0), (3, 1600.0), (5, 1500.0), (1, 1400.0)]
    assert seed_by_rating(ratings) == [3, 5, 7, 1]
    assert seed_by_rating(list(reversed(ratings))) == [3, 5, 7, 1]


def test_manual_seeding_rejects_duplicates():
    assert seed_manually(["b", "a"]) == ["b", "a"]
    with pytest.raises(FormatError) as error:
        seed_manually(["a", "a"])
    assert error.value.code == "duplicate_entry"


def test_random_draw_is_reproducible_and_order_independent():
    entries = list(range(20))
    first = seed_by_random_draw(entries, 42)
    assert first == seed_by_random_draw(list(reversed(entries)), random.Random(42))
    assert sorted(first) == entries
    assert first != seed_by_random_draw(entries, 43)


def test_a_bracket_needs_two_entries():
    with pytest.raises(FormatError):
        bracket_size(1)
