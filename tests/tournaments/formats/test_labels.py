"""Slot labels: what people read instead of slot keys."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.labels import SHORT_STAGE, bracket_key_labels, short_label, slot_label


@pytest.mark.parametrize(
    ("kind", "number", "slot", "rounds", "matches", "expected"),
    [
        ("consolation", 1, 1, 3, 4, "Consolation, round 1, match 2"),
        ("main", 1, 0, 4, 8, "Main, round 1, match 1"),
        ("main", 3, 1, 4, 2, "Semi-final 2"),
        ("main", 4, 0, 4, 1, "Final"),
        ("main", 1, 0, 1, 1, "Final"),
        ("consolation", 3, 0, 3, 1, "Consolation final"),
        ("last_chance", 2, 0, 3, 2, "Last chance semi-final 1"),
        ("grand_final", 1, 0, 2, 1, "Grand final"),
        ("swiss", 3, 6, 3, 5, "Round 3, board 7"),
    ],
)
def test_labels(kind, number, slot, rounds, matches, expected):
    label = slot_label(
        stage_kind=kind,
        round_number=number,
        slot=slot,
        rounds_in_stage=rounds,
        matches_in_round=matches,
    )
    assert label == expected


def test_round_robin_and_byes():
    kw: dict[str, Any] = {"round_number": 2, "slot": 0, "rounds_in_stage": 3, "matches_in_round": 2}
    assert slot_label(stage_kind="round_robin", group=2, **kw) == "Group 2, round 2, board 1"
    assert slot_label(stage_kind="swiss", bye=True, **kw) == "Round 2, bye"


def test_bracket_keys_are_named_from_the_whole_bracket():
    keys = [f"main-r1-m{i}" for i in range(1, 5)] + ["main-r2-m1", "main-r2-m2", "main-r3-m1"]
    keys += ["consolation-r1-m1", "consolation-r1-m2", "consolation-r2-m1", "swiss-r1-b1"]
    labels = bracket_key_labels(keys)
    assert labels["main-r1-m4"] == "Main, round 1, match 4"
    assert labels["main-r2-m2"] == "Semi-final 2"
    assert labels["main-r3-m1"] == "Final"
    assert labels["consolation-r1-m2"] == "Consolation semi-final 2"
    assert labels["consolation-r2-m1"] == "Consolation final"
    assert labels["swiss-r1-b1"] == "swiss-r1-b1"  # not a bracket key: kept as it is


def test_bracket_columns_name_the_last_rounds():
    from tournaments.formats.labels import round_title

    titles = [
        round_title(stage_kind="main", round_number=n, rounds_in_stage=5) for n in range(1, 6)
    ]
    assert titles == ["Round 1", "Round 2", "Quarter-finals", "Semi-finals", "Final"]
    assert round_title(stage_kind="consolation", round_number=3, rounds_in_stage=3) == (
        "Consolation final"
    )
    assert round_title(stage_kind="swiss", round_number=4, rounds_in_stage=4) == "Round 4"


@pytest.mark.parametrize(
    ("stage_kind", "round_number", "slot", "group", "short"),
    [
        ("main", 1, 2, 0, "M1-3"),
        ("consolation", 2, 0, 0, "C2-1"),
        ("last_chance", 1, 1, 0, "L1-2"),
        ("winners", 3, 0, 0, "W3-1"),
        ("losers", 2, 3, 0, "LB2-4"),
        ("grand_final", 1, 0, 0, "GF"),
        ("grand_final", 2, 0, 0, "GF2"),
        ("swiss", 4, 6, 0, "R4-7"),
        ("round_robin", 1, 2, 2, "G2 R1-3"),
        ("playoff", 1, 0, 0, "P1-1"),
    ],
)
def test_short_labels_for_the_big_screen(stage_kind, round_number, slot, group, short):
    assert (
        short_label(stage_kind=stage_kind, round_number=round_number, slot=slot, group=group)
        == short
    )


@given(
    st.sampled_from(sorted(SHORT_STAGE)),
    st.integers(1, 12),
    st.integers(0, 255),
    st.integers(0, 16),
)
def test_a_short_label_is_short_and_names_its_slot(stage_kind, round_number, slot, group):
    label = short_label(stage_kind=stage_kind, round_number=round_number, slot=slot, group=group)
    assert len(label) <= 11 and " " not in label.replace(f"G{group} ", "")
    if stage_kind != "grand_final":
        assert label.endswith(f"{round_number}-{slot + 1}")
