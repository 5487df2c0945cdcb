"""A backgammon position and the legal plays for a roll.

Implements ``docs/rules.md``, "Movement", "Hitting and the bar" and "Bearing off"
(movement, "must play both dice or the higher", entering from the bar, hitting a blot,
bearing off, gammon and backgammon) and Hoyle's bearing-off examples in
``docs/rules/hoyle-modernized-backgammon.txt`` (a die may bear off from a lower
point only when no checker stands on a higher point; a higher die may instead be used to
move inside the home board).

Representation (chosen for speed, since transcript replay validates hundreds of
thousands of moves): each side is a tuple of 26 checker counts *in that side's own
numbering*: index 0 = borne off, 1..24 = points counted from that side's home board,
25 = the bar. A point ``p`` of the mover is point ``25 - p`` of the opponent. The
position stores the side to move first (``me``) and the other side second (``opp``);
:meth:`Position.flip` swaps them, which is the other side's view.

Hypergammon plays the same moves with 1, 2 or 3 men a side, so nothing here assumes
fifteen: a side is done when all its men are off, and its men are counted from the side
itself (``sum(side)``: a game never adds or removes one), so the English game,
nackgammon and hypergammon share this fast path.

A *step* is one checker moved by one die: ``(from_point, to_point)`` with ``to_point = 0``
for bearing off and ``from_point = 25`` for entering. A *play* is the tuple of steps made
for one roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.errors import N_

from .errors import RuleViolation
from .types import Level
from .variants.engine import stage_plays
from .variants.position import VariantPosition
from .variants.standard import STANDARD

BAR = 25
OFF = 0
CHECKERS = 15

Step = tuple[int, int]
Play = tuple[Step, ...]

_START: tuple[int, ...] = tuple({6: 5, 8: 3, 13: 5, 24: 2}.get(i, 0) for i in range(26))


@dataclass(frozen=True, slots=True)
class Position:
    """A position from the view of the side to move.

    ``me``/``opp`` are 26 counts each in their own numbering (0 off, 1..24, 25 bar);
    ``player`` is which player is on roll (0 = player 1, the left column of a .mat file).
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]
    player: int = 0

    @classmethod
    def start(cls, player: int = 0) -> Position:
        """The opening position (2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6)."""
        return cls(_START, _START, player)

    def flip(self) -> Position:
        """The same position from the other side's view (the other side is on roll)."""
        return Position(self.opp, self.me, 1 - self.player)

    def validate(self) -> None:
        """Raise :class:`RuleViolation` unless both sides have 15 checkers, no point is
        shared (the English game's check; a variant's positions are checked by
        :func:`games.rules.variants.position.validate`)."""
        for side in (self.me, self.opp):
            if len(side) != 26 or min(side) < 0 or sum(side) != CHECKERS:
                raise RuleViolation(
                    "bad_position", N_("each side must have 15 checkers on 26 slots")
                )
        for p in range(1, 25):
            if self.me[p] and self.opp[25 - p]:
                raise RuleViolation("bad_position", N_("point %(p)s is held by both sides", p=p))


# --------------------------------------------------------------------------------------
# single steps on mutable lists (the hot path)


def _step_ok(me: list[int], opp: list[int], frm: int, die: int) -> int:
    """Where a checker from ``frm`` lands with ``die`` (0 = off), or -1 if illegal.

    Checks: a checker is there; bar checkers enter first; the landing point is not held by
    two or more opposing checkers; bearing off only with every checker home, and with a
    die larger than needed only from the highest occupied point.
    """
    if me[frm] == 0:
        return -1
    if me[BAR] and frm != BAR:
        return -1
    to = frm - die
    if to > 0:
        if opp[25 - to] >= 2:
            return -1
        return to
    # bearing off
    for p in range(7, 26):
        if me[p]:
            return -1
    if to < 0:
        for p in range(frm + 1, 7):
            if me[p]:
                return -1
    return 0


def _do(me: list[int], opp: list[int], frm: int, to: int) -> bool:
    """Move a checker ``frm -> to`` (already checked); return whether it hit a blot."""
    me[frm] -= 1
    me[to] += 1
    if to > 0 and opp[25 - to] == 1:
        opp[25 - to] = 0
        opp[BAR] += 1
        return True
    return False


def _undo(me: list[int], opp: list[int], frm: int, to: int, hit: bool) -> None:
    me[to] -= 1
    me[frm] += 1
    if hit:
        opp[25 - to] = 1
        opp[BAR] -= 1


def _sources(me: list[int]) -> Iterable[int]:
    if me[BAR]:
        return (BAR,)
    return [p for p in range(24, 0, -1) if me[p]]


def _max_usable(me: list[int], opp: list[int], dice: Sequence[int], cap: int) -> int:
    """Most dice of ``dice`` (tried in any order) that can be played, stopping at ``cap``."""
    if not dice or me[OFF] == sum(me):
        return 0
    best = 0
    tried: set[int] = set()
    for i, die in enumerate(dice):
        if die in tried:
            continue
        tried.add(die)
        rest = list(dice[:i]) + list(dice[i + 1 :])
        for frm in _sources(me):
            to = _step_ok(me, opp, frm, die)
            if to < 0:
                continue
            hit = _do(me, opp, frm, to)
            n = 1 + _max_usable(me, opp, rest, cap - 1)
            _undo(me, opp, frm, to, hit)
            if n > best:
                best = n
                if best >= cap:
                    return best
    return best


def dice_list(dice: tuple[int, int]) -> list[int]:
    """The dice to play: doubles are played four times."""
    d1, d2 = dice
    return [d1] * 4 if d1 == d2 else [d1, d2]


def max_dice_usable(position: Position, dice: tuple[int, int]) -> int:
    """How many dice the best play of ``dice`` uses (0..2, or 0..4 for doubles)."""
    ds = dice_list(dice)
    return _max_usable(list(position.me), list(position.opp), ds, len(ds))


def can_play_die(position: Position, die: int) -> bool:
    """Whether some checker can legally move with ``die`` alone."""
    me, opp = list(position.me), list(position.opp)
    return any(_step_ok(me, opp, frm, die) >= 0 for frm in _sources(me))


# --------------------------------------------------------------------------------------
# full generation


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every legal play for ``dice``, one per distinct resulting position.

    Enforces the rules: use as many dice as possible (both, or four for doubles); when
    only one die of a non-double can be used, the higher one if it can be; a dance gives
    the single empty play ``()``. The search is the variant engine's
    (:func:`games.rules.variants.engine.stage_plays`) with the standard entry, so every
    variant is played by one engine; transcript checking keeps the faster
    :func:`match_play` below, which a test holds to the same answers.
    """
    start = VariantPosition((*position.me, 0), (*position.opp, 0))
    return [play.steps for play in stage_plays(STANDARD, start, dice_list(dice))]


def _step_die_could_be(position: Position, step: Step, die: int) -> bool:
    frm, to = step
    return _step_ok(list(position.me), list(position.opp), frm, die) == to


def apply_play(position: Position, play: Iterable[Step]) -> Position:
    """The position after ``play`` (steps assumed legal), with the other side on roll."""
    me, opp = list(position.me), list(position.opp)
    for frm, to in play:
        _do(me, opp, frm, to)
    return Position(tuple(opp), tuple(me), 1 - position.player)


# --------------------------------------------------------------------------------------
# matching a written play (transcript validation without generating every play)


def match_play(
    position: Position, dice: tuple[int, int], segments: Sequence[Step]
) -> tuple[Play, Position] | None:
    """Realise written segments as legal single-die steps, or ``None`` if impossible.

    A segment ``(from, to)`` may span several dice (a merged move such as ``13/6`` for
    6-1, or ``22/13`` for 3-3), whose intermediate points must be open, as gnubg's
    ExpandMatMove does. Segments may be played in any order (entering first, for
    instance). A segment that ends borne off may use several dice whose *last* step bears
    off with a die larger than needed: ``41: 4/off`` is ``4/3 3/off`` (the 1, then the 4
    from the 3 when no checker stands higher), which uses both dice, while reading it as
    ``4/off`` with the 4 alone would leave the 1 unplayed. So realisations that use more
    dice are preferred: the search first asks for every die, then allows one fewer, and
    so on (the full play, by far the most common, costs a single search). Within the same
    number of dice, paths that hit nothing in passing come first (a hit in passing would
    have been written ``24/18*/14``); and a path with fewer dice that hits nothing comes
    before one with more that must hit in passing, when the fewer dice are a legal play
    (the last checker borne off ends the game). Returns the single-die steps and the resulting
    position (other side on roll). Maximality (all dice used when possible, the higher
    die) is checked by :func:`validate_play`.
    """
    rolled = len(dice_list(dice))
    # A reading that hits nothing in passing and uses fewer dice wins over one that
    # hits unwritten, when the fewer dice are a legal play: ``2/off`` with 3-1 and a
    # blot on the 1-point, the last checker off, is the 3 alone (the game is over, the 1
    # need not be played), not ``2/1*/off``.
    full = _match(position, dice, segments, avoid_passing_hits=True, unused=0)
    if full is not None:
        return full
    for unused in range(1, rolled + 1):
        quiet = _match(position, dice, segments, avoid_passing_hits=True, unused=unused)
        if quiet is not None and maximality_violation(position, dice, *quiet) is None:
            return quiet
    for unused in range(rolled + 1):
        for avoid in (True, False):
            found = _match(position, dice, segments, avoid_passing_hits=avoid, unused=unused)
            if found is not None:
                return found
    return None


def _match(
    position: Position,
    dice: tuple[int, int],
    segments: Sequence[Step],
    *,
    avoid_passing_hits: bool,
    unused: int,
) -> tuple[Play, Position] | None:
    """One realisation of ``segments`` that leaves exactly ``unused`` dice unplayed."""
    me, opp = list(position.me), list(position.opp)
    ds = dice_list(dice)
    steps: list[Step] = []
    n = len(segments)
    cur = [frm for frm, _ in segments]
    target = [to for _, to in segments]

    def pick(rest: list[int], left: int) -> bool:
        # advance any unfinished segment by one die; segments may interleave (both
        # checkers enter before either moves on, as in ``bar/21(2)`` for 2-2)
        if left == 0:
            return len(rest) == unused
        if len(rest) <= unused:
            return False
        seen: set[tuple[int, int, int]] = set()
        for i in range(n):
            c, t = cur[i], target[i]
            if c == t:
                continue
            for k, die in enumerate(rest):
                if (c, t, die) in seen:
                    continue
                seen.add((c, t, die))
                if t > 0 and die > c - t:
                    continue
                to = _step_ok(me, opp, c, die)
                if to < 0 or (to == 0 and t != 0):
                    continue
                if avoid_passing_hits and to != t and opp[25 - to] == 1:
                    continue
                hit = _do(me, opp, c, to)
                steps.append((c, to))
                cur[i] = to
                if pick(rest[:k] + rest[k + 1 :], left - (to == t)):
                    return True
                cur[i] = c
                steps.pop()
                _undo(me, opp, c, to, hit)
        return False

    if not pick(ds, n):
        return None
    return tuple(steps), Position(tuple(opp), tuple(me), 1 - position.player)


def hit_points(position: Position, steps: Iterable[Step]) -> frozenset[int]:
    """The points (mover's numbering) where ``steps`` hit a blot, to check ``*`` marks."""
    me, opp = list(position.me), list(position.opp)
    hits = set()
    for frm, to in steps:
        if _do(me, opp, frm, to):
            hits.add(to)
    return frozenset(hits)


def validate_play(
    position: Position, dice: tuple[int, int], segments: Sequence[Step]
) -> tuple[Position, Play]:
    """Check a written play against the rules; return the new position and the steps.

    Raises :class:`RuleViolation` with code ``illegal_move`` (the steps cannot be made
    with these dice), ``not_maximal`` (more dice could have been used) or
    ``higher_die`` (only one die can be played and the higher one was playable).
    """
    found = match_play(position, dice, segments)
    if found is None:
        raise RuleViolation(
            "illegal_move",
            N_(
                "%(value)s is not a legal play of %(value2)s%(value3)s",
                value=format_steps(segments),
                value2=dice[0],
                value3=dice[1],
            ),
        )
    steps, after = found
    problem = maximality_violation(position, dice, steps, after)
    if problem is not None:
        raise problem
    return after, steps


def maximality_violation(
    position: Position, dice: tuple[int, int], steps: Play, after: Position
) -> RuleViolation | None:
    """Why the legal ``steps`` break "use both dice / the higher die", or ``None``.

    Only computed when fewer dice were used than rolled, so the usual full play costs
    nothing here.
    """
    ds = dice_list(dice)
    used = len(steps)
    if used < len(ds) and after.opp[OFF] < sum(after.opp):
        best = max_dice_usable(position, dice)
        if used < best:
            return RuleViolation(
                "not_maximal",
                N_(
                    "%(value)s uses %(used)s dice of %(value2)s%(value3)s; %(best)s can be played",
                    value=format_steps(steps) or "no move",
                    used=used,
                    value2=dice[0],
                    value3=dice[1],
                    best=best,
                ),
            )
    if dice[0] != dice[1] and used == 1:
        high = max(dice)
        if not _step_die_could_be(position, steps[0], high) and can_play_die(position, high):
            return RuleViolation(
                "higher_die",
                N_(
                    "only one die of %(value)s%(value2)s can be played: it must be the %(high)s",
                    value=dice[0],
                    value2=dice[1],
                    high=high,
                ),
            )
    return None


def format_steps(steps: Iterable[Step]) -> str:
    """``13/9 24/23`` style (bar = 25, off = 0), for messages."""
    return " ".join(f"{a}/{b}" for a, b in steps)


# --------------------------------------------------------------------------------------
# end of game


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won a finished game and by how much, before the cube."""

    winner: int  # player index (0 or 1)
    level: Level
    multiplier: int  # 1, 2, 3 (or 4 for a backgammon with a checker on the bar, by option)


def result_level(
    position: Position, *, bar_backgammon_counts_four: bool = False
) -> GameResult | None:
    """The result if a side has borne off all its checkers (15, or hypergammon's 1-3),
    else ``None``.

    Gammon: the loser has borne off none. Backgammon: and still has a checker on the bar
    or in the winner's home board (the loser's points 19..24). Hoyle lets a backgammon
    count "thrice or four times, as agreed"; ``bar_backgammon_counts_four`` makes one with
    a checker on the bar worth 4.
    """
    for winner_side, loser_side, winner in (
        (position.me, position.opp, position.player),
        (position.opp, position.me, 1 - position.player),
    ):
        if winner_side[OFF] == sum(winner_side):
            if loser_side[OFF] > 0:
                return GameResult(winner, Level.SINGLE, 1)
            if loser_side[BAR] and bar_backgammon_counts_four:
                return GameResult(winner, Level.BACKGAMMON, 4)
            if any(loser_side[19:26]):
                return GameResult(winner, Level.BACKGAMMON, 3)
            return GameResult(winner, Level.GAMMON, 2)
    return None


def game_over(position: Position) -> bool:
    """Whether either side has borne off all its checkers."""
    return any(side[OFF] == sum(side) for side in (position.me, position.opp))


def pip_count(side: Sequence[int]) -> int:
    """Pips a side needs to bear off (bar counts 25)."""
    return sum(p * side[p] for p in range(1, 26))
