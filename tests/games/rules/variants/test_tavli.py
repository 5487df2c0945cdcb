"""Tavli (the encyclopedia article *Tavli*, sections *Portes*, *Plakoto*, *Fevga*) and
tavla: pinning, the mother, the single-man block, the first runner, the scores."""

from __future__ import annotations

from games.rules.types import Level
from games.rules.variants import FEVGA, PLAKOTO, PORTES, STANDARD, TAVLA
from games.rules.variants.base import BAR
from games.rules.variants.engine import stage_plays
from games.rules.variants.position import VariantPosition
from games.rules.variants.scoring import game_result

from .helpers import pos, side


def test_plakoto_pins_a_lone_man_instead_of_hitting() -> None:
    """Plakoto: a man landing on a lone opposing man pins it where it stands."""
    me = side({24: 14, 20: 1})
    opp = side({24: 14, 8: 1})  # his 8 is our 17
    plays = stage_plays(PLAKOTO, pos(me, opp), (3,))
    (pin,) = [p for p in plays if p.steps == ((20, 17),)]
    assert pin.after.opp[8] == 1 and pin.after.opp[BAR] == 0
    assert pin.after.opp_pinned == frozenset({8})


def test_a_pinned_man_cannot_move_until_released() -> None:
    """Plakoto: the pinned man stays until the pinner leaves the point."""
    me = side({24: 14, 8: 1})
    opp = side({24: 14, 17: 1})
    pinned = pos(me, opp, me_pinned={8})
    assert all(frm != 8 for p in stage_plays(PLAKOTO, pinned, (2, 1)) for frm, _ in p.steps)
    # from the pinner's side: when he leaves, the pin is lifted
    pinner = pinned.flip()
    released = [p for p in stage_plays(PLAKOTO, pinner, (1,)) if p.steps == ((17, 16),)]
    assert released and released[0].after.opp_pinned == frozenset()


def test_a_point_with_a_pinned_man_under_the_opponent_is_his() -> None:
    """Plakoto: the pinner holds the point; the pinned side cannot land there."""
    me = side({24: 13, 10: 1, 8: 1})
    opp = side({24: 14, 17: 1})
    position = pos(me, opp, me_pinned={8})
    assert all(p.steps != ((10, 8),) for p in stage_plays(PLAKOTO, position, (2,)))


def test_pinning_the_mother_wins_two_points() -> None:
    """Plakoto: pinning the opponent's last man on his starting point (the mother) ends
    the game, worth 2."""
    me = side({2: 1, 6: 14})
    opp = side({24: 1, 1: 14})  # his 24 is our 1
    plays = stage_plays(PLAKOTO, pos(me, opp), (1, 5))
    pin = [p for p in plays if (2, 1) in p.steps]
    assert pin and pin[0].steps == ((2, 1),)  # the game ends: the 5 is not played
    result = game_result(PLAKOTO, pin[0].after)
    assert result and (result.winner, result.points, result.reason) == ("mover", 2, "mother_pinned")


def test_fevga_one_man_holds_a_point() -> None:
    """Fevga: no hitting; a single man blocks the point."""
    me = side({20: 1, 24: 14})
    opp = side({5: 1, 24: 14})  # his 5 is our 17 (opposite corners, same way round)
    assert all(p.steps != ((20, 17),) for p in stage_plays(FEVGA, pos(me, opp), (3,)))


def test_fevga_first_runner_leaves_alone() -> None:
    """Fevga: a second man may not leave the start before the first reaches the
    opponent's starting quarter."""
    me = side({20: 1, 24: 14})
    plays = stage_plays(FEVGA, pos(me, side({24: 15})), (2, 1))
    assert plays and all(frm != 24 for p in plays for frm, _ in p.steps)
    past = side({11: 1, 24: 14})
    assert any(
        frm == 24
        for p in stage_plays(FEVGA, pos(past, side({24: 15})), (2, 1))
        for frm, _ in p.steps
    )


def test_fevga_no_prime_in_front_of_every_opponent_man() -> None:
    """Fevga: six points in a row may not be held in front of the opponent's men unless
    one of them has passed (the reading of the article's blocking rule, docs/rules.md)."""
    # our 2..6 are his 14..18; 8/7 would make his 19 too: six in a row, nobody past
    me = side({24: 9, 8: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1})
    blocked = stage_plays(FEVGA, pos(me, side({24: 15})), (1,))
    assert blocked and all(p.steps != ((8, 7),) for p in blocked)
    # one of his men is past the run (on his 5, our 17): the sixth point may be made
    passed = stage_plays(FEVGA, pos(me, side({24: 14, 5: 1})), (1,))
    assert any(p.steps == ((8, 7),) for p in passed)
    # five in a row is no prime: 8/7 with a gap at our 4 is allowed
    gap = side({24: 10, 8: 1, 6: 1, 5: 1, 3: 1, 2: 1})
    assert any(p.steps == ((8, 7),) for p in stage_plays(FEVGA, pos(gap, side({24: 15})), (1,)))


def test_tavli_and_tavla_have_no_backgammon() -> None:
    """Tavli and tavla: 2 points for a gammon, never 3; the English game counts 3."""
    won = side({})
    lost = side({20: 15})  # all in the winner's home table, none off
    position = VariantPosition(won, lost)
    for variant in (PORTES, TAVLA):
        result = game_result(variant, position)
        assert result and (result.level, result.points) == (Level.GAMMON, 2)
    result = game_result(STANDARD, position)
    assert result and (result.level, result.points) == (Level.BACKGAMMON, 3)
    single = VariantPosition(won, side({3: 14}))
    result = game_result(PORTES, single)
    assert result and result.points == 1
