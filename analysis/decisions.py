"""Decisions of an analysed match: gnubg's records turned into what we store and show.

Pure over :class:`analysis.engine.EngineMatch` (plain data; this module never calls the
engine). Each checker play becomes one decision; a position where the player on roll
could double becomes a cube decision (no double) before it; a double, a take and a pass
are cube decisions of the doubler and the taker. Equities are normalised (EMG) for the
player deciding; ``loss`` is best minus played.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.notation import format_play

from .engine import EngineMatch
from .figures import (
    CHECKER,
    DOUBLE,
    NO_DOUBLE,
    PASS,
    TAKE,
    CubeEquities,
    Decision,
    checker_decision,
    cube_decisions,
)

_ANSWERS = {"double": DOUBLE, "take": TAKE, "drop": PASS}


@dataclass(slots=True)
class DecisionRow:
    """One decision with everything the analysis stores for it."""

    game: int
    index: int  # the record's place in the game (1-based)
    decision: Decision
    dice: tuple[int, int] | None
    position_id: str
    match_id: str
    played: str
    best: str
    cube: CubeEquities | None
    score: tuple[int, int]
    crawford: bool
    cube_value: int = 1
    cube_owner: int | None = None

    @property
    def player(self) -> int:
        return self.decision.player

    @property
    def kind(self) -> str:
        return self.decision.kind

    @property
    def loss(self) -> float:
        return self.decision.loss


def _cube_words(kind: str) -> str:
    return {
        NO_DOUBLE: "No double",
        DOUBLE: "Double",
        TAKE: "Take",
        PASS: "Pass",
    }[kind]


def _best_cube_words(kind: str, cube: CubeEquities) -> str:
    if kind in (NO_DOUBLE, DOUBLE):
        return "Double" if cube.double > cube.no_double else "No double"
    return "Take" if cube.double_take <= cube.double_pass else "Pass"


def decisions_of(match: EngineMatch) -> list[DecisionRow]:
    """Every decision of both players, in the order they were made."""
    rows: list[DecisionRow] = []
    for game in match.games:
        for index, record in enumerate(game.records, start=1):

            def add(
                decision: Decision,
                played: str,
                best: str,
                cube: CubeEquities | None,
                rec=record,
                i=index,
                g=game,
            ) -> None:
                rows.append(
                    DecisionRow(
                        g.number,
                        i,
                        decision,
                        rec.dice,
                        rec.board,
                        rec.match_id,
                        played,
                        best,
                        cube,
                        g.score,
                        g.crawford,
                        rec.cube_value,
                        rec.cube_owner,
                    )
                )

            cube = (
                CubeEquities(record.cube.no_double, record.cube.double_take)
                if record.cube is not None
                else None
            )
            if record.action == "move":
                if cube is not None:
                    d = cube_decisions(record.player, NO_DOUBLE, cube)
                    add(d, "No double", _best_cube_words(NO_DOUBLE, cube), cube)
                played = format_play(record.played or ())
                if record.candidates and record.played_index is not None:
                    best = record.candidates[0]
                    mine = record.candidates[record.played_index]
                    d = checker_decision(
                        record.player,
                        mine.equity,
                        best.equity,
                        len(record.candidates),
                        record.luck,
                    )
                    add(d, played, format_play(best.steps), None)
                else:  # a dance or a play gnubg did not list: forced
                    d = checker_decision(record.player, 0.0, 0.0, 0, record.luck)
                    add(d, played, played, None)
            elif record.action in _ANSWERS and cube is not None:
                kind = _ANSWERS[record.action]
                d = cube_decisions(record.player, kind, cube)
                add(d, _cube_words(kind), _best_cube_words(kind, cube), cube)
    return rows


__all__ = ["CHECKER", "DecisionRow", "decisions_of"]
