"""A match's variant in score keeping (docs/rules.md, "Variants"): the levels it scores,
no cube where it has none, the Crawford rule only where it applies."""

from __future__ import annotations

import pytest

from games.rules.errors import RuleViolation
from games.rules.scoring import (
    GameRecord,
    MatchRules,
    check_final_score,
    record_next_game,
    start_match,
)
from games.rules.types import Ending, Level


def test_tavla_and_tavli_score_no_backgammon() -> None:
    state = start_match(MatchRules(length=5, variant="tavla"))
    with pytest.raises(RuleViolation) as err:
        record_next_game(state, GameRecord(winner=0, level=Level.BACKGAMMON))
    assert (err.value.code, err.value.field) == ("level_not_in_variant", "games[0].level")
    after = record_next_game(state, GameRecord(winner=0, level=Level.GAMMON))
    assert after.score == (2, 0)


def test_no_cube_and_no_drop_without_a_cube() -> None:
    state = start_match(MatchRules(length=5, variant="portes"))
    with pytest.raises(RuleViolation) as err:
        record_next_game(state, GameRecord(winner=0, cube=2, cube_owner=1))
    assert (err.value.code, err.value.field) == ("no_cube_in_variant", "games[0].cube")
    with pytest.raises(RuleViolation) as err:
        record_next_game(state, GameRecord(winner=0, ending=Ending.DROPPED))
    assert err.value.field == "games[0].ending"
    # the standard game keeps its cube
    standard = start_match(MatchRules(length=5))
    assert record_next_game(standard, GameRecord(winner=0, cube=2, cube_owner=1)).score == (2, 0)


def test_crawford_only_where_the_variant_has_it() -> None:
    def at_four(variant: str) -> bool:
        state = start_match(MatchRules(length=5, variant=variant))
        for _ in range(2):
            state = record_next_game(state, GameRecord(winner=0, level=Level.GAMMON))
        return state.next_game_is_crawford

    assert at_four("hypergammon-3") and at_four("nackgammon")
    assert not at_four("plakoto") and not at_four("acey-deucey")


def test_a_final_score_must_be_reachable_in_the_variant() -> None:
    # 7-0 in a 5-point match: a last game of 3 or more (4-0 -> 7 needs 3) is impossible
    # in tavla (at most 2 a game) but possible in the English game (a backgammon)
    assert check_final_score(MatchRules(length=5), (7, 0)) == 0
    with pytest.raises(RuleViolation) as err:
        check_final_score(MatchRules(length=5, variant="tavla"), (7, 0))
    assert err.value.code == "final_score_unreachable"
    assert check_final_score(MatchRules(length=5, variant="tavla"), (6, 0)) == 0


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(RuleViolation) as err:
        MatchRules(length=5, variant="chess")
    assert (err.value.code, err.value.field) == ("unknown_variant", "variant")
