"""Acey-deucey (the encyclopedia article *Acey-deucey*, sections *Rules* and
*Variations*): each test names the rule it checks."""

from __future__ import annotations

from games.rules.variants import ACEY_DEUCEY
from games.rules.variants.base import UNENTERED
from games.rules.variants.position import VariantPosition
from games.rules.variants.throws import Next, Stage, Throw, legal_plays

from .helpers import pos, side


def test_all_men_start_off_the_board() -> None:
    """All fifteen start off the board and enter in the opponent's home table."""
    start = VariantPosition.start(ACEY_DEUCEY)
    assert start.me[UNENTERED] == 15
    result = legal_plays(ACEY_DEUCEY, start, Throw((6, 4)))
    assert ((UNENTERED, 19), (UNENTERED, 21)) in {tuple(sorted(p.steps)) for p in result.plays}


def test_men_move_before_all_are_entered() -> None:
    """A player need not enter all his men before moving one already entered."""
    me = side({19: 1}, unentered=14)
    result = legal_plays(ACEY_DEUCEY, pos(me, side({}, unentered=15)), Throw((6, 5)))
    assert any((19, 13) in p.steps or (19, 14) in p.steps for p in result.plays)


def test_one_two_then_any_doublets_then_a_throw() -> None:
    """The 1-2 is played, then the caster names any doublets and plays them, then throws
    again."""
    start = VariantPosition.start(ACEY_DEUCEY)
    one_two = legal_plays(ACEY_DEUCEY, start, Throw((1, 2)))
    assert one_two.next is Next.CHOOSE_DOUBLETS
    sixes = legal_plays(ACEY_DEUCEY, one_two.plays[0].after, Throw((1, 2), Stage.CHOSEN, chosen=6))
    assert sixes.dice == (6, 6, 6, 6)
    assert sixes.next is Next.THROW_AGAIN


def test_doublets_are_plain_unless_european() -> None:
    """Doublets are played four times; the "European" option adds the complementary."""
    start = VariantPosition.start(ACEY_DEUCEY)
    assert legal_plays(ACEY_DEUCEY, start, Throw((4, 4))).next is Next.TURN_OVER
    european = ACEY_DEUCEY.configured({"complementary_doublets": True})
    fours = legal_plays(european, start, Throw((4, 4)))
    assert fours.next is Next.COMPLEMENTARY
    threes = legal_plays(european, fours.plays[0].after, Throw((4, 4), Stage.COMPLEMENTARY))
    assert threes.dice == (3, 3, 3, 3)
