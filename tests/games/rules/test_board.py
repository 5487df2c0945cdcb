"""The movement, entering, hitting and bearing-off rules of games.rules.board.

Seed examples from the modern rules (``docs/rules.md``, "Movement") (both dice or the
higher, the 1-2 bear-off example) and Hoyle's bearing-off position in
``docs/rules/hoyle-modernized-backgammon.txt``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.board import (
    BAR,
    OFF,
    Position,
    apply_play,
    legal_plays,
    match_play,
    max_dice_usable,
    result_level,
    validate_play,
)
from games.rules.errors import RuleViolation
from games.rules.types import Level


def side(points: dict[int, int]) -> tuple[int, ...]:
    """26 counts from {point: checkers}; the rest of the 15 are borne off."""
    counts = [0] * 26
    for p, n in points.items():
        counts[p] = n
    counts[OFF] += 15 - sum(counts)
    return tuple(counts)


def pos(me: dict[int, int], opp: dict[int, int]) -> Position:
    return Position(side(me), side(opp))


def ends(plays: list) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    return {tuple(sorted(p)) for p in plays}


HOYLE = {5: 5, 4: 3, 2: 3, 1: 4}  # Hoyle's Fig. 2: all 15 home, no man on the 3 or 6


def far_opp() -> dict[int, int]:
    # opponent all on its own 1..6 (my 19..24), out of the way of my home board
    return {1: 15}


def test_hoyle_four_three() -> None:
    """4: bear off from the 4 or play 5/1; 3: no man on the 3, so play it forward."""
    p = pos(HOYLE, far_opp())
    plays = legal_plays(p, (4, 3))
    assert plays
    for play in plays:
        assert len(play) == 2
        assert all(step != (3, 0) for step in play)  # nothing on the 3-point to bear off
    results = ends(plays)
    assert (
        ((4, 0), (5, 2)) in results
        or ((5, 2), (4, 0)) in results
        or any(set(r) == {(4, 0), (5, 2)} for r in results)
    )
    assert any(set(r) == {(5, 1), (5, 2)} for r in results)
    validate_play(p, (4, 3), [(4, 0), (4, 1)])
    with pytest.raises(RuleViolation):
        validate_play(p, (4, 3), [(4, 0), (3, 0)])


def test_hoyle_six_bears_off_from_highest_point() -> None:
    p = pos(HOYLE, far_opp())
    for play in legal_plays(p, (6, 1)):
        six_steps = [s for s in play if s[0] - s[1] >= 5 and s[1] == 0]
        assert six_steps, play
    validate_play(p, (6, 1), [(5, 0), (5, 4)])
    with pytest.raises(RuleViolation):
        validate_play(p, (6, 1), [(4, 0), (1, 0)])  # a 6 may not bear off from the 4


def test_hoyle_deuces_three_off_fourth_forward() -> None:
    """2-2: only three men on the deuce point, so the fourth deuce moves a man forward."""
    p = pos(HOYLE, far_opp())
    after, _ = validate_play(p, (2, 2), [(2, 0), (2, 0), (2, 0), (5, 3)])
    assert after.opp[OFF] == 3
    validate_play(p, (2, 2), [(2, 0), (2, 0), (2, 0), (4, 2)])
    with pytest.raises(RuleViolation):
        validate_play(p, (2, 2), [(2, 0)] * 4)  # a fourth man is not on the 2-point
    assert all(len(play) == 4 for play in legal_plays(p, (2, 2)))


def test_one_two_bear_off_example() -> None:
    """One checker on the 2, two on the 1: 2/1 with the 1, then 1/off with the 2 is fine."""
    p = pos({2: 1, 1: 2}, far_opp())
    after, _ = validate_play(p, (1, 2), [(2, 1), (1, 0)])
    assert after.opp[1] == 2 and after.opp[OFF] == 13
    assert any(set(play) == {(2, 1), (1, 0)} for play in legal_plays(p, (1, 2)))


def test_must_play_the_higher_die() -> None:
    """Either die can be played, but not both: the higher one must be played."""
    # one checker on my 8 (the rest borne off); the opponent holds my 1-point (its 24):
    # 8/3 then the 2 is blocked, 8/6 then the 5 is blocked, so only one die can be played
    p = pos({8: 1}, {24: 2, 1: 13})
    plays = legal_plays(p, (5, 2))
    assert plays == [((8, 3),)]
    with pytest.raises(RuleViolation) as exc:
        validate_play(p, (5, 2), [(8, 6)])
    assert exc.value.code == "higher_die"
    validate_play(p, (5, 2), [(8, 3)])


def test_must_play_both_when_possible() -> None:
    p = Position.start()
    with pytest.raises(RuleViolation) as exc:
        validate_play(p, (3, 1), [(8, 5)])
    assert exc.value.code == "not_maximal"
    assert len(legal_plays(p, (3, 1))) > 1


def test_closed_board_dance() -> None:
    """A checker on the bar against a closed board: no move at all."""
    p = pos({BAR: 1, 6: 14}, {p: 2 for p in range(1, 7)} | {13: 3})
    assert legal_plays(p, (6, 6)) == [()]
    assert max_dice_usable(p, (6, 5)) == 0
    validate_play(p, (6, 5), [])
    with pytest.raises(RuleViolation):
        validate_play(p, (6, 5), [(6, 0)])  # bar checkers enter first


def test_entering_against_five_point_board() -> None:
    """Only the open point (the opponent's 6 -> my 19) lets a checker in."""
    opp = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}  # opponent's 1..5 held; its 6-point open
    p = pos({BAR: 2, 13: 13}, opp)
    plays = legal_plays(p, (6, 1))
    assert plays == [((BAR, 19),)]  # one enters with the 6; the 1 cannot enter, nor move
    plays = legal_plays(p, (6, 6))
    assert plays == [((BAR, 19), (BAR, 19), (19, 13), (19, 13))] or all(
        sorted(play)[:2] == [(19, 13), (19, 13)] or len(play) == 4 for play in plays
    )
    with pytest.raises(RuleViolation):
        validate_play(p, (5, 4), [(BAR, 20)])


def test_hit_sends_blot_to_bar() -> None:
    p = pos({24: 1, 13: 14}, {16: 1, 24: 14})  # their blot on their 16 = my 9
    after, steps = validate_play(p, (4, 3), [(13, 9), (24, 21)])
    assert after.me[BAR] == 1 and after.me[16] == 0  # after.me is now the opponent's side
    assert after.opp[9] == 1
    assert sorted(steps) == [(13, 9), (24, 21)]


def test_higher_die_may_move_inside_and_bear_off_from_highest() -> None:
    p = pos({4: 1, 2: 1}, far_opp())
    validate_play(p, (6, 1), [(4, 0), (2, 1)])  # the 6 bears off from the highest point
    validate_play(p, (6, 1), [(4, 3), (3, 0)])  # or the 1 first, then the 6 from the 3
    with pytest.raises(RuleViolation):
        validate_play(p, (6, 1), [(2, 0), (4, 3)])  # the 6 cannot bear off from the 2


def test_merged_bear_off_uses_both_dice_when_the_last_step_bears_off_higher() -> None:
    """``41: 4/off`` with men on the 4 and the 2: 4/3 (the 1), then 3/off with the 4.

    Bearing off from the 3 with a 4 is legal once no man stands higher (Hoyle); read as
    the 4 alone, the 1 would be left unplayed although 2/1 could play it.
    """
    p = pos({4: 1, 2: 1}, far_opp())
    steps, _after = match_play(p, (4, 1), [(4, OFF)])
    assert steps == ((4, 3), (3, OFF))
    after, _ = validate_play(p, (4, 1), [(4, OFF)])
    assert after.opp[2] == 1 and after.opp[OFF] == 14
    # ``31: 3/off`` with men on the 3 and the 2: 3/2, then 2/off with the 3
    steps, _after = match_play(pos({3: 1, 2: 1}, far_opp()), (3, 1), [(3, OFF)])
    assert steps == ((3, 2), (2, OFF))


def test_merged_bear_off_cannot_pass_a_higher_man() -> None:
    """With a man on the 6, 3/2 then 2/off with the 3 is illegal: ``3/off`` leaves the 1."""
    p = pos({6: 1, 3: 1}, far_opp())
    steps, _after = match_play(p, (3, 1), [(3, OFF)])
    assert steps == ((3, OFF),)
    with pytest.raises(RuleViolation) as exc:
        validate_play(p, (3, 1), [(3, OFF)])
    assert exc.value.code == "not_maximal"


def test_result_levels() -> None:
    won = side({})
    assert result_level(Position(won, side({1: 1}))).level == Level.SINGLE  # loser bore off
    assert result_level(Position(won, side({6: 15}))).level == Level.GAMMON
    bg = result_level(Position(won, side({6: 14, 19: 1})))
    assert bg.level == Level.BACKGAMMON and bg.multiplier == 3
    bar = result_level(Position(won, side({6: 14, BAR: 1})), bar_backgammon_counts_four=True)
    assert bar.multiplier == 4
    assert result_level(Position.start()) is None


def _check(position: Position) -> None:
    position.validate()
    assert sum(position.me) == 15 and sum(position.opp) == 15


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_invariants(seed: int) -> None:
    """Random legal games from the start: 15 checkers each, never a shared point."""
    rng = random.Random(seed)
    p = Position.start(rng.randint(0, 1))
    for _ in range(1000):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(p, dice)
        assert plays
        play = rng.choice(plays)
        # the written play validates, and validation agrees with generation
        after, _ = validate_play(p, dice, play)
        assert after == apply_play(p, play)
        _check(after)
        result = result_level(after)
        if result is not None:
            winner = after.me if result.winner == after.player else after.opp
            loser = after.opp if result.winner == after.player else after.me
            assert winner[OFF] == 15
            if loser[OFF]:
                assert result.level == Level.SINGLE
            elif any(loser[19:26]):
                assert result.level == Level.BACKGAMMON
            else:
                assert result.level == Level.GAMMON
            return
        p = after
    pytest.fail("a random game did not end in 1000 rolls")


def test_the_last_checker_off_with_one_die_hits_nothing_in_passing():
    """``2/off`` with 3-1, the last checker, a blot on the 1-point: the 3 alone ends the
    game, so the written play is not ``2/1*/off`` (a hit would be written with its
    asterisk). Both plays are legal and generation lists both; reading the first as
    the second put the loser's checker on the bar (found by the random games above)."""
    me = [0] * 26
    me[OFF], me[2] = 14, 1
    opp = [0] * 26
    opp[1], opp[2], opp[7], opp[15], opp[22], opp[24] = 5, 5, 2, 1, 1, 1
    position = Position(tuple(me), tuple(opp), player=1)
    assert set(legal_plays(position, (1, 3))) == {((2, 1), (1, 0)), ((2, 0),)}
    quiet, steps = validate_play(position, (1, 3), ((2, 0),))
    assert steps == ((2, 0),) and quiet == apply_play(position, ((2, 0),))
    assert quiet.me[BAR] == 0  # the loser's blot stays where it was
    hit, _ = validate_play(position, (1, 3), ((2, 1), (1, 0)))
    assert hit.me[BAR] == 1
