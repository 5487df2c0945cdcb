"""Match scoring (docs/rules.md, "Match play" and "Crawford and post-Crawford games";
docs/transcripts-format.md section 2): table tests; random histories in
test_scoring_properties.py, real transcripts in test_scoring_transcripts.py."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.errors import RuleViolation
from games.rules.money import MoneyRules
from games.rules.scoring import (
    GameRecord,
    MatchRules,
    MatchState,
    check_final_score,
    game_points,
    next_game_facts,
    record_next_game,
    replay_match,
    start_match,
)
from games.rules.types import Ending, Level

A, B = 0, 1
DISAGREE = "points_disagree_with_cube_and_level"
SINGLE = GameRecord(winner=A)


def win(winner: int, points: int = 1) -> GameRecord:
    """A played game worth ``points`` with a centred cube: single, gammon or backgammon."""
    level = {1: Level.SINGLE, 2: Level.GAMMON, 3: Level.BACKGAMMON}[points]
    return GameRecord(winner=winner, level=level)


def doubled(winner: int, cube: int, owner: int, level: Level = Level.SINGLE) -> GameRecord:
    return GameRecord(winner=winner, cube=cube, cube_owner=owner, level=level)


def violation(rules: MatchRules, records: list[GameRecord]) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        replay_match(rules, records)
    return caught.value


def crawford_flags(state: MatchState) -> list[tuple[bool, bool]]:
    return [(game.crawford, game.post_crawford) for game in state.games]


# --- game value (docs/rules.md, "Game value") -------------------------------------------


@pytest.mark.parametrize(
    ("record", "points"),
    [
        (GameRecord(winner=A), 1),
        (GameRecord(winner=A, level=Level.GAMMON), 2),
        (GameRecord(winner=A, level=Level.BACKGAMMON), 3),
        (GameRecord(winner=B, cube=2, cube_owner=A), 2),
        (GameRecord(winner=B, cube=4, cube_owner=B, level=Level.GAMMON), 8),
        (GameRecord(winner=A, cube=8, cube_owner=A, level=Level.BACKGAMMON), 24),
        # a drop wins the cube before the refused double, always single
        (GameRecord(winner=A, ending=Ending.DROPPED), 1),
        (GameRecord(winner=A, cube=2, cube_owner=A, ending=Ending.DROPPED), 2),
        # a resignation scores its level times the cube
        (GameRecord(winner=A, ending=Ending.RESIGNED), 1),
        (GameRecord(winner=A, ending=Ending.RESIGNED, level=Level.GAMMON), 2),
        (GameRecord(winner=B, cube=2, cube_owner=A, ending=Ending.RESIGNED, level=Level.GAMMON), 4),
        (
            GameRecord(
                winner=B, cube=4, cube_owner=B, ending=Ending.RESIGNED, level=Level.BACKGAMMON
            ),
            12,
        ),
    ],
)
def test_game_is_worth_cube_times_level(record: GameRecord, points: int) -> None:
    assert game_points(record) == points
    assert game_points(GameRecord(**{**_fields(record), "points": points})) == points


def _fields(record: GameRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in record.__dataclass_fields__}


def test_backgammon_may_count_four_by_agreement() -> None:
    assert game_points(GameRecord(winner=A, level=Level.BACKGAMMON), backgammon_value=4) == 4
    with pytest.raises(RuleViolation):
        game_points(SINGLE, backgammon_value=5)


@pytest.mark.parametrize(
    ("record", "code", "field"),
    [
        (GameRecord(winner=2), "invalid_winner", "winner"),
        (GameRecord(winner=True), "invalid_winner", "winner"),
        (GameRecord(winner=A, cube=3, cube_owner=A), "cube_not_power_of_two", "cube"),
        (GameRecord(winner=A, cube=0), "cube_not_power_of_two", "cube"),
        (GameRecord(winner=A, cube=-2, cube_owner=A), "cube_not_power_of_two", "cube"),
        (GameRecord(winner=A, cube=2), "cube_owner_invalid", "cube_owner"),
        (GameRecord(winner=A, cube=1, cube_owner=A), "cube_owner_invalid", "cube_owner"),
        (GameRecord(winner=A, cube=2, cube_owner=2), "cube_owner_invalid", "cube_owner"),
        (
            GameRecord(winner=A, ending=Ending.DROPPED, level=Level.GAMMON),
            "dropped_game_is_single",
            "level",
        ),
        (
            GameRecord(winner=A, cube=2, cube_owner=B, ending=Ending.DROPPED),
            "double_by_non_owner",
            "cube_owner",
        ),
        (GameRecord(winner=A, level=Level.GAMMON, points=1), DISAGREE, "points"),
        (GameRecord(winner=A, cube=2, cube_owner=B, points=3), DISAGREE, "points"),
        (
            GameRecord(winner=A, cube=2, cube_owner=A, ending=Ending.DROPPED, points=4),
            DISAGREE,
            "points",
        ),
        (GameRecord(winner=A, points=True), DISAGREE, "points"),
        (GameRecord(winner=A, ending="conceded"), "invalid_ending", "ending"),  # type: ignore[arg-type]
        (GameRecord(winner=A, level="quadruple"), "invalid_level", "level"),  # type: ignore[arg-type]
        (
            GameRecord(winner=A, automatic_doubles=1, cube=2),
            "automatic_doubles_in_match",
            "automatic_doubles",
        ),
    ],
)
def test_impossible_game_is_refused_with_its_rule(
    record: GameRecord, code: str, field: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        game_points(record)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert caught.value.message


# --- the Crawford game (docs/rules.md; docs/transcripts-format.md section 2) ------------


@pytest.mark.parametrize(
    ("length", "score", "crawford_played", "expected"),
    [
        (7, (0, 0), False, (False, False)),
        (7, (6, 0), False, (True, False)),
        (7, (0, 6), False, (True, False)),
        (7, (6, 5), False, (True, False)),
        (7, (6, 6), False, (False, False)),  # N-1 all is not Crawford
        (7, (6, 3), True, (False, True)),
        (7, (6, 6), True, (False, True)),
        (7, (5, 5), False, (False, False)),
        (2, (1, 0), False, (True, False)),
        (2, (1, 1), True, (False, True)),
        (1, (0, 0), False, (False, False)),  # a 1-point match has none
        (0, (0, 0), False, (False, False)),  # an unlimited session has none
        (0, (7, 3), False, (False, False)),
    ],
)
def test_next_game_facts_follow_gnubg(
    length: int, score: tuple[int, int], crawford_played: bool, expected: tuple[bool, bool]
) -> None:
    assert next_game_facts(MatchRules(length), score, crawford_played) == expected


def test_crawford_off_never_has_crawford_or_post_crawford_game() -> None:
    rules = MatchRules(7, crawford=False)
    assert next_game_facts(rules, (6, 0), False) == (False, False)
    state = replay_match(rules, [win(A, 3), win(A, 3), doubled(B, 2, A), doubled(B, 4, A)])
    assert state.crawford_game is None
    assert crawford_flags(state) == [(False, False)] * 4
    assert state.score == (6, 6)


def test_crawford_game_in_two_point_match() -> None:
    state = replay_match(MatchRules(2), [win(B), win(A), win(A)])
    assert crawford_flags(state) == [(False, False), (True, False), (False, True)]
    assert state.crawford_game == 2
    assert (state.score, state.winner, state.finished) == ((2, 1), A, True)


def test_no_crawford_game_in_one_point_match() -> None:
    state = replay_match(MatchRules(1), [doubled(A, 2, B)])
    assert crawford_flags(state) == [(False, False)]
    assert (state.score, state.winner, state.crawford_game) == ((2, 0), A, None)


def test_no_crawford_game_when_starting_at_n_minus_one_all() -> None:
    # Crawford off elsewhere cannot reach (N-1, N-1) without a Crawford game under the
    # rule, so the only match that starts there is the 1-point match: checked directly.
    assert next_game_facts(MatchRules(5), (4, 4), False) == (False, False)
    assert start_match(MatchRules(1)).next_game_is_crawford is False


@pytest.mark.parametrize(
    "records",
    [
        [win(A, 2), win(A, 2), win(A, 2)],  # gammons: 0 -> 2 -> 4 -> 6
        [win(A, 3), win(A, 3)],  # backgammons: 0 -> 3 -> 6
        [win(B), win(A, 3), win(A, 3)],  # the other player already has points
    ],
)
def test_crawford_reached_via_gammon_or_backgammon(records: list[GameRecord]) -> None:
    state = replay_match(MatchRules(7), records)
    assert state.score[A] == 6
    assert state.next_game_is_crawford and not state.next_game_post_crawford


def test_crawford_reached_via_cube() -> None:
    state = replay_match(MatchRules(5), [doubled(B, 4, B)])
    assert state.score == (0, 4)
    assert state.next_game_is_crawford
    state = record_next_game(state, win(A))
    assert state.games[-1].crawford and state.crawford_game == 2
    assert state.next_game_post_crawford and not state.next_game_is_crawford


def test_crawford_reached_via_drop() -> None:
    state = replay_match(
        MatchRules(3), [GameRecord(winner=A, cube=2, cube_owner=A, ending=Ending.DROPPED)]
    )
    assert state.score == (2, 0) and state.next_game_is_crawford


def test_no_crawford_game_before_anyone_is_one_away() -> None:
    records = [win(A, 3), win(A, 2), win(B), win(B), doubled(B, 2, A), win(B)]
    state = replay_match(MatchRules(7), records)
    assert state.score == (5, 5)
    assert state.crawford_game is None and not state.next_game_is_crawford


def test_every_game_after_crawford_is_post_crawford() -> None:
    records = [win(A, 3), win(A, 3), win(B), win(B, 2), doubled(B, 2, A), win(A)]
    state = replay_match(MatchRules(7), records)
    assert crawford_flags(state) == [
        (False, False), (False, False), (True, False), (False, True), (False, True),
        (False, True),
    ]  # fmt: skip
    assert state.crawford_game == 3
    assert state.score == (7, 5) and state.winner == A


def test_post_crawford_cube_is_live_again() -> None:
    state = replay_match(MatchRules(3), [win(A, 2), win(B), doubled(B, 2, B)])
    assert crawford_flags(state) == [(False, False), (True, False), (False, True)]
    assert state.score == (2, 3) and state.winner == B


@pytest.mark.parametrize(
    ("crawford_game", "field"),
    [
        (doubled(A, 2, B), "games[1].cube"),
        (doubled(B, 2, A), "games[1].cube"),
        (doubled(B, 4, B, Level.GAMMON), "games[1].cube"),
        (GameRecord(winner=B, ending=Ending.DROPPED), "games[1].ending"),
        (GameRecord(winner=A, ending=Ending.DROPPED), "games[1].ending"),
    ],
)
def test_no_double_in_crawford_game(crawford_game: GameRecord, field: str) -> None:
    error = violation(MatchRules(5), [doubled(A, 4, B), crawford_game])
    assert (error.code, error.field) == ("double_in_crawford_game", field)
    assert "Crawford" in error.message


def test_crawford_game_may_be_won_by_gammon_or_resignation() -> None:
    rules = MatchRules(5)
    for record in (
        win(B, 2),
        win(B, 3),
        GameRecord(winner=B, ending=Ending.RESIGNED, level=Level.GAMMON),
    ):
        state = replay_match(rules, [doubled(A, 4, B), record])
        assert state.games[1].crawford


# --- the end of the match -----------------------------------------------------------


def test_game_after_match_end_is_refused() -> None:
    error = violation(MatchRules(3), [win(A, 3), win(B)])
    assert (error.code, error.field) == ("game_after_match_end", "games[1]")


def test_final_score_may_exceed_match_length() -> None:
    state = replay_match(MatchRules(5), [win(A, 3), doubled(A, 4, A, Level.GAMMON)])
    assert state.score == (11, 0) and state.winner == A and state.finished
    assert not state.next_game_is_crawford and not state.next_game_post_crawford


def test_match_ends_exactly_at_length() -> None:
    state = replay_match(MatchRules(3), [win(A), win(A)])
    assert not state.finished and state.next_game_is_crawford
    state = record_next_game(state, win(A))
    assert state.finished and state.winner == A and state.score == (3, 0)


def test_unlimited_session_never_finishes_and_never_has_crawford() -> None:
    records = [doubled(A, 64, B, Level.BACKGAMMON)] + [win(B)] * 50
    state = replay_match(MatchRules(0), records)
    assert not state.finished and state.winner is None and state.crawford_game is None
    assert state.score == (192, 50)
    assert all(not g.crawford and not g.post_crawford for g in state.games)


def test_unlimited_session_scores_with_money_rules() -> None:
    money = MoneyRules(jacoby=True, automatic_doubles=True, automatic_double_limit=1)
    rules = MatchRules(0, money=money)
    gammon_centred = GameRecord(winner=A, level=Level.GAMMON)
    gammon_automatic = GameRecord(winner=A, cube=2, automatic_doubles=1, level=Level.GAMMON)
    gammon_turned = GameRecord(
        winner=A, cube=4, cube_owner=B, automatic_doubles=1, level=Level.GAMMON
    )
    state = replay_match(rules, [gammon_centred, gammon_automatic, gammon_turned])
    # Jacoby: gammons count single until a double is made in play; automatic doubles
    # raise the stake without turning the cube.
    assert [g.points for g in state.games] == [1, 2, 8]
    error = violation(rules, [GameRecord(winner=A, cube=4, automatic_doubles=2)])
    assert error.code == "automatic_doubles_above_limit"
    assert error.field == "games[0].automatic_doubles"


def test_money_rules_do_not_apply_in_matches() -> None:
    with pytest.raises(RuleViolation) as caught:
        MatchRules(7, money=MoneyRules())
    assert caught.value.code == "money_rules_in_match"


# --- cube values and limits ---------------------------------------------------------


@pytest.mark.parametrize("cube", [3, 5, 6, 12, 0, -1])
def test_cube_not_power_of_two_is_refused(cube: int) -> None:
    error = violation(MatchRules(7), [win(A), GameRecord(winner=B, cube=cube, cube_owner=A)])
    assert (error.code, error.field) == ("cube_not_power_of_two", "games[1].cube")


def test_cube_above_limit_is_refused() -> None:
    rules = MatchRules(11, cube_limit=4)
    replay_match(rules, [doubled(A, 4, B)])
    error = violation(rules, [doubled(A, 4, B), doubled(B, 8, B)])
    assert (error.code, error.field) == ("cube_above_limit", "games[1].cube")


def test_drop_of_double_beyond_limit_is_refused() -> None:
    rules = MatchRules(11, cube_limit=4)
    replay_match(rules, [GameRecord(winner=A, cube=2, cube_owner=A, ending=Ending.DROPPED)])
    error = violation(rules, [GameRecord(winner=A, cube=4, cube_owner=A, ending=Ending.DROPPED)])
    assert (error.code, error.field) == ("cube_above_limit", "games[0].cube")


def test_dropped_game_not_single_is_refused() -> None:
    record = GameRecord(winner=A, cube=2, cube_owner=A, ending=Ending.DROPPED, level=Level.GAMMON)
    error = violation(MatchRules(7), [win(B), record])
    assert (error.code, error.field) == ("dropped_game_is_single", "games[1].level")


def test_points_disagreeing_with_cube_and_level_are_refused() -> None:
    error = violation(MatchRules(7), [GameRecord(winner=A, cube=2, cube_owner=B, points=2)] * 2
                      + [GameRecord(winner=A, cube=2, cube_owner=B, points=3)])  # fmt: skip
    assert (error.code, error.field) == ("points_disagree_with_cube_and_level", "games[2].points")
    assert "cube 2 x single is 2" in error.message


def test_resignations_score_level_times_cube() -> None:
    records = [
        GameRecord(winner=A, ending=Ending.RESIGNED),
        GameRecord(winner=B, cube=2, cube_owner=A, ending=Ending.RESIGNED, level=Level.GAMMON),
        GameRecord(winner=A, ending=Ending.RESIGNED, level=Level.BACKGAMMON, points=3),
    ]
    state = replay_match(MatchRules(0), records)
    assert [g.points for g in state.games] == [1, 4, 3]


def test_first_broken_rule_stops_the_replay() -> None:
    error = violation(MatchRules(7), [win(A), win(2), GameRecord(winner=A, cube=3)])
    assert error.field == "games[1].winner"


def test_match_rules_are_validated() -> None:
    for kwargs, code in [
        ({"length": -1}, "match_length_invalid"),
        ({"length": 7, "cube_limit": 6}, "cube_limit_not_power_of_two"),
        (
            {"length": 0, "cube_limit": 8, "money": MoneyRules(cube_limit=16)},
            "cube_limit_conflict",
        ),
    ]:
        with pytest.raises(RuleViolation) as caught:
            MatchRules(**kwargs)  # type: ignore[arg-type]
        assert caught.value.code == code


# --- a final score entered alone ----------------------------------------------------


@pytest.mark.parametrize(
    ("length", "score", "winner"),
    [
        (7, (7, 4), A),
        (7, (3, 7), B),
        (7, (8, 6), A),  # may exceed N
        (7, (6, 9), B),
        (7, (10, 0), A),  # from 4-0, a backgammon on a 2 cube (not from 6-0: Crawford)
        (7, (30, 1), A),  # 6-1 after the Crawford game: a gammon on a 12 cube
        (1, (1, 0), A),
        (1, (0, 4), B),
        (5, (5, 4), A),
        (3, (5, 0), A),  # from 2-0, a backgammon in the Crawford game
    ],
)
def test_final_score_names_the_winner(length: int, score: tuple[int, int], winner: int) -> None:
    assert check_final_score(MatchRules(length), score) == winner


@pytest.mark.parametrize(
    ("rules", "score", "code"),
    [
        (MatchRules(7), (7, 7), "final_score_needs_one_winner"),
        (MatchRules(7), (9, 8), "final_score_needs_one_winner"),
        (MatchRules(7), (6, 4), "final_score_needs_one_winner"),
        (MatchRules(7), (0, 0), "final_score_needs_one_winner"),
        (MatchRules(7), (-1, 7), "invalid_score"),
        (MatchRules(7), (7,), "invalid_score"),
        (MatchRules(0), (7, 4), "unlimited_session_has_no_final_score"),
        # 30 is 24 more than 6, but from 6-0 the last game is the Crawford game (no
        # cube), and from 0..5 no game value (…, 16, 24, 32, …) reaches 30
        (MatchRules(7), (30, 0), "final_score_unreachable"),
        (MatchRules(7, crawford=False), (30, 0), None),
        # one game scores 1, 2, 3, 4, 6, 8, 12, 16, 24, ...: 120 is out of reach from <7
        (MatchRules(7), (120, 3), "final_score_unreachable"),
        # with the cube limited to 2, one game scores at most 6
        (MatchRules(5, cube_limit=2), (11, 2), "final_score_unreachable"),
    ],
)
def test_impossible_final_score_is_refused(
    rules: MatchRules, score: tuple[int, int], code: str | None
) -> None:
    if code is None:  # the contrast case: accepted
        check_final_score(rules, score)
        return
    with pytest.raises(RuleViolation) as caught:
        check_final_score(rules, score)
    assert (caught.value.code, caught.value.field) == (code, "score")


def _reachable_final_scores(rules: MatchRules, most: int) -> set[tuple[int, int]]:
    """Every final score up to ``most`` points, by brute force over whole matches.

    Explores (score, Crawford played) states game by game with every point value one
    game can score, using :func:`next_game_facts` only for the Crawford status: an
    oracle for :func:`check_final_score`'s shortcut.
    """
    n = rules.length
    values = sorted(
        {c * m for c in (1, 2, 4, 8, 16, 32) if rules.cube_limit is None or c <= rules.cube_limit
         for m in (1, 2, 3)}
    )  # fmt: skip
    finals: set[tuple[int, int]] = set()
    seen = {((0, 0), False)}
    todo = [((0, 0), False)]
    while todo:
        score, played = todo.pop()
        is_crawford, _ = next_game_facts(rules, score, played)
        for points in (1, 2, 3) if is_crawford else values:
            for winner in (A, B):
                after = list(score)
                after[winner] += points
                after_score = (after[0], after[1])
                if after[winner] >= n:
                    if after[winner] <= most:
                        finals.add(after_score)
                    continue
                state = (after_score, played or is_crawford)
                if state not in seen:
                    seen.add(state)
                    todo.append(state)
    return finals


@pytest.mark.parametrize(
    "rules",
    [
        MatchRules(1),
        MatchRules(2),
        MatchRules(3),
        MatchRules(5),
        MatchRules(7),
        MatchRules(5, crawford=False),
        MatchRules(5, cube_limit=1),
        MatchRules(5, cube_limit=2),
        MatchRules(9, cube_limit=4),
    ],
)
def test_final_score_check_agrees_with_brute_force(rules: MatchRules) -> None:
    most = 40
    reachable = _reachable_final_scores(rules, most)
    for first in range(most + 1):
        for second in range(most + 1):
            try:
                check_final_score(rules, (first, second))
                accepted = True
            except RuleViolation:
                accepted = False
            assert accepted == ((first, second) in reachable), (first, second)
