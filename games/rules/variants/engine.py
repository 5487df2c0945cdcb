"""The legal plays of any registered variant: one engine, driven by the variant's data.

The search is the one :func:`games.rules.board.legal_plays` makes for the English game
(every die in every order from every point, one play kept per resulting position,
then the most dice that can be used and, when only one of two different dice can be,
the higher), with the single step generalised: where a man enters (from the bar or
from off the board), which points are open (hit, pin or one-man block), the entering
and point-making restrictions of Cady's Turkish game and fevga's first runner.

A *step* is ``(from, to)`` in the mover's numbering: 25 is the bar, 26 "not yet
entered", 0 borne off. A *play* is the steps of one stage of a throw (see
:mod:`games.rules.variants.throws` for the stages: the dice thrown, their
complementary doublets, the doublets a 1-2 names).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .base import BAR, OFF, UNENTERED, Contact, Variant
from .position import VariantPosition

Step = tuple[int, int]
Play = tuple[Step, ...]

_NO = -1


class Board:
    """A mutable position for the search: steps are made and unmade in place."""

    __slots__ = ("me", "mp", "n", "op", "opp", "v")

    def __init__(self, variant: Variant, position: VariantPosition) -> None:
        self.v = variant
        self.n = variant.checkers
        self.me = list(position.me)
        self.opp = list(position.opp)
        self.mp = set(position.me_pinned)
        self.op = set(position.opp_pinned)

    def snapshot(self) -> VariantPosition:
        return VariantPosition(
            tuple(self.me), tuple(self.opp), frozenset(self.mp), frozenset(self.op)
        )

    # -- the rules of one step ---------------------------------------------------------

    def finished(self) -> bool:
        """No more dice are played: the mover is off, or a mother is pinned (plakoto)."""
        if self.me[OFF] == self.n:
            return True
        return self.v.mother_ends_game and (24 in self.mp or 24 in self.op)

    def sources(self) -> list[int]:
        me = self.me
        if me[BAR] and self.v.bar_first:
            if me[UNENTERED] and not self.v.bar_before_unentered:
                return [BAR, UNENTERED]
            return [BAR]
        found = [p for p in range(24, 0, -1) if me[p]]
        if me[BAR]:
            found.insert(0, BAR)
        if me[UNENTERED]:
            found.insert(0, UNENTERED)
        return found

    def open(self, to: int) -> bool:
        """Whether the mover may land on his point ``to`` (1..24)."""
        q = self.v.opposing_point(to)
        theirs = self.opp[q]
        if theirs == 0:
            return True
        contact = self.v.contact
        if contact is Contact.HIT:
            return theirs == 1
        if contact is Contact.BLOCKED:
            return False
        free = theirs - (q in self.op)
        if free == 0:
            return True  # their man lies pinned under mine
        return free == 1 and self.me[to] == 0

    def target(self, frm: int, die: int) -> int:
        """Where a man from ``frm`` goes with ``die`` (0 = off), or -1 if he may not."""
        me, v = self.me, self.v
        if frm >= BAR:
            if me[frm] == 0:
                return _NO
            if frm == UNENTERED and me[BAR] and v.bar_first and v.bar_before_unentered:
                return _NO
            entering = v.turkish_entering and me[UNENTERED] > 0
            to = 25 - die - (1 if entering else 0)
            if not self.open(to):
                return _NO
            if entering and me[to]:
                return _NO  # Cady, Turkish: "cannot cover a point while entering"
            return to
        if me[frm] - (frm in self.mp) <= 0:
            return _NO
        if me[BAR] and v.bar_first:
            return _NO
        if v.turkish_entering and frm == 24 and me[UNENTERED]:
            return _NO  # the two men first placed wait "until all are in"
        if v.fevga_first_runner and frm == 24 and self._runner_out():
            return _NO
        to = frm - die
        if to > 0:
            if not self.open(to):
                return _NO
            if v.turkish_entering and me[to] and not self._turkish_point_ok(to):
                return _NO
            if v.no_prime_unless_passed and me[to] == 0 and self._blind_prime(frm, to):
                return _NO
            return to
        if any(me[7:]):
            return _NO  # bearing off only with every man in the home table
        if to < 0 and any(me[frm + 1 : 7]):
            return _NO
        return OFF

    def _runner_out(self) -> bool:
        """Fevga: one man has left the start and not yet reached the opponent's
        starting quarter (the mover's 12..7), so no second man may leave."""
        me = self.me
        if me[24] != self.n - 1:
            return False
        return any(me[p] for p in range(13, 24))

    def _blind_prime(self, frm: int, to: int) -> bool:
        """Fevga: would the step ``frm``/``to`` hold six points in a row along the
        opponent's way with none of his men past them? His way is his own points 24..1,
        so the run is counted on his numbering (the mover's ``opposing_point``)."""
        me, opp, v = self.me, self.opp, self.v
        held = [False] * 25  # by the opponent's own point
        for p in range(1, 25):
            if me[p] - (1 if p == frm else 0) > 0 or p == to:
                held[v.opposing_point(p)] = True
        run = 0
        for q in range(1, 25):  # from his home outwards: men below q have passed q
            run = run + 1 if held[q] else 0
            if run >= 6 and not opp[OFF] and not any(opp[1 : q - 5]):
                return True
        return False

    def _turkish_point_ok(self, to: int) -> bool:
        """Cady, Turkish: making a point (a second man on it) is allowed there?"""
        me = self.me
        if to >= 19 and me[UNENTERED]:
            return False  # "none this side (inner table) until he has fully entered"
        return not (to <= 12 and me[13] < 2)  # "not ... beyond the twelfth ... until covered"

    def do(self, frm: int, to: int) -> tuple[int, int]:
        """Make a checked step; return what to undo: (hit or pinned point, released)."""
        me, opp, v = self.me, self.opp, self.v
        me[frm] -= 1
        me[to] += 1
        effect = 0
        if 0 < to < BAR:
            q = v.opposing_point(to)
            if opp[q] == 1 and q not in self.op:
                if v.contact is Contact.HIT:
                    opp[q] = 0
                    opp[BAR] += 1
                    effect = q
                elif v.contact is Contact.PIN:
                    self.op.add(q)
                    effect = q
        released = 0
        if 0 < frm < BAR and me[frm] == 0 and v.contact is Contact.PIN:
            qf = v.opposing_point(frm)
            if qf in self.op:
                self.op.discard(qf)
                released = qf
        return effect, released

    def undo(self, frm: int, to: int, token: tuple[int, int]) -> None:
        effect, released = token
        if released:
            self.op.add(released)
        if effect:
            if self.v.contact is Contact.HIT:
                self.opp[effect] = 1
                self.opp[BAR] -= 1
            else:
                self.op.discard(effect)
        self.me[to] -= 1
        self.me[frm] += 1


# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LegalPlay:
    """A legal play and the position after it (same view: the mover still first)."""

    steps: Play
    after: VariantPosition
    hits: tuple[int, ...]  # mover's points where a man was hit or pinned


def stage_plays(
    variant: Variant, position: VariantPosition, dice: Sequence[int]
) -> list[LegalPlay]:
    """Every legal play of ``dice`` (the dice of one stage, e.g. four 3s), one per
    resulting position; the plays use as many dice as any sequence can, and when only one
    of two different dice can be played, the higher if it can. No move: ``[()]``."""
    board = Board(variant, position)
    results: dict[tuple[object, ...], LegalPlay] = {}
    best = [0]
    steps: list[Step] = []
    hits: list[int] = []

    def rec(rest: list[int]) -> None:
        moved = False
        if not board.finished():
            tried: set[int] = set()
            for i, die in enumerate(rest):
                if die in tried:
                    continue
                tried.add(die)
                nrest = rest[:i] + rest[i + 1 :]
                for frm in board.sources():
                    to = board.target(frm, die)
                    if to < 0:
                        continue
                    moved = True
                    token = board.do(frm, to)
                    steps.append((frm, to))
                    if token[0]:
                        hits.append(to)
                    rec(nrest)
                    if token[0]:
                        hits.pop()
                    steps.pop()
                    board.undo(frm, to, token)
        if not moved:
            # a play that ends the game (the last man off, a mother pinned) is complete
            n = len(dice) if board.finished() else len(steps)
            if n < best[0]:
                return
            if n > best[0]:
                best[0] = n
                results.clear()
            after = board.snapshot()
            results.setdefault(after.key(), LegalPlay(tuple(steps), after, tuple(hits)))

    rec(list(dice))
    plays = list(results.values())
    if len(dice) == 2 and dice[0] != dice[1] and best[0] == 1:
        high = max(dice)
        if can_play_die(variant, position, high):
            plays = [p for p in plays if _step_with(variant, position, p.steps[0], high)]
    return plays


def can_play_die(variant: Variant, position: VariantPosition, die: int) -> bool:
    board = Board(variant, position)
    return not board.finished() and any(board.target(f, die) >= 0 for f in board.sources())


def _step_with(variant: Variant, position: VariantPosition, step: Step, die: int) -> bool:
    return Board(variant, position).target(step[0], die) == step[1]


def apply_steps(
    variant: Variant, position: VariantPosition, steps: Iterable[Step]
) -> VariantPosition:
    """The position after ``steps`` (each checked: a :class:`ValueError` if one is not a
    legal single step with some die), mover still first."""
    board = Board(variant, position)
    for frm, to in steps:
        if not any(board.target(frm, d) == to for d in range(1, 7)):
            raise ValueError(f"{frm}/{to} is not a legal step here")
        board.do(frm, to)
    return board.snapshot()


def format_steps(steps: Iterable[Step]) -> str:
    """``bar/22 13/9`` style: 25 and 26 read ``bar`` and ``in`` (entering), 0 ``off``."""
    names = {BAR: "bar", UNENTERED: "in", OFF: "off"}
    return " ".join(f"{names.get(a, a)}/{names.get(b, b)}" for a, b in steps)
