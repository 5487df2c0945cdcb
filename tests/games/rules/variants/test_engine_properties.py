"""Properties of the one engine over every registered variant.

The engine's plays equal a brute-force enumeration (every die in every order, every slot
tried, then "the most dice" and "the higher die" applied afterwards), every play keeps
each side's men (15, or 3, 2, 1 in hypergammon), and the standard entry plays exactly
what :func:`games.rules.board.legal_plays` plays.
"""

from __future__ import annotations

import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import board
from games.rules.variants import REGISTRY, STANDARD
from games.rules.variants.base import Variant
from games.rules.variants.engine import Board, stage_plays
from games.rules.variants.position import VariantPosition, validate

from .helpers import random_position

variants = st.sampled_from(sorted(REGISTRY))
seeds = st.integers(min_value=0, max_value=2**32)
turns = st.integers(min_value=0, max_value=50)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(
    lambda d: (d[0],) * 4 if d[0] == d[1] else d
)


def brute_force(variant: Variant, position: VariantPosition, ds: tuple[int, ...]) -> set:
    """Resulting positions of every legal play, found the slow way."""
    found: list[tuple[tuple[int, ...], object]] = []  # (dice used in order, position key)
    b = Board(variant, position)

    def walk(order: tuple[int, ...], used: tuple[int, ...]) -> None:
        if b.finished() or len(used) == len(order):
            # ending the game counts as a full play
            found.append(((*used, *order[len(used) :]), b.snapshot().key()))
            return
        die = order[len(used)]
        moved = False
        for frm in range(1, 27):  # every slot, not the engine's list of sources
            to = b.target(frm, die)
            if to < 0:
                continue
            moved = True
            token = b.do(frm, to)
            walk(order, (*used, die))
            b.undo(frm, to, token)
        if not moved:
            found.append((used, b.snapshot().key()))

    for order in set(permutations(ds)):
        walk(order, ())
    most = max(len(u) for u, _ in found)
    best = [(u, k) for u, k in found if len(u) == most]
    if len(ds) == 2 and ds[0] != ds[1] and most == 1:
        high = [(u, k) for u, k in best if u[0] == max(ds)]
        best = high or best
    return {k for _, k in best}


@settings(max_examples=60, deadline=None)
@given(key=variants, seed=seeds, n=turns, ds=dice)
def test_engine_equals_brute_force(key: str, seed: int, n: int, ds: tuple[int, ...]) -> None:
    variant = REGISTRY[key]
    position = random_position(variant, random.Random(seed), n)
    plays = stage_plays(variant, position, ds)
    assert {p.after.key() for p in plays} == brute_force(variant, position, ds)
    assert len({p.after.key() for p in plays}) == len(plays)  # one play per position


@settings(max_examples=60, deadline=None)
@given(key=variants, seed=seeds, n=turns, ds=dice)
def test_every_play_keeps_every_man(key: str, seed: int, n: int, ds: tuple[int, ...]) -> None:
    variant = REGISTRY[key]
    position = random_position(variant, random.Random(seed), n)
    validate(variant, position)
    for play in stage_plays(variant, position, ds):
        assert sum(play.after.me) == variant.checkers
        assert sum(play.after.opp) == variant.checkers
        validate(variant, play.after)
        validate(variant, play.after.flip())


@settings(max_examples=120, deadline=None)
@given(
    seed=seeds,
    n=st.integers(min_value=0, max_value=80),
    d=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_standard_entry_agrees_with_the_transcript_checker(
    seed: int, n: int, d: tuple[int, int]
) -> None:
    """``board.legal_plays`` is the standard entry of the engine; the transcript checker
    (``board.match_play``, ``validate_play``, ``max_dice_usable``), a separate search,
    accepts every play it lists, reaches the same position and uses as many dice."""
    position = random_position(STANDARD, random.Random(seed), n)
    old = board.Position(position.me[:26], position.opp[:26])
    ds = board.dice_list(d)
    best = board.max_dice_usable(old, d)
    plays = stage_plays(STANDARD, position, ds)
    assert [p.steps for p in plays] == board.legal_plays(old, d)
    for play in plays:
        after, _ = board.validate_play(old, d, play.steps)
        assert (after.opp, after.me) == (play.after.me[:26], play.after.opp[:26])
        done = play.after.me[0] == 15
        assert len(play.steps) == best or done


def test_registry_entries_validate_their_start() -> None:
    for variant in REGISTRY.values():
        start = VariantPosition.start(variant)
        validate(variant, start)
        assert sum(start.me) == variant.checkers
