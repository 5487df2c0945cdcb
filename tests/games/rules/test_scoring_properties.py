"""Match scoring over random match histories (docs/rules.md, "Match play" and
"Crawford and post-Crawford games"; docs/transcripts-format.md section 2): every valid
history obeys the match rules, any history is accepted or refused with a rule."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.errors import RuleViolation
from games.rules.scoring import (
    GameRecord,
    MatchRules,
    MatchState,
    check_final_score,
    game_points,
    record_next_game,
    replay_match,
    start_match,
)
from games.rules.types import Ending, Level

A, B = 0, 1
SINGLE = GameRecord(winner=A)


def crawford_flags(state: MatchState) -> list[tuple[bool, bool]]:
    return [(game.crawford, game.post_crawford) for game in state.games]


@st.composite
def valid_game(draw: st.DrawFn, state: MatchState) -> GameRecord:
    """A game the rules allow in ``state``: no cube in the Crawford game, within limits."""
    winner = draw(st.sampled_from([A, B]))
    # a match (never a session) can be resigned, in any game: it is then the last one
    endings = [
        e
        for e in Ending
        if e is not Ending.LATE_PENALTY  # not a game: see test_penalty_scoring.py
        and (e is not Ending.MATCH_RESIGNED or state.rules.length > 0)
    ]
    ending = draw(st.sampled_from(endings))
    limit = state.rules.cube_limit or 64
    if ending is Ending.DROPPED and (state.next_game_is_crawford or limit == 1):
        ending = Ending.PLAYED  # no double can be offered, so none can be dropped
    if state.next_game_is_crawford:
        cube = 1
    else:
        top = limit // 2 if ending is Ending.DROPPED else limit
        cube = draw(st.sampled_from([c for c in (1, 2, 4, 8, 16, 32, 64) if c <= top]))
    if cube == 1:
        owner = None
    elif ending is Ending.DROPPED:
        owner = winner  # only the cube's owner could make the refused redouble
    else:
        owner = draw(st.sampled_from([A, B]))
    single_only = ending in (Ending.DROPPED, Ending.MATCH_RESIGNED)
    level = Level.SINGLE if single_only else draw(st.sampled_from(list(Level)))
    with_points = draw(st.booleans())
    record = GameRecord(winner=winner, cube=cube, cube_owner=owner, ending=ending, level=level)
    if with_points:
        points = (
            state.rules.length - state.score[winner]
            if ending is Ending.MATCH_RESIGNED
            else game_points(record)
        )
        record = dataclasses.replace(record, points=points)
    return record


match_rules = st.builds(
    MatchRules,
    length=st.integers(min_value=0, max_value=15),
    crawford=st.booleans(),
    cube_limit=st.sampled_from([None, 1, 2, 4, 64]),
)


@st.composite
def match_history(draw: st.DrawFn) -> tuple[MatchRules, list[GameRecord]]:
    rules = draw(match_rules)
    state = start_match(rules)
    records: list[GameRecord] = []
    for _ in range(draw(st.integers(min_value=0, max_value=40))):
        if state.finished:
            break
        record = draw(valid_game(state))
        records.append(record)
        state = record_next_game(state, record)
    return rules, records


def _gnubg_live_flags(rules: MatchRules, state: MatchState) -> list[tuple[bool, bool]]:
    """gnubg's live engine rule (play.c 1811-1813), an independent oracle.

    After each game: ``post |= crawford && winner_score < N``;
    ``crawford = !post && !crawford && winner_score == N-1 && loser_score != N-1``.
    """
    n = rules.length
    crawford = post = False
    flags = []
    for game in state.games:
        flags.append((crawford, post))
        won = game.score_after[game.record.winner]
        lost = game.score_after[1 - game.record.winner]
        post = post or (crawford and won < n)
        crawford = (
            rules.crawford
            and n > 1
            and not post
            and not crawford
            and won == n - 1
            and lost != n - 1
        )
    return flags


@settings(max_examples=300, deadline=None)
@given(match_history())
def test_random_valid_matches_obey_the_match_rules(
    history: tuple[MatchRules, list[GameRecord]],
) -> None:
    rules, records = history
    state = replay_match(rules, records)
    n = rules.length

    # scores always equal the sum of points
    totals = [0, 0]
    for game in state.games:
        assert game.score_before == (totals[0], totals[1])
        if game.record.ending is Ending.MATCH_RESIGNED:  # the winner gets exactly N
            assert game.points == n - totals[game.record.winner] > 0
        else:
            assert game.points == game_points(game.record)
        totals[game.record.winner] += game.points
        assert game.score_after == (totals[0], totals[1])
    assert state.score == (totals[0], totals[1])
    assert state.next_game_number == len(records) + 1

    # at most one Crawford game, and none with the rule off, in a 1-point match, or a session
    crawford_games = [g.number for g in state.games if g.crawford]
    assert len(crawford_games) <= 1
    assert state.crawford_game == (crawford_games[0] if crawford_games else None)
    if not rules.crawford or n <= 1:
        assert crawford_games == []
        assert not any(g.post_crawford for g in state.games)

    # the Crawford game is the first game starting with exactly one player at N-1
    if rules.crawford and n > 1:
        one_away = [
            g.number
            for g in state.games
            if (g.score_before[0] == n - 1) != (g.score_before[1] == n - 1)
        ]
        assert crawford_games == one_away[:1]
    for game in state.games:
        assert game.post_crawford == (
            state.crawford_game is not None and game.number > state.crawford_game
        )
        if game.crawford:
            assert game.record.cube == 1 and game.record.cube_owner is None

    # gnubg's two formulations (import and live play) agree with ours
    assert crawford_flags(state) == _gnubg_live_flags(rules, state)

    # no game after the end; the match ends as soon as a player reaches N
    for game in state.games[:-1]:
        assert n == 0 or max(game.score_after) < n
    if n == 0:
        assert not state.finished and state.winner is None
    else:
        assert state.finished == (max(state.score) >= n)
        if state.finished:
            assert state.winner is not None and state.score[state.winner] >= n
            assert state.score[1 - state.winner] < n
            assert check_final_score(rules, state.score) == state.winner
            with pytest.raises(RuleViolation) as caught:
                record_next_game(state, SINGLE)
            assert caught.value.code == "game_after_match_end"


any_record = st.builds(
    GameRecord,
    winner=st.sampled_from([0, 1, 2, -1]),
    cube=st.sampled_from([0, 1, 2, 3, 4, 6, 8, 128]),
    cube_owner=st.sampled_from([None, 0, 1, 2]),
    ending=st.sampled_from(list(Ending)),
    level=st.sampled_from(list(Level)),
    points=st.one_of(st.none(), st.integers(min_value=0, max_value=30)),
)


@settings(max_examples=300, deadline=None)
@given(match_rules, st.lists(any_record, max_size=20))
def test_any_history_is_either_accepted_or_refused_with_a_rule(
    rules: MatchRules, records: list[GameRecord]
) -> None:
    try:
        state = replay_match(rules, records)
    except RuleViolation as error:
        assert error.code and error.message
        assert error.field is not None and error.field.startswith("games[")
    else:
        assert len(state.games) == len(records)
