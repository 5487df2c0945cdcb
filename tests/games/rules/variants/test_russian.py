"""Cady 1895, *Russian Backgammon*: each test quotes the sentence it checks."""

from __future__ import annotations

import pytest

from games.rules.errors import RuleViolation
from games.rules.variants import RUSSIAN
from games.rules.variants.base import BAR, UNENTERED
from games.rules.variants.position import VariantPosition, validate
from games.rules.variants.throws import Next, Stage, Throw, legal_plays

from .helpers import pos, side


def far() -> tuple[int, ...]:
    """An opponent out of the way: all his men home (his points 1..6 are ours too)."""
    return side({1: 5, 2: 5, 3: 5})


def test_the_board_is_not_furnished_at_starting() -> None:
    """ "The board is not furnished at starting; but both ... men are entered in the same
    table"."""
    start = VariantPosition.start(RUSSIAN)
    assert start.me[UNENTERED] == start.opp[UNENTERED] == 15
    result = legal_plays(RUSSIAN, start, Throw((6, 5)))
    assert {p.steps for p in result.plays} >= {((UNENTERED, 19), (UNENTERED, 20))}


def test_both_sets_march_the_same_way() -> None:
    """ "the march of both sets of draughts is in the same direction": a point is the same
    point for both, so a man landing on the opponent's lone man on that number hits it."""
    me = side({10: 2, 1: 13})
    opp = side({7: 1, 2: 14})
    result = legal_plays(RUSSIAN, pos(me, opp), Throw((3, 6)))
    hitting = [p for p in result.plays if (10, 7) in p.steps]
    assert hitting and all(p.after.opp[BAR] == 1 for p in hitting)
    with pytest.raises(RuleViolation) as err:
        validate(RUSSIAN, pos(side({9: 2, 1: 13}), side({9: 1, 2: 14})))
    assert err.value.code == "bad_position"


def test_not_obliged_to_enter_all_before_playing_any() -> None:
    """ "A player is not obliged to enter all his men before he plays any"."""
    me = side({20: 1}, unentered=14)
    result = legal_plays(RUSSIAN, pos(me, far()), Throw((4, 2)))
    assert any(all(frm == 20 or frm < 20 for frm, _ in p.steps) for p in result.plays)


def test_he_may_take_up_blots_with_men_not_entered() -> None:
    """ "he may take up blots, even if some of his men have not been entered"."""
    me = side({20: 1}, unentered=14)
    opp = side({16: 1, 1: 14})
    result = legal_plays(RUSSIAN, pos(me, opp), Throw((4, 1)))
    assert any((20, 16) in p.steps and p.after.opp[BAR] == 1 for p in result.plays)


def test_a_taken_up_man_is_entered_first() -> None:
    """ "Should a player be taken up, he is obliged to enter the captured 'man' before
    playing any other already entered."""
    me = side({20: 1, 10: 2}, bar=1, unentered=11)
    result = legal_plays(RUSSIAN, pos(me, far()), Throw((5, 3)))
    assert any(p.steps[0][0] == BAR for p in result.plays)
    for play in result.plays:
        froms = [frm for frm, _ in play.steps]
        bar_at = froms.index(BAR) if BAR in froms else len(froms)
        # before the captured man is in, only men not yet entered may come in
        assert all(frm == UNENTERED for frm in froms[:bar_at]), play.steps
    assert all(frm not in (20, 10) for p in result.plays for frm, _ in p.steps[:1])


def test_doublets_bring_complementary_doublets_and_a_throw() -> None:
    """ "He throws sixes, therefore must first play four sixes and then four aces, and in
    addition he has another throw."""
    start = VariantPosition.start(RUSSIAN)
    sixes = legal_plays(RUSSIAN, start, Throw((6, 6), earlier_doublets=True))
    assert sixes.dice == (6, 6, 6, 6)
    assert sixes.next is Next.COMPLEMENTARY
    after = sixes.plays[0].after
    aces = legal_plays(RUSSIAN, after, Throw((6, 6), Stage.COMPLEMENTARY, earlier_doublets=True))
    assert aces.dice == (1, 1, 1, 1)
    assert aces.next is Next.THROW_AGAIN


def test_first_doublets_have_no_privilege() -> None:
    """ "This privilege given to doublets is not, however, allowed to either player when
    he throws his first set of doublets in the game."""
    start = VariantPosition.start(RUSSIAN)
    first = legal_plays(RUSSIAN, start, Throw((6, 6), earlier_doublets=False))
    assert first.next is Next.TURN_OVER
    with pytest.raises(RuleViolation) as err:
        legal_plays(RUSSIAN, start, Throw((6, 6), Stage.COMPLEMENTARY))
    assert (err.value.code, err.value.field) == ("bad_throw", "throw.stage")


def test_complementary_only_after_the_doublets_are_used_completely() -> None:
    """ "No player is permitted to play the 'complimentary' doublets until he has
    completely used the doublets thrown, and, furthermore, he has no right to another
    throw until he has played both sets"; "if he cannot complete it ... he may not throw
    again."""
    me = side({14: 1, 1: 14})
    opp = side({2: 2, 3: 13})  # the same numbering: our 2 is held, so 8/2 is blocked
    result = legal_plays(RUSSIAN, pos(me, opp), Throw((6, 6), earlier_doublets=True))
    assert result.unplayed == 3  # 14/8, then 8/2 is blocked
    assert result.next is Next.TURN_OVER


def test_deuce_ace_names_any_doublets_and_throws_again() -> None:
    """ "The privilege is given of allowing the caster of a deuce, ace, to choose any
    doublets he likes on opposite faces of the dice, and to throw again. The restriction
    with regard to first doublets does not apply to deuce, ace"."""
    start = VariantPosition.start(RUSSIAN)
    deuce_ace = legal_plays(RUSSIAN, start, Throw((2, 1)))
    assert deuce_ace.next is Next.CHOOSE_DOUBLETS
    after = deuce_ace.plays[0].after
    fives = legal_plays(RUSSIAN, after, Throw((2, 1), Stage.CHOSEN, chosen=5))
    assert fives.dice == (5, 5, 5, 5) and fives.next is Next.COMPLEMENTARY
    deuces = legal_plays(
        RUSSIAN, fives.plays[0].after, Throw((2, 1), Stage.COMPLEMENTARY, chosen=5)
    )
    assert deuces.dice == (2, 2, 2, 2) and deuces.next is Next.THROW_AGAIN


def test_opponent_finishes_the_throw_is_a_house_option_off_by_default() -> None:
    """ "Sometimes, if a player cannot complete his throw ... it is agreed that the
    opponent shall play the remainder"; "many players prefer to omit" it."""
    with_option = RUSSIAN.configured({"opponent_finishes": True})
    blocked = pos(side({8: 1, 1: 14}), side({3: 2, 5: 2, 4: 11}))
    result = legal_plays(with_option, blocked, Throw((5, 3)))
    assert result.unplayed == 2 and result.next is Next.OPPONENT_FINISHES
    assert legal_plays(RUSSIAN, blocked, Throw((5, 3))).next is Next.TURN_OVER
