"""What a replay reports, and the work every replay shares: walking the games in order,
the score lines, the Crawford game, and settling each game's declared result.

The English game's replay (:mod:`games.rules.replay`, through
:mod:`games.rules.board`) and the variant replay (:mod:`games.rules.variant_replay`,
through the registry's engine) each check a game's moves in their own way and hand the
outcome to :meth:`ReplayerBase.settle`, so a ``Wins`` line, a resignation or a score
line is judged alike whatever game was played. The rules cited are those of
:mod:`games.rules.replay`'s docstring.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any

from .matfile import Action, ParsedGame, ParsedMatch
from .types import LEVEL_MULTIPLIER, Ending, Level


@dataclass(frozen=True, slots=True)
class ReplayIssue:
    """One disagreement between a transcript and the rules."""

    file: str
    game: int | None
    move: int | None  # 1-based index of the action within the game
    code: str
    message: str
    line: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "game": self.game,
            "move": self.move,
            "line": self.line,
            "code": self.code,
            "message": self.message,
        }


@dataclass(slots=True)
class GameSummary:
    """What a game was worth once replayed (``winner`` is 0 = left column, 1 = right)."""

    number: int
    score_before: tuple[int, int]
    winner: int | None
    points: int
    cube: int
    level: Level | None
    ending: Ending | None
    crawford: bool
    cube_owner: int | None = None  # who last accepted the cube (None: centred)

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "score_before": list(self.score_before),
            "winner": None if self.winner is None else self.winner + 1,
            "points": self.points,
            "cube": self.cube,
            "level": None if self.level is None else str(self.level),
            "ending": None if self.ending is None else str(self.ending),
            "crawford": self.crawford,
        }


@dataclass(slots=True)
class ReplayResult:
    """The replay of one file; :meth:`to_dict` gives the JSON report."""

    file: str
    length: int
    players: tuple[str, str]
    is_money: bool = False
    games: list[GameSummary] = field(default_factory=list)
    final_score: tuple[int, int] = (0, 0)
    winner: int | None = None  # 0 or 1
    moves_checked: int = 0
    errors: list[ReplayIssue] = field(default_factory=list)
    warnings: list[ReplayIssue] = field(default_factory=list)
    match: ParsedMatch | None = None
    #: The registry key of the transcript's ``Variation`` (games.rules.variants).
    variant: str = "standard"

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "length": self.length,
            "players": list(self.players),
            "games": [g.as_dict() for g in self.games],
            "final_score": list(self.final_score),
            "winner": None if self.winner is None else self.winner + 1,
            "moves_checked": self.moves_checked,
            "errors": [e.as_dict() for e in self.errors],
        }


def is_crawford_game(
    score: tuple[int, int], length: int, *, rule_on: bool, crawford_played: bool
) -> bool:
    """The Crawford game: rule on, N > 1, none yet, exactly one player at N-1."""
    if not rule_on or length <= 1 or crawford_played:
        return False
    return (score[0] == length - 1) != (score[1] == length - 1)


def level_from_points(n: int, cube: int) -> Level:
    if n <= cube:
        return Level.SINGLE
    if n <= 2 * cube:
        return Level.GAMMON
    return Level.BACKGAMMON


@dataclass(slots=True)
class Decided:
    """What a game's moves decided: how it ended (None: not yet), who won what, who
    resigned, and the cube (1 and centred where there is none)."""

    ending: Ending | None = None
    winner: int | None = None
    level: Level | None = None
    points: int = 0
    resigner: int | None = None
    cube: int = 1
    owner: int | None = None


class ReplayerBase(abc.ABC):
    """One file's replay; subclasses check a game's moves (:meth:`replay_game`)."""

    #: Does the game played know the Crawford rule (none without a cube)?
    crawford_allowed = True

    def __init__(self, match: ParsedMatch, name: str) -> None:
        self.match = match
        self.name = name
        self.result = ReplayResult(name, match.length, match.players, match.is_money, match=match)
        self.marks_hits = any(
            any(a.move.hits) for g in match.games for a in g.actions if a.move is not None
        )
        self.unmarked_hits = 0

    def prepare(self) -> bool:
        """Anything to settle before the games (False: nothing can be replayed)."""
        return True

    @abc.abstractmethod
    def replay_game(
        self, game: ParsedGame, crawford: bool, money: bool, score: tuple[int, int], last: bool
    ) -> GameSummary:
        """Check one game's moves and say how it ended (each variant's replayer)."""

    def issue(
        self, game: ParsedGame | None, move: int | None, code: str, msg: str, line: int
    ) -> None:
        self.result.errors.append(
            ReplayIssue(self.name, game.number if game else None, move, code, msg, line)
        )

    def warn(self, game: ParsedGame, code: str, msg: str) -> None:
        self.result.warnings.append(
            ReplayIssue(self.name, game.number, None, code, msg, game.result_line)
        )

    def run(self) -> ReplayResult:
        match, res = self.match, self.result
        if not self.prepare():
            return res
        n = match.length
        money = match.is_money or n == 0
        expected = (0, 0)
        crawford_played = False
        games = match.games
        for gi, game in enumerate(games):
            if game.score_before != expected:
                self.issue(
                    game,
                    None,
                    "score_mismatch",
                    f"score line says {game.score_before[0]}-{game.score_before[1]}, "
                    f"replay gives {expected[0]}-{expected[1]}",
                    game.line,
                )
            score = expected  # continue from the replayed score
            if not money and max(score) >= n:
                self.issue(game, None, "game_after_match", "the match was already over", game.line)
            crawford = (not money) and is_crawford_game(
                score,
                n,
                rule_on=match.crawford_rule and self.crawford_allowed,
                crawford_played=crawford_played,
            )
            crawford_played = crawford_played or crawford
            last = gi == len(games) - 1
            summary = self.replay_game(game, crawford, money, score, last)
            res.games.append(summary)
            if summary.winner is not None:
                s = list(score)
                s[summary.winner] += summary.points
                expected = (s[0], s[1])
        if self.unmarked_hits:
            res.warnings.append(
                ReplayIssue(
                    self.name,
                    None,
                    None,
                    "hits_not_marked",
                    f"the file marks no hits with '*' ({self.unmarked_hits} hits)",
                )
            )
        res.final_score = expected
        if money:
            a, b = expected
            res.winner = None if a == b else (0 if a > b else 1)
        else:
            reached = [i for i in (0, 1) if expected[i] >= n]
            res.winner = reached[0] if len(reached) == 1 else None
            if not reached:
                self.issue(None, None, "match_unfinished", "nobody reached the match length", 0)
        return res

    def compare_hit_marks(
        self,
        game: ParsedGame,
        k: int,
        action: Action,
        real: frozenset[int],
        false_because: str = "no blot was there",
    ) -> None:
        """Compare the written ``*`` marks with the points ``real`` where the play hit: a
        mark where nothing was hit is an error, and so is an unmarked hit in a file that
        marks hits (a file that marks none only gets one warning, see :meth:`run`)."""
        assert action.move is not None
        move = action.move
        written = {seg[1] for seg, mark in zip(move.segments, move.hits, strict=True) if mark}
        for point in sorted(written - real):
            said = f"{point}* marks a hit but {false_because}"
            self.issue(game, k, "false_hit_mark", said, action.line)
        missing = real - written
        if missing and self.marks_hits:
            for point in sorted(missing):
                said = f"the move hits on {point} without '*'"
                self.issue(game, k, "unmarked_hit", said, action.line)
        elif missing:
            self.unmarked_hits += len(missing)

    def settle(
        self,
        game: ParsedGame,
        *,
        crawford: bool,
        money: bool,
        score: tuple[int, int],
        last: bool,
        decided: Decided,
    ) -> GameSummary:
        """The game's summary once its moves are replayed: the declared result (``Wins``,
        a resignation, a resigned match) checked against what the moves decided."""
        ending, winner, level, points = (
            decided.ending,
            decided.winner,
            decided.level,
            decided.points,
        )
        resigner, cube, owner = decided.resigner, decided.cube, decided.owner
        declared = game.declared_winner
        n_decl = game.declared_points
        if ending is None:
            if declared is None:
                self.issue(game, None, "no_result", "the game has no result", game.line)
                return GameSummary(game.number, score, None, 0, cube, None, None, crawford)
            ending, resigner = Ending.RESIGNED, 1 - declared
        if ending == Ending.RESIGNED:
            assert resigner is not None
            winner = 1 - resigner
            if n_decl is None:
                self.issue(game, None, "no_result", "a resignation without 'Wins n'", game.line)
                n_decl = cube
            needed = self.match.length - score[winner]
            match_over = last and not money and game.declared_match and needed > 0
            if match_over and n_decl > 3 * cube and n_decl >= needed:
                # more than any game is worth, and "the match": a match resignation
                ending, level, points = Ending.MATCH_RESIGNED, Level.SINGLE, needed
                self.warn(
                    game,
                    "match_resigned",
                    f"'Wins {n_decl} point and the match' is more than a backgammon with the "
                    f"cube at {cube}: the match was resigned (worth the {needed} points needed)",
                )
            else:
                if n_decl > 3 * cube:
                    self.warn(game, "bogus_points", f"'Wins {n_decl}' read as a backgammon")
                level = level_from_points(n_decl, cube)
                points = cube * LEVEL_MULTIPLIER[level]
        if declared is None:
            self.issue(game, None, "no_result", "no 'Wins' line", game.line)
        elif declared != winner:
            assert winner is not None  # every ending above names the winner
            self.issue(
                game,
                None,
                "wrong_winner",
                f"'Wins' is in player {declared + 1}'s column, replay says player {winner + 1}",
                game.result_line,
            )
        elif (
            n_decl is not None
            and n_decl != points
            and ending not in (Ending.RESIGNED, Ending.MATCH_RESIGNED)
        ):
            self.check_points(game, n_decl, points, cube, winner, score, money, last)
        return GameSummary(game.number, score, winner, points, cube, level, ending, crawford, owner)

    def check_points(
        self,
        game: ParsedGame,
        declared: int,
        points: int,
        cube: int,
        winner: int,
        score: tuple[int, int],
        money: bool,
        last: bool,
    ) -> None:
        n = self.match.length
        if last and n > 0:
            needed = n - score[winner]
            if declared in (min(points, needed), min(points, n)) and score[winner] + points >= n:
                self.warn(
                    game, "capped_final", f"'Wins {declared}' capped; the game is worth {points}"
                )
                return
        if money and cube == 1 and declared == 1:
            self.warn(game, "jacoby", f"gammon counted single with the cube centred ({points})")
            return
        self.issue(
            game,
            None,
            "wrong_points",
            f"'Wins {declared}' but the game is worth {points} (cube {cube})",
            game.result_line,
        )
