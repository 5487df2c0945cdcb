"""Cady 1895, *Turkish Backgammon*, in the reading ``docs/rules.md`` gives (the
mover's own numbering runs 24 -> 1, so Cady's "first point" is our 24 and his twelfth
our 13). Each test quotes the sentence it checks."""

from __future__ import annotations

from games.rules.variants import TURKISH
from games.rules.variants.base import UNENTERED
from games.rules.variants.engine import stage_plays
from games.rules.variants.position import VariantPosition
from games.rules.variants.throws import Next, Throw, legal_plays

from .helpers import pos, side


def far() -> tuple[int, ...]:
    """The opponent's men where they meet none of ours (his 1..3 are our 13..15)."""
    return side({1: 5, 2: 5, 3: 5})


def test_two_men_placed_on_the_first_point() -> None:
    """ "begins by placing two of his men ... on what would be the first point"."""
    start = VariantPosition.start(TURKISH)
    assert start.me[24] == 2 and start.me[UNENTERED] == 13


def test_entering_counts_one_beyond_the_die() -> None:
    """ "thus the two points in entering count one ... The sixth point extends one
    beyond": an ace enters on the second point (our 23), a six on the seventh (our 18)."""
    start = VariantPosition.start(TURKISH)
    (six,) = [p for p in stage_plays(TURKISH, start, (6,)) if p.steps[0][0] == UNENTERED]
    (ace,) = [p for p in stage_plays(TURKISH, start, (1,)) if p.steps[0][0] == UNENTERED]
    assert six.steps == ((UNENTERED, 18),)
    assert ace.steps == ((UNENTERED, 23),)


def test_cannot_cover_a_point_while_entering() -> None:
    """ "The player cannot cover a point while entering.\""""
    me = side({24: 2, 21: 1}, unentered=12)
    plays = stage_plays(TURKISH, pos(me, far()), (3,))
    assert all(p.steps != ((UNENTERED, 21),) for p in plays)  # the 3 would land on 21
    assert plays  # another man may move instead


def test_first_two_men_wait_until_all_are_in() -> None:
    """ "until the player is able to move out the two men first placed, and this cannot
    be done until all are in"."""
    waiting = side({24: 2, 20: 1}, unentered=12)
    assert all(
        frm != 24 for p in stage_plays(TURKISH, pos(waiting, far()), (5, 2)) for frm, _ in p.steps
    )
    all_in = side({24: 2, 20: 1, 17: 1, 16: 1, 10: 1}, n=6)
    plays = stage_plays(TURKISH, pos(all_in, side({1: 6}, n=6)), (5, 2))
    assert any(frm == 24 for p in plays for frm, _ in p.steps)


def test_no_point_beyond_the_twelfth_until_it_is_covered() -> None:
    """ "He is not allowed to make a point beyond the twelfth point until that is
    covered" (our 12..1 until our 13 holds two)."""
    me = side(
        {
            16: 1,
            10: 1,
            13: 1,
            24: 2,
            20: 1,
            19: 1,
            18: 1,
            17: 1,
            22: 1,
            21: 1,
            23: 1,
            15: 1,
            14: 1,
            11: 1,
        }
    )
    opp = side({1: 15})
    lone_twelfth = stage_plays(TURKISH, pos(me, opp), (6,))
    assert all(p.steps != ((16, 10),) for p in lone_twelfth)
    covered = side(
        {16: 1, 10: 1, 13: 2, 24: 2, 20: 1, 19: 1, 18: 1, 17: 1, 22: 1, 21: 1, 23: 1, 15: 1, 14: 1}
    )
    made = stage_plays(TURKISH, pos(covered, opp), (6,))
    assert any(p.steps == ((16, 10),) for p in made)


def test_no_point_in_the_inner_table_until_all_are_entered() -> None:
    """ "and none this side (inner table) until he has fully entered all his men"."""
    me = side({24: 2, 22: 1, 20: 1}, unentered=11)
    plays = stage_plays(TURKISH, pos(me, far()), (2,))
    assert all(p.steps != ((22, 20),) for p in plays)


def test_complementary_doublets_only_by_agreement() -> None:
    """ "This, however, is not obligatory ... the players agree often to use (count) only
    the face value of the doublets"."""
    start = VariantPosition.start(TURKISH)
    assert legal_plays(TURKISH, start, Throw((3, 3))).next is Next.TURN_OVER
    agreed = TURKISH.configured({"complementary_doublets": True})
    assert legal_plays(agreed, start, Throw((3, 3))).next is Next.COMPLEMENTARY
