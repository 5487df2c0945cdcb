"""The bodies' rules as pure code: WBGF qualification, ABT points, which matches count."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import RuleViolation
from tournaments.federation.rules import abt, matches, wbgf
from tournaments.federation.rules.people import Person, place_labels


def facts(**changes):
    base = {
        "players": 30,
        "knockout": True,
        "shortest_length": 9,
        "buy_in": Decimal(50),
        "currency": "EUR",
    }
    return wbgf.EventFacts(**{**base, **changes})


def failing(f):
    return [c.code for c in wbgf.checks(f) if not c.passed]


def test_an_event_on_every_threshold_qualifies():
    assert wbgf.qualifies(facts()) and failing(facts()) == []


@pytest.mark.parametrize(
    ("changes", "fails"),
    [
        ({"players": 29}, ["field_size"]),
        ({"shortest_length": 7}, ["match_length"]),  # a 7-point cup
        ({"knockout": False, "shortest_length": 7}, []),  # a 7-point round robin
        ({"knockout": False, "shortest_length": 5}, ["match_length"]),
        ({"shortest_length": 0}, ["match_length"]),
        ({"buy_in": Decimal("49.99")}, ["buy_in"]),
        ({"buy_in": None}, ["buy_in"]),
        ({"buy_in": Decimal(100), "currency": "DKK"}, ["buy_in"]),  # never converted
        ({"players": 12, "buy_in": Decimal(10)}, ["field_size", "buy_in"]),
    ],
)
def test_each_condition_fails_on_its_own(changes, fails):
    assert failing(facts(**changes)) == fails
    assert wbgf.qualifies(facts(**changes)) is (fails == [])


@given(
    players=st.integers(0, 200),
    knockout=st.booleans(),
    length=st.integers(0, 25),
    cents=st.integers(0, 20_000),
)
def test_qualifies_exactly_when_all_three_thresholds_hold(players, knockout, length, cents):
    buy_in = Decimal(cents) / 100
    expected = players >= 30 and length >= (9 if knockout else 7) and buy_in >= 50
    assert (
        wbgf.qualifies(
            facts(players=players, knockout=knockout, shortest_length=length, buy_in=buy_in)
        )
        is expected
    )


def test_places_share_the_first_rank_of_their_group():
    a, b, c, d, e = (Person(i, n) for i, n in enumerate("ABCDE"))
    assert place_labels([[a], [b], [d, c], [e]]) == [
        (1, "1", a),
        (2, "2", b),
        (3, "3-4", c),
        (3, "3-4", d),
        (5, "5", e),
    ]


def test_division_factors_are_one_half_and_a_quarter():
    assert abt.division_factor("open") == 1
    assert abt.division_factor("intermediate") == Decimal("0.5")
    assert abt.division_factor("novice") == Decimal("0.25")
    with pytest.raises(RuleViolation) as error:
        abt.division_factor("masters")
    assert error.value.code == "unknown_division" and error.value.field == "division"


def test_attendance_counts_unique_players():
    assert abt.attendance([1, 2, 2, 3, 1]) == 3


def test_first_is_worth_double_second_and_second_double_a_semi_final():
    awards = abt.abt_points("open", 16, [["w"], ["r"], ["s1", "s2"], ["q1", "q2", "q3", "q4"]])
    points = {a.person: a.points for a in awards}
    # factors 8, 4, 2, 1 over 15: the semi-finalists share 2 + 1
    assert points == {
        "w": Decimal("8.53"),
        "r": Decimal("4.27"),
        "s1": Decimal("1.60"),
        "s2": Decimal("1.60"),
    }
    halved = abt.abt_points("intermediate", 16, [["w"], ["r"], ["s1", "s2"]])
    assert [a.points for a in halved] == [
        Decimal("4.27"),
        Decimal("2.13"),
        Decimal("0.80"),
        Decimal("0.80"),
    ]


@st.composite
def placings(draw):
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=10))
    groups, n = [], 0
    for size in sizes:
        groups.append(list(range(n, n + size)))
        n += size
    return groups


@given(
    division=st.sampled_from(list(abt.DIVISIONS)),
    places=placings(),
    extra=st.integers(0, 50),
    awarded=st.integers(1, 16),
)
def test_abt_points_add_up_to_factor_times_attendance(division, places, extra, awarded):
    players = sum(len(g) for g in places) + extra
    awards = abt.abt_points(division, players, places, awarded=awarded)
    total = abt.DIVISIONS[division] * players
    placed = sum(len(g) for g in places)
    if placed >= awarded:  # every awarded rank is held: the whole total is handed out
        assert abs(sum(a.points for a in awards) - total) <= Decimal("0.005") * len(awards)
    else:
        assert sum(a.points for a in awards) <= total + Decimal("0.005") * len(awards)
    assert [a.points for a in awards] == sorted((a.points for a in awards), reverse=True)
    assert all(a.place <= awarded for a in awards)


def match(**changes):
    base = {
        "match_id": 1,
        "round_label": "Main, round 1",
        "played_on": None,
        "player1": "A",
        "player2": "B",
        "length": 9,
        "score1": 9,
        "score2": 3,
        "winner": "A",
        "status": "finished",
        "rated": True,
        "forfeit": False,
        "transcript": True,
    }
    return matches.MatchFacts(**{**base, **changes})


@pytest.mark.parametrize(
    ("changes", "ukbgf", "bmab", "wbif"),
    [
        ({}, None, None, None),
        ({"forfeit": True}, "forfeit", "forfeit", "forfeit"),
        ({"status": "forfeit"}, "forfeit", "forfeit", "forfeit"),
        ({"status": "in_progress", "winner": None}, "not_finished", "not_finished", "not_finished"),
        ({"status": "void", "winner": None}, "not_finished", "not_finished", "not_finished"),
        ({"rated": False}, "unrated", None, None),
        ({"length": 5, "score1": 5}, None, None, "too_short"),
        ({"length": 7, "score1": 7}, None, None, None),
        ({"transcript": False}, None, "no_transcript", "no_transcript"),
    ],
)
def test_which_matches_each_body_takes(changes, ukbgf, bmab, wbif):
    m = match(**changes)
    assert matches.ukbgf_exclusion(m) == ukbgf
    assert matches.bundle_exclusion(m, "bmab") == bmab
    assert matches.bundle_exclusion(m, "wbif") == wbif


def test_clock_faces():
    assert matches.clock_face(0) == "0:00"
    assert matches.clock_face(61_001) == "1:02"
    assert matches.clock_face(3_600_000) == "1:00:00"
