"""Winning chances at a score (docs/chances.md): the table for equal players, the
skill-shifted chain for players of different ratings, and its properties."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.datafiles import MET_DIR
from games.met_tables import CHOOSABLE_TABLES, default_table, load_table
from games.rules.errors import RuleViolation
from games.rules.fibs import win_probabilities
from games.rules.match_chances import match_winning_chance, pre_match_chance, skill_parameter
from games.rules.scoring import MatchRules, next_game_facts


def _kazaross_entries() -> tuple[list[list[float]], list[float]]:
    """The pre-Crawford rows and the post-Crawford row, read from the file's text."""
    text = (MET_DIR / "Kazaross-XG2.xml").read_text()
    pre, post = text.split("<post-crawford-table")
    rows = [
        [float(v) for v in re.findall(r"<me>([0-9.]+)</me>", row)] for row in pre.split("<row>")[1:]
    ]
    return rows, [float(v) for v in re.findall(r"<me>([0-9.]+)</me>", post)]


def _situations(length: int):
    """Every (score_a, score_b, crawford_game, post_crawford) a live match can be at."""
    rules = MatchRules(length)
    for score_a in range(length):
        for score_b in range(length):
            for crawford_played in (False, True):
                if crawford_played and length - 1 not in (score_a, score_b):
                    continue
                if crawford_played and length == 1:
                    continue
                crawford, post = next_game_facts(rules, (score_a, score_b), crawford_played)
                yield score_a, score_b, crawford, post


def test_equal_players_get_kazaross_xg2_at_every_score_of_a_25_point_match():
    rows, post = _kazaross_entries()
    table = default_table()
    seen = 0
    for score_a, score_b, crawford, post_crawford in _situations(25):
        away_a, away_b = 25 - score_a, 25 - score_b
        if post_crawford and away_a == 1 and away_b > 1:
            expected = 1 - post[away_b - 1]
        elif post_crawford and away_b == 1 and away_a > 1:
            expected = post[away_a - 1]
        else:
            expected = rows[away_a - 1][away_b - 1]
        for ratings in (
            {},
            {"rating_a": 1620.5, "rating_b": 1620.5},
            {"rating_a": None, "rating_b": 1800},
        ):
            chance = match_winning_chance(
                table,
                length=25,
                score_a=score_a,
                score_b=score_b,
                crawford_game=crawford,
                post_crawford=post_crawford,
                **ratings,
            )
            assert chance == expected, (score_a, score_b, crawford, post_crawford)
        seen += 1
    assert seen == 25 * 25 + 2 * 24 + 1  # every score, the Crawford and post-Crawford twins


def test_the_chain_itself_reproduces_the_table_as_the_gap_vanishes():
    """Not only the shortcut: a gap of a millionth of a point gives the table's entry."""
    table = default_table()
    for score_a, score_b, crawford, post in _situations(11):
        exact = match_winning_chance(
            table,
            length=11,
            score_a=score_a,
            score_b=score_b,
            crawford_game=crawford,
            post_crawford=post,
        )
        chain = match_winning_chance(
            table,
            length=11,
            score_a=score_a,
            score_b=score_b,
            crawford_game=crawford,
            post_crawford=post,
            rating_a=1500.000001,
            rating_b=1500.0,
        )
        assert chain == pytest.approx(exact, abs=1e-7)


@pytest.mark.parametrize("length", [1, 3, 7, 11, 25])
@pytest.mark.parametrize("gap", [-700, -150, 25, 400, 1500])
def test_at_0_0_the_chain_gives_the_fibs_probability(length, gap):
    table = default_table()
    chance = match_winning_chance(
        table,
        length=length,
        score_a=0,
        score_b=0,
        crawford_game=False,
        post_crawford=False,
        rating_a=1500 + gap,
        rating_b=1500,
    )
    fibs = win_probabilities(1500 + gap, 1500, length)[0]
    assert chance == pytest.approx(fibs, abs=1e-10)
    assert pre_match_chance(length=length, rating_a=1500 + gap, rating_b=1500) == fibs


def test_a_favourite_leading_is_likelier_than_the_table_says_and_the_underdog_less():
    table = default_table()
    kwargs: dict[str, Any] = dict(
        length=7, score_a=3, score_b=1, crawford_game=False, post_crawford=False
    )
    equal = match_winning_chance(table, **kwargs)
    assert match_winning_chance(table, **kwargs, rating_a=1700, rating_b=1500) > equal
    assert match_winning_chance(table, **kwargs, rating_a=1500, rating_b=1700) < equal


def test_finished_matches_are_certain():
    table = default_table()
    common: dict[str, Any] = dict(
        length=5, crawford_game=False, post_crawford=False, rating_a=1400, rating_b=1900
    )
    assert match_winning_chance(table, score_a=5, score_b=4, **common) == 1.0
    assert match_winning_chance(table, score_a=2, score_b=6, **common) == 0.0


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        (dict(length=0, score_a=0, score_b=0), "chances_length_invalid", "length"),
        (dict(length=31, score_a=0, score_b=0), "met_beyond_table", "length"),
        (dict(length=5, score_a=-1, score_b=0), "invalid_score", "score_a"),
        (dict(length=5, score_a=5, score_b=5), "invalid_score", "score_a"),
        (
            dict(length=5, score_a=1, score_b=0, crawford_game=True),
            "chances_crawford_invalid",
            "crawford_game",
        ),
        (
            dict(length=5, score_a=1, score_b=0, post_crawford=True),
            "chances_crawford_invalid",
            "post_crawford",
        ),
        (
            dict(length=5, score_a=4, score_b=0, crawford_game=True, post_crawford=True),
            "chances_crawford_invalid",
            "crawford_game",
        ),
    ],
)
def test_impossible_questions_are_refused_in_words(kwargs, code, field):
    kwargs = {"crawford_game": False, "post_crawford": False, **kwargs}
    with pytest.raises(RuleViolation) as caught:
        match_winning_chance(default_table(), **kwargs)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_a_table_with_a_favourite_is_refused():
    with pytest.raises(RuleViolation) as caught:
        match_winning_chance(
            load_table("jac050"),
            length=5,
            score_a=0,
            score_b=0,
            crawford_game=False,
            post_crawford=False,
        )
    assert caught.value.code == "met_asymmetric"


def test_crawford_off_match_point_is_valued_post_crawford():
    table = default_table()
    off = match_winning_chance(
        table, length=5, score_a=4, score_b=1, crawford_game=False, post_crawford=False
    )
    assert off == table.win_chance(1, 4, post_crawford=True)
    assert off < table.win_chance(1, 4)  # the trailer's free doubles make the leader's life harder


# -- properties ------------------------------------------------------------------------

TABLE_KEYS = sorted(CHOOSABLE_TABLES)


@st.composite
def situations(draw):
    key = draw(st.sampled_from(TABLE_KEYS))
    table = load_table(key)
    length = draw(st.integers(1, table.max_length))
    score_a = draw(st.integers(0, length - 1))
    score_b = draw(st.integers(0, length - 1))
    crawford_played = length > 1 and length - 1 in (score_a, score_b) and draw(st.booleans())
    return table, length, score_a, score_b, crawford_played


ratings = st.integers(800, 2600)


def _chance(table, length, score_a, score_b, crawford_played, rating_a, rating_b):
    crawford, post = next_game_facts(MatchRules(length), (score_a, score_b), crawford_played)
    return match_winning_chance(
        table,
        length=length,
        score_a=score_a,
        score_b=score_b,
        crawford_game=crawford,
        post_crawford=post,
        rating_a=rating_a,
        rating_b=rating_b,
    )


@settings(max_examples=120, deadline=None)
@given(situations(), ratings, ratings)
def test_chances_are_probabilities_and_the_two_sides_sum_to_one(situation, rating_a, rating_b):
    table, length, score_a, score_b, played = situation
    mine = _chance(table, length, score_a, score_b, played, rating_a, rating_b)
    theirs = _chance(table, length, score_b, score_a, played, rating_b, rating_a)
    assert 0.0 <= mine <= 1.0
    assert mine + theirs == pytest.approx(1.0, abs=1e-9)


@settings(max_examples=120, deadline=None)
@given(situations(), ratings, ratings, st.integers(1, 600))
def test_a_bigger_rating_gap_never_lowers_the_favourites_chance(
    situation, rating_a, rating_b, more
):
    table, length, score_a, score_b, played = situation
    before = _chance(table, length, score_a, score_b, played, rating_a, rating_b)
    after = _chance(table, length, score_a, score_b, played, rating_a + more, rating_b)
    assert after >= before - 1e-12


@settings(max_examples=150, deadline=None)
@given(situations(), ratings, ratings)
def test_another_point_never_lowers_your_chance(situation, rating_a, rating_b):
    """A's chance rises with A's score and falls with B's, the Crawford state carried
    along (a point that reaches match point makes the next game the Crawford game)."""
    table, length, score_a, score_b, played = situation
    here = _chance(table, length, score_a, score_b, played, rating_a, rating_b)
    if score_a + 1 < length:
        assert (
            _chance(table, length, score_a + 1, score_b, played, rating_a, rating_b) >= here - 1e-12
        )
    if score_b + 1 < length and (not played or length - 1 in (score_a, score_b + 1)):
        assert (
            _chance(table, length, score_a, score_b + 1, played, rating_a, rating_b) <= here + 1e-12
        )


def test_the_skill_parameter_grows_with_the_gap_and_is_zero_without_one():
    table = default_table()
    thetas = [
        skill_parameter(table, length=9, rating_a=1500 + gap, rating_b=1500)
        for gap in (-300, 0, 50, 300)
    ]
    assert thetas[1] == 0.0
    assert thetas == sorted(thetas)
