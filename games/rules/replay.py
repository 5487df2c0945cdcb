"""Replay a parsed ``.mat`` transcript through the rules and report every disagreement.

Rules checked, with their sources:

* every move is legal for its roll (movement, entering, bearing off, both dice / the
  higher die): the modern rules (``docs/rules.md``) and Hoyle's
  bearing-off examples in ``docs/rules/hoyle-modernized-backgammon.txt``, through
  :mod:`games.rules.board`, from the start of the transcript's variant (its
  ``Variation`` tag) with its number of men; a hypergammon play must moreover be one
  the registry's engine lists for the roll (:data:`~.variants.transcripts.ENGINE_CONFIRMED`).
  The variants that do not play the English moves (the Russian and Turkish games,
  acey-deucey, tavli, tavla) are replayed by :mod:`games.rules.variant_replay` instead,
  every play checked by the registry's engine alone;
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

from pathlib import Path

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
from .notation import IN
from .replay_results import (
    Decided,
    GameSummary,
    ReplayerBase,
    ReplayIssue,
    ReplayResult,
    is_crawford_game,
)
from .types import Ending, Level
from .variant_replay import VariantReplayer
from .variants import STANDARD, Variant
from .variants.engine import stage_plays
from .variants.position import VariantPosition
from .variants.transcripts import ENGINE_CONFIRMED, transcript_game

__all__ = [
    "GameSummary",
    "ReplayIssue",
    "ReplayResult",
    "check_file",
    "check_text",
    "is_crawford_game",
    "replay_match",
]


class _Replayer(ReplayerBase):
    """The English game and the variants that play its moves (:data:`REPLAYED`)."""

    def __init__(self, match: ParsedMatch, name: str, variant: Variant = STANDARD) -> None:
        super().__init__(match, name)
        self.variant = variant
        self.start_side: tuple[int, ...] = variant.start_side()[:26]
        self.result.variant = variant.key

    def start(self, player: int) -> Position:
        """The opening position of the transcript's variant, ``player`` on roll."""
        return Position(self.start_side, self.start_side, player)

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
                entering = any(frm == IN for frm, _ in a.move.segments)
                found = None if entering else match_play(pos, a.dice, a.move.segments)
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
        decided = Decided(ending, winner, level, points, resigner, cube, owner)
        return self.settle(
            game, crawford=crawford, money=money, score=score, last=last, decided=decided
        )

    def check_hit_marks(
        self, game: ParsedGame, k: int, action: Action, pos: Position, steps: Play
    ) -> None:
        """Compare the written ``*`` marks with the blots the steps really hit."""
        self.compare_hit_marks(game, k, action, hit_points(pos, steps))


def replay_match(match: ParsedMatch, name: str = "") -> ReplayResult:
    """Replay a parsed match; never raises for rule problems (they are collected).

    The ``Variation`` (and ``HouseRules``) tags choose the replay: the English game's
    for the variants that play its moves, the registry's engine for the others
    (:mod:`games.rules.variant_replay`); a tag naming no game we know is refused."""
    try:
        played = transcript_game(match.metadata)
    except RuleViolation as err:
        res = ReplayResult(name, match.length, match.players, match.is_money, match=match)
        res.errors.append(ReplayIssue(name, None, None, err.code, str(err.message), 0))
        return res
    if played.english_moves:
        return _Replayer(match, name, played.games[0]).run()
    return VariantReplayer(match, name, played).run()


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
