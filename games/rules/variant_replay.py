"""Replay a transcript of a variant GNU Backgammon does not play, with the registry's
engine: Cady's Russian and Turkish games, acey-deucey, tavli's portes, plakoto and
fevga (alone, or in the tavli rotation) and tavla (docs/transcripts.md, "Variants").

A throw of these games can be several plays (:mod:`games.rules.variants.throws`): the
dice thrown, their complementary doublets, the doublets a 1-2 names, then perhaps a
further throw. Each play is one cell, ``dd: moves``, whose dice are the dice that play
uses, and a player's cells follow one another on their own numbered lines until the
turn passes:

* ``66: ...`` then ``11: ...`` -- Russian sixes and their complementary aces;
* ``21: ...`` then ``55: ...`` -- an acey-deucey 1-2, then the fives the caster named;
* then ``dd: ...`` again -- the further throw.

What a cell is follows from the rules alone (after a privileged 66 in the Russian game
only the aces can come), so the replay checks that each cell's dice are the ones due
and its play is one the engine lists for that stage. A cell in the other column while a
stage or a further throw is due, complementary dice other than 7 - n, a named "doublet"
that is not one, a cube action in a game without the cube: each is refused with the
game, the move number and the reason, like an illegal move. The game's result comes
from the variant's scoring (:func:`games.rules.variants.scoring.game_result`: tavli's
1 or 2 points, plakoto's pinned mother), then the declared ``Wins`` is settled as in
every replay (:class:`games.rules.replay_results.ReplayerBase`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .matfile import RESIGN, ROLL, Action, ParsedGame, ParsedMatch
from .notation import format_move
from .replay_results import Decided, GameSummary, ReplayerBase
from .types import Ending
from .variant_moves import read_play
from .variants import Variant
from .variants.base import Contact
from .variants.position import VariantPosition
from .variants.scoring import game_result
from .variants.throws import Next, Stage, Throw, legal_plays
from .variants.transcripts import TranscriptGame


@dataclass(slots=True)
class _Game:
    """Where a game stands between cells: the position from the mover's side, what is
    due from him (a stage of the same throw, or a further throw), who has thrown
    doublets (Cady's first-doublets rule) and, once over, the result."""

    variant: Variant
    position: VariantPosition
    mover: int | None = None
    due: Throw | None = None
    again: bool = False
    doublets_thrown: set[int] = field(default_factory=set)
    decided: Decided = field(default_factory=Decided)

    def owes(self) -> str | None:
        """What the mover still owes, in words, or None when his turn is over."""
        if self.due is None:
            return "a further throw" if self.again else None
        if self.due.stage is Stage.CHOSEN:
            return "the doublets the 1-2 names"
        n = 7 - (self.due.chosen if self.due.chosen is not None else self.due.dice[0])
        return f"the complementary {n}{n}"


class VariantReplayer(ReplayerBase):
    """The replay of a transcript whose games are played by the registry's engine."""

    def __init__(self, match: ParsedMatch, name: str, played: TranscriptGame) -> None:
        super().__init__(match, name)
        self.played = played
        self.result.variant = played.key
        self.crawford_allowed = played.games[0].crawford

    def replay_game(
        self, game: ParsedGame, crawford: bool, money: bool, score: tuple[int, int], last: bool
    ) -> GameSummary:
        variant = self.played.game(game.number)
        state = _Game(variant, VariantPosition.start(variant))
        for k, action in enumerate(game.actions, start=1):
            if state.decided.ending is not None:
                self.issue(
                    game, k, "action_after_end", f"{action.kind} after the game ended", action.line
                )
                break
            if action.kind not in (ROLL, RESIGN):
                self.issue(
                    game,
                    k,
                    "no_cube_in_variant",
                    f"{variant.name} is played without the doubling cube: no {action.kind}",
                    action.line,
                )
                break
            if not self.take_turn(game, k, action, state):
                break
            if action.kind == RESIGN:
                state.decided.ending, state.decided.resigner = Ending.RESIGNED, action.player
                continue
            if not self.play(game, k, action, state):
                break
        return self.settle(
            game, crawford=crawford, money=money, score=score, last=last, decided=state.decided
        )

    def take_turn(self, game: ParsedGame, k: int, action: Action, state: _Game) -> bool:
        """Is it ``action.player``'s cell? Turns the board when the turn passes."""
        if state.mover is None:
            state.mover = action.player  # the first cell's player starts
            return True
        owed = state.owes()
        if owed is not None:
            if action.player != state.mover:
                self.issue(
                    game,
                    k,
                    "throw_unfinished",
                    f"player {state.mover + 1} owes {owed} before the turn passes",
                    action.line,
                )
                return False
            return True
        if action.player == state.mover:
            self.issue(
                game,
                k,
                "out_of_turn",
                f"player {action.player + 1} played out of turn",
                action.line,
            )
            return False
        state.mover, state.position = action.player, state.position.flip()
        return True

    def throw_for(self, game: ParsedGame, k: int, action: Action, state: _Game) -> Throw | None:
        """The stage this cell plays, checking its dice are the ones due."""
        assert action.dice is not None and state.mover is not None
        d1, d2 = action.dice
        due = state.due
        if due is None:
            if d1 == d2:
                earlier = state.mover in state.doublets_thrown
                state.doublets_thrown.add(state.mover)
                return Throw((d1, d2), earlier_doublets=earlier)
            return Throw((d1, d2), earlier_doublets=state.mover in state.doublets_thrown)
        if due.stage is Stage.CHOSEN:
            if d1 != d2:
                self.issue(
                    game,
                    k,
                    "wrong_dice",
                    f"a 1-2 names doublets: {d1}{d2} are not doublets",
                    action.line,
                )
                return None
            return Throw(due.dice, Stage.CHOSEN, chosen=d1, earlier_doublets=due.earlier_doublets)
        owed = state.owes()
        n = 7 - (due.chosen if due.chosen is not None else due.dice[0])
        if (d1, d2) != (n, n):
            self.issue(game, k, "wrong_dice", f"{d1}{d2} written where {owed} are due", action.line)
            return None
        return due

    def play(self, game: ParsedGame, k: int, action: Action, state: _Game) -> bool:
        """Check one cell's play; False stops checking the game (its position is lost)."""
        assert action.dice is not None and action.move is not None and state.mover is not None
        self.result.moves_checked += 1
        throw = self.throw_for(game, k, action, state)
        if throw is None:
            return False
        variant, before = state.variant, state.position
        stage = legal_plays(variant, before, throw)
        legal = {p.after.key() for p in stage.plays}
        readings = read_play(variant, before, stage.dice, action.move.segments)
        reading = next((r for r in readings if r.after.key() in legal), None)
        if reading is None:
            text = format_move(action.move.segments) or "no move"
            dice = "".join(str(d) for d in action.dice)
            if readings:
                reason = "it must use as many dice as can be played (of two, the higher)"
                code = "not_maximal"
            else:
                reason = "the steps cannot be played with these dice"
                code = "illegal_move"
            self.issue(
                game,
                k,
                code,
                f"{text} is not a legal play of {dice} in {variant.name}: {reason}",
                action.line,
            )
            return False
        self.check_marks(game, k, action, variant, reading.hits)
        state.position = reading.after
        state.due, state.again = None, False
        over = game_result(variant, reading.after)
        if over is not None:
            winner = state.mover if over.winner == "mover" else 1 - state.mover
            state.decided = Decided(Ending.PLAYED, winner, over.level, over.points)
        elif stage.next is Next.COMPLEMENTARY:
            state.due = Throw(throw.dice, Stage.COMPLEMENTARY, throw.chosen, throw.earlier_doublets)
        elif stage.next is Next.CHOOSE_DOUBLETS:
            state.due = Throw(throw.dice, Stage.CHOSEN, earlier_doublets=throw.earlier_doublets)
        elif stage.next is Next.THROW_AGAIN:
            state.again = True
        return True

    def check_marks(
        self, game: ParsedGame, k: int, action: Action, variant: Variant, real: frozenset[int]
    ) -> None:
        """``*`` marks a hit and nothing else: a plakoto pin or a step of fevga (no
        contact) writes none."""
        why = {
            Contact.PIN: f"{variant.name} pins, it does not hit",
            Contact.BLOCKED: f"nothing is hit in {variant.name}",
        }.get(variant.contact, "no blot was there")
        self.compare_hit_marks(game, k, action, real, why)
