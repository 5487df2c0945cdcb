"""Replay a parsed ``.mat`` transcript through the rules and report every disagreement.

Rules checked, with their sources:

* every move is legal for its roll (movement, entering, bearing off, both dice / the
  higher die): the modern rules (``docs/rules.md``) and Hoyle's
  bearing-off examples in ``docs/rules/hoyle-modernized-backgammon.txt``, through
  :mod:`games.rules.board`, from the start of the transcript's variant (its
  ``Variation`` tag) with its number of men; a hypergammon play must moreover be one
  the registry's engine lists for the roll (:data:`~.variants.transcripts.ENGINE_CONFIRMED`);
* the cube: either player may double while the cube is in the centre, afterwards only its
  owner, on their own turn, before rolling; a take doubles the cube and gives it to the
  taker; a drop ends the game for the cube value *before* the double; beavers and
  raccoons only in money play; no double in the Crawford game
  (the modern rules, ``docs/rules.md``);
* the Crawford game is the first game in which exactly one player stands at N-1 (the rule
  on, N > 1); every later game is post-Crawford (``docs/transcripts-format.md`` section 2);
* the result: played out -> the level from the final position; dropped -> the cube before
  the double; resigned (``????`` or ``Wins`` with the game still in play) -> the level
  read from the declared points n and the cube c the way gnubg does (n <= c single,
  n <= 2c gammon, else backgammon; docs/transcripts-format.md section 1.6);
* a resigned *match*: BackgammonGalaxy writes the last game of a match the loser
  resigned as ``Wins n point and the match`` with n above any game value (n > 3c, e.g.
  ``Wins 5 point and the match`` after one move of a 5-point match). When the last
  game is resigned, says ``and the match``, n > 3c and n is at least what the winner
  needed, the game ends ``Ending.MATCH_RESIGNED``, worth exactly the points needed
  (Galaxy's n on that line is sometimes capped at the points needed, sometimes at the
  match length, so only "the winner reached N" is trusted; ``docs/transcripts-format.md``,
  dialects) and a ``match_resigned`` warning quotes n. Any other game claiming more
  than a backgammon is read as one, as gnubg does, so a wrong n there still fails the
  next score line, and a last game that does not say ``and the match`` (gnubg never
  does) or falls short of N stays unfinished (``match_unfinished``);
* each score line equals the previous one plus the points won;
* the ``*`` hit marks agree with the hits the moves really make: a mark where nothing
  was hit is an error (``false_hit_mark``), and so is a hit left unmarked
  (``unmarked_hit``) in a file that marks hits. Galaxy never writes ``*`` at all, so a
  file without a single mark gets one ``hits_not_marked`` warning instead (over the
  corpus, Studio and gnubg files agree with every hit, Galaxy files mark none).

Documented quirks that are tolerated and reported as *warnings*, not errors
(docs/transcripts-format.md section 3): Galaxy's final ``Wins n … and the match`` capped at
the points the winner needed or at the match length; Studio's bogus ``Wins 4016 point``
after ``????``.

Each disagreement becomes a :class:`ReplayIssue` (file, game, move number, rule code)
and replay continues with the next game, so one file yields every error it contains.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import (
    Play,
    Position,
    dice_list,
    hit_points,
    match_play,
    maximality_violation,
    result_level,
)
from .errors import RuleViolation
from .matfile import (
    BEAVER,
    DOUBLE,
    DROP,
    RACCOON,
    RESIGN,
    ROLL,
    TAKE,
    Action,
    MatParseError,
    ParsedGame,
    ParsedMatch,
    parse_mat,
)
from .types import LEVEL_MULTIPLIER, Ending, Level
from .variants import STANDARD, Variant
from .variants.engine import stage_plays
from .variants.position import VariantPosition
from .variants.transcripts import ENGINE_CONFIRMED, REPLAYED, variant_of_variation


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


def _level_from_points(n: int, cube: int) -> Level:
    if n <= cube:
        return Level.SINGLE
    if n <= 2 * cube:
        return Level.GAMMON
    return Level.BACKGAMMON


class _Replayer:
    def __init__(self, match: ParsedMatch, name: str) -> None:
        self.match = match
        self.name = name
        self.result = ReplayResult(name, match.length, match.players, match.is_money, match=match)
        self.marks_hits = any(
            any(a.move.hits) for g in match.games for a in g.actions if a.move is not None
        )
        self.unmarked_hits = 0
        self.start_side: tuple[int, ...] = Position.start().me
        self.variant: Variant = STANDARD

    def start(self, player: int) -> Position:
        """The opening position of the transcript's variant, ``player`` on roll."""
        return Position(self.start_side, self.start_side, player)

    def choose_variant(self) -> bool:
        """Read the ``Variation`` tag; refuse (an error, no replay) a variant the replay
        cannot check move by move, rather than checking it as the English game."""
        try:
            variant = variant_of_variation(self.match.metadata.get("Variation"))
        except RuleViolation as err:
            self.issue(None, None, err.code, str(err.message), 0)
            return False
        self.result.variant = variant.key
        if variant.key not in REPLAYED:
            self.issue(
                None,
                None,
                "variant_not_checked",
                f"{variant.name} transcripts are not checked move by move yet",
                0,
            )
            return False
        self.variant = variant
        self.start_side = variant.start_side()[:26]
        return True

    def engine_refusal(
        self, pos: Position, dice: tuple[int, int], steps: Play, after: Position
    ) -> str | None:
        """Why the registry's engine does not list the play ``steps`` (which made
        ``after``) for ``dice`` in the transcript's variant, or ``None`` when it does (or
        the variant is left to the fast path alone)."""
        if self.variant.key not in ENGINE_CONFIRMED:
            return None
        start = VariantPosition((*pos.me, 0), (*pos.opp, 0))
        plays = stage_plays(self.variant, start, dice_list(dice))
        # ``after`` is the other side's view: its ``opp`` is the mover
        if any(p.after.me[:26] == after.opp and p.after.opp[:26] == after.me for p in plays):
            return None
        text = " ".join(f"{x}/{y}" for x, y in steps) or "no move"
        return f"{text} is not a legal play of {dice[0]}{dice[1]} in {self.variant.name}"

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
        if not self.choose_variant():
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
                score, n, rule_on=match.crawford_rule, crawford_played=crawford_played
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

    def replay_game(
        self, game: ParsedGame, crawford: bool, money: bool, score: tuple[int, int], last: bool
    ) -> GameSummary:
        pos: Position | None = None
        cube, owner = 1, None
        pending: int | None = None  # the doubler awaiting an answer
        beavered = False
        ending: Ending | None = None
        winner: int | None = None
        level: Level | None = None
        points = 0
        resigner: int | None = None
        synced = True
        for k, a in enumerate(game.actions, start=1):
            if ending is not None:
                self.issue(game, k, "action_after_end", f"{a.kind} after the game ended", a.line)
                break
            if a.kind in (ROLL, RESIGN):
                if pending is not None:
                    self.issue(game, k, "double_unanswered", "a roll before take/drop", a.line)
                    pending = None
                beavered = False
                if pos is None:
                    pos = self.start(a.player)
                elif pos.player != a.player:
                    self.issue(
                        game, k, "out_of_turn", f"player {a.player + 1} rolled out of turn", a.line
                    )
                    pos = pos.flip()
                if a.kind == RESIGN:
                    ending, resigner = Ending.RESIGNED, a.player
                    continue
                if not synced:
                    pos = pos.flip()
                    continue
                assert a.dice is not None and a.move is not None
                self.result.moves_checked += 1
                found = match_play(pos, a.dice, a.move.segments)
                if found is None:
                    text = " ".join(f"{x}/{y}" for x, y in a.move.segments) or "no move"
                    self.issue(
                        game,
                        k,
                        "illegal_move",
                        f"{text} is not a legal play of {a.dice[0]}{a.dice[1]}",
                        a.line,
                    )
                    synced = False  # the position is unknown from here on
                    pos = pos.flip()
                    continue
                steps, after = found
                self.check_hit_marks(game, k, a, pos, steps)
                problem = maximality_violation(pos, a.dice, steps, after)
                refusal = None if problem else self.engine_refusal(pos, a.dice, steps, after)
                if refusal is not None:
                    problem = RuleViolation("illegal_move", refusal)
                if problem is not None:
                    if not steps and k == len(game.actions) and game.declared_winner is not None:
                        # gnubg writes "rolled, then resigned" as a bare roll
                        # (docs/transcripts-format.md section 1.5)
                        ending, resigner = Ending.RESIGNED, a.player
                        continue
                    # the written play is possible but not maximal: report it and go on
                    # from the written position, which later moves confirm or refute
                    self.issue(game, k, problem.code, problem.message, a.line)
                pos = after
                over = result_level(pos)
                if over is not None:
                    ending, winner, level = Ending.PLAYED, over.winner, over.level
                    points = cube * over.multiplier
            elif a.kind == DOUBLE:
                if pending is not None:
                    self.issue(game, k, "double_unanswered", "a double before take/drop", a.line)
                if pos is None:
                    self.issue(
                        game, k, "double_before_roll", "no double before the opening roll", a.line
                    )
                    pos = self.start(a.player)
                elif pos.player != a.player:
                    self.issue(game, k, "out_of_turn", "a double out of turn", a.line)
                if crawford:
                    self.issue(game, k, "crawford_double", "no double in the Crawford game", a.line)
                if owner is not None and owner != a.player:
                    self.issue(game, k, "cube_owner", "only the cube owner may double", a.line)
                if a.value is not None and a.value != 2 * cube:
                    self.issue(
                        game, k, "cube_value", f"doubles to {a.value}, cube is {cube}", a.line
                    )
                pending = a.player
            elif a.kind in (TAKE, DROP, BEAVER):
                if pending is None or pending == a.player:
                    self.issue(game, k, "no_double", f"{a.kind} without a double", a.line)
                    if a.kind == DROP:
                        ending, winner, level, points = (
                            Ending.DROPPED,
                            1 - a.player,
                            Level.SINGLE,
                            cube,
                        )
                    continue
                if a.kind == TAKE:
                    cube, owner, pending = cube * 2, a.player, None
                elif a.kind == DROP:
                    ending, winner, level, points = Ending.DROPPED, pending, Level.SINGLE, cube
                    pending = None
                else:
                    if not money:
                        self.issue(game, k, "beaver_in_match", "beavers only in money play", a.line)
                    cube, owner, pending, beavered = cube * 4, a.player, None, True
            elif a.kind == RACCOON:
                if not money:
                    self.issue(game, k, "raccoon_in_match", "raccoons only in money play", a.line)
                if not beavered:
                    self.issue(game, k, "no_beaver", "a raccoon answers a beaver", a.line)
                cube, owner = cube * 2, a.player
        # ---- the declared result
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
                level = _level_from_points(n_decl, cube)
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

    def check_hit_marks(
        self, game: ParsedGame, k: int, action: Action, pos: Position, steps: Play
    ) -> None:
        """Compare the written ``*`` marks with the blots the steps really hit."""
        assert action.move is not None
        move = action.move
        written = {seg[1] for seg, mark in zip(move.segments, move.hits, strict=True) if mark}
        real = hit_points(pos, steps)
        for point in sorted(written - real):
            self.issue(
                game,
                k,
                "false_hit_mark",
                f"{point}* marks a hit but no blot was there",
                action.line,
            )
        missing = real - written
        if missing and self.marks_hits:
            for point in sorted(missing):
                self.issue(
                    game, k, "unmarked_hit", f"the move hits on {point} without '*'", action.line
                )
        elif missing:
            self.unmarked_hits += len(missing)

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


def replay_match(match: ParsedMatch, name: str = "") -> ReplayResult:
    """Replay a parsed match; never raises for rule problems (they are collected)."""
    return _Replayer(match, name).run()


def check_text(text: str, name: str = "<text>", *, money: bool | None = None) -> ReplayResult:
    """Parse and replay a transcript. A parse error becomes a single issue."""
    try:
        match = parse_mat(text, money=money)
    except MatParseError as exc:
        res = ReplayResult(name, 0, ("", ""))
        res.errors.append(ReplayIssue(name, None, None, exc.code, exc.message, exc.line))
        return res
    return replay_match(match, name)


def check_file(path: str | Path, *, money: bool | None = None) -> ReplayResult:
    """Check one file; Galaxy coin games (folder ``galaxy_coingame``) are money games."""
    p = Path(path)
    if money is None and "coingame" in p.parent.name.lower():
        money = True
    text = p.read_text(encoding="utf-8", errors="replace")
    return check_text(text, str(p), money=money)
