"""The positions of a transcript, move by move, from our own rules engine (pure).

:func:`walk` replays a parsed ``.mat`` with :mod:`games.rules.board` and yields, for
every action, the position before it from the side of the player acting, with the cube
state and the score. The analysis pairs these with gnubg's records (the position check
over the corpus compares their position IDs) and draws the boards from them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from games.rules.board import Play, Position, match_play
from games.rules.matfile import DOUBLE, DROP, RESIGN, ROLL, TAKE, ParsedMatch
from games.rules.replay import is_crawford_game


@dataclass(frozen=True, slots=True)
class Step:
    """One action with the position before it (``position.player`` is the actor)."""

    game: int
    index: int  # 1-based within the game
    kind: str  # the .mat action kind
    player: int
    position: Position | None  # None before the opening roll (a double there is refused)
    dice: tuple[int, int] | None
    play: Play | None
    score: tuple[int, int]
    cube: int
    owner: int | None
    crawford: bool


def walk(match: ParsedMatch) -> Iterator[Step]:
    """Every action of ``match`` with the position before it (the transcript must replay)."""
    length = 0 if match.is_money else match.length
    crawford_played = False
    for game in match.games:
        score = game.score_before
        crawford = length > 0 and is_crawford_game(
            score, length, rule_on=match.crawford_rule, crawford_played=crawford_played
        )
        crawford_played = crawford_played or crawford
        pos: Position | None = None
        cube, owner = 1, None
        for k, action in enumerate(game.actions, start=1):
            if action.kind in (ROLL, RESIGN) and pos is None:
                pos = Position.start(action.player)
            actor_view = pos
            if pos is not None and pos.player != action.player:
                actor_view = pos.flip()
            play = None
            if action.kind == ROLL and pos is not None:
                assert action.dice is not None and action.move is not None
                found = match_play(pos, action.dice, action.move.segments)
                if found is None:
                    raise ValueError(f"game {game.number} action {k}: illegal play")
                play = found[0]
            yield Step(
                game.number,
                k,
                action.kind,
                action.player,
                actor_view,
                action.dice,
                play,
                score,
                cube,
                owner,
                crawford,
            )
            if action.kind == ROLL and pos is not None and found is not None:
                pos = found[1]
            elif action.kind == TAKE:
                cube, owner = cube * 2, action.player
            elif action.kind in (DROP, DOUBLE):
                pass
