"""Parser of ``.mat`` match transcripts (Jellyfish / GNU Backgammon and their dialects).

Implements the grammar written down in ``docs/transcripts-format.md``: optional
``; [Key "Value"]`` metadata and a UTF-8 BOM, the ``N point match`` header, ``Game k``
headers, score lines (the score *before* each game; names may be empty, numeric or
contain spaces), numbered move lines with a left (player 1) and a right (player 2) cell,
rolls with moves (``25``/``bar``, ``0``/``off``, ``(n)``, ``Cannot Move``), ``????``
(rolled, then resigned), cube actions (``Doubles => v``, ``Takes``, ``Drops``,
``Beavers => v``, ``Raccoons``) and results (``Wins n point(s) [and the match]``,
Galaxy's ``Losses n point``). The column of ``Wins`` names the game's winner.

This module only reads the text; :mod:`games.rules.replay` checks it against the rules
of ``docs/rules.md``. Every malformed input raises
:class:`MatParseError` carrying the line number, never an ``IndexError``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import N_

from .errors import RuleViolation
from .limits import MAX_PLAYER_NAME
from .notation import ParsedMove, parse_dice, parse_move


class MatParseError(RuleViolation):
    """A transcript that cannot be read; ``line`` is 1-based (0 when unknown)."""

    def __init__(self, code: str, message: str, line: int = 0) -> None:
        # the line number is part of the translated sentence (a German page said "line 1:")
        shown = N_("line %(line)s: %(message)s", line=line, message=message) if line else message
        super().__init__(code, shown, "file")
        self.line = line


ROLL, DOUBLE, TAKE, DROP, BEAVER, RACCOON, RESIGN = (
    "roll",
    "double",
    "take",
    "drop",
    "beaver",
    "raccoon",
    "resign",
)


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player did: a roll and its move, a cube action, or ``????`` (resign).

    ``player`` is 0 (left column) or 1 (right). ``dice`` and ``move`` are set for rolls
    (and for ``resign`` after a roll); ``value`` is the cube value offered by a double or
    beaver.
    """

    kind: str
    player: int
    line: int
    dice: tuple[int, int] | None = None
    move: ParsedMove | None = None
    value: int | None = None


@dataclass(slots=True)
class ParsedGame:
    """One game as written: the score before it, its actions and the declared result."""

    number: int
    score_before: tuple[int, int]
    line: int
    actions: list[Action] = field(default_factory=list)
    declared_winner: int | None = None  # column of ``Wins``
    declared_points: int | None = None
    declared_match: bool = False  # ``and the match``
    declared_loss: int | None = None  # Galaxy's ``Losses n point`` (loser's column)
    result_line: int = 0
    names: tuple[str, str] = ("", "")


@dataclass(slots=True)
class ParsedMatch:
    """A whole transcript. ``length`` 0 or ``is_money`` means money play."""

    length: int
    players: tuple[str, str]
    metadata: dict[str, str]
    games: list[ParsedGame]
    is_money: bool = False

    @property
    def crawford_rule(self) -> bool:
        """Crawford applies unless a tag says ``Off`` (gnubg assumes it is always on)."""
        return self.metadata.get("Crawford", "On").strip().lower() != "off"


_HEADER = re.compile(r"^\s*(\d{1,6})\s*[Pp]oint\s+[Mm]atch\b")
_GAME = re.compile(r"\bGame\s+(\d+)\s*$")
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(-?\d+)\s+(.*?)\s*:\s*(-?\d+)\s*$")
_TAG = re.compile(r'^\s*[;#]\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_NUMBER = re.compile(r"^\s*\d+\)")
_MID_NUMBER = re.compile(r"(?<=\s)\d+\)(?=\s|$)")
_CELL_START = re.compile(
    r"(?<![\w/(])(?:\d\d:|Doubles\b|Takes\b|Drops\b|Beavers\b|Raccoons\b|Wins\b|Losses\b)"
)
_RESULT = re.compile(r"^(Wins|Losses)\s+(\d+)\s+points?(\s+and\s+the\s+match)?\s*$", re.I)
_CUBE = re.compile(r"^(Doubles|Beavers)\s*=>\s*(\d+)\s*$")
_RIGHT_COLUMN = 16  # a cell starting at or after this column (of its line) is player 2's
_MAX_LENGTH = 64


def _strip_rating(name: str) -> str:
    """GridGammon appends ``, <rating>`` to names; gnubg strips it."""
    return re.sub(r",\s*-?\d+(?:\.\d+)?$", "", name).strip()


def _cells(text: str) -> list[tuple[int, str]]:
    """Split a move line (number already blanked) into ``(player, cell text)``."""
    starts = [m.start() for m in _CELL_START.finditer(text)]
    if not starts:
        return []
    pieces = [
        (s, text[s : starts[i + 1] if i + 1 < len(starts) else len(text)].strip())
        for i, s in enumerate(starts)
    ]
    if len(pieces) == 1:
        s, cell = pieces[0]
        return [(1 if s >= _RIGHT_COLUMN else 0, cell)]
    # Several cells: the first one starting in the right half and everything after it
    # is player 2's, the rest player 1's.
    out: list[tuple[int, str]] = []
    right = False
    for s, cell in pieces:
        if s >= _RIGHT_COLUMN:
            right = True
        out.append((1 if right else 0, cell))
    return out


def parse_mat(text: str, *, money: bool | None = None) -> ParsedMatch:
    """Parse a transcript. ``money`` forces money play (Galaxy coin games,
    docs/transcripts-format.md section 3).

    Raises :class:`MatParseError` (code ``bad_mat``) with the line number on bad input.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:  # a binary file; no database text column stores NUL either
        nul_line = text[: text.index("\x00")].count("\n") + 1
        raise MatParseError(
            "bad_mat", N_("the file contains NUL bytes: not a text transcript"), nul_line
        )
    metadata: dict[str, str] = {}
    length: int | None = None
    games: list[ParsedGame] = []
    game: ParsedGame | None = None
    need_score = False
    players: tuple[str, str] | None = None
    tag_lines: dict[str, int] = {}

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip().replace("\t", "    ")
        if not line.strip():
            continue
        try:
            if length is None:
                if line.lstrip().startswith((";", "#")):
                    m = _TAG.match(line)
                    if m:
                        metadata[m.group(1).strip()] = m.group(2)
                        tag_lines[m.group(1).strip()] = lineno
                    continue
                m = _HEADER.match(line)
                if not m:
                    raise MatParseError(
                        "bad_mat", N_("expected 'N point match', got %(line)r", line=line), lineno
                    )
                length = int(m.group(1))
                if length > _MAX_LENGTH:
                    raise MatParseError(
                        "bad_mat", N_("match length %(length)s is too long", length=length), lineno
                    )
                continue
            if line.lstrip().startswith((";", "#")):
                continue
            m = _GAME.search(line)
            if m and not _NUMBER.match(line):
                game = ParsedGame(int(m.group(1)), (0, 0), lineno)
                games.append(game)
                need_score = True
                continue
            if game is None:
                raise MatParseError(
                    "bad_mat", N_("unexpected text before 'Game 1': %(line)r", line=line), lineno
                )
            if need_score:
                m = _SCORE.match(line)
                if not m:
                    raise MatParseError(
                        "bad_mat", N_("expected a score line, got %(line)r", line=line), lineno
                    )
                names = (_strip_rating(m.group(1)), _strip_rating(m.group(3)))
                game.score_before = (int(m.group(2)), int(m.group(4)))
                game.names = names
                if players is None:
                    players = _bounded_names(names, (lineno, lineno))
                need_score = False
                continue
            _parse_move_line(game, line, lineno)
        except MatParseError:
            raise
        except RuleViolation as exc:
            raise MatParseError(exc.code, exc.message, lineno) from exc
        except (ValueError, IndexError) as exc:  # defensive: never leak a traceback
            raise MatParseError(
                "bad_mat", N_("cannot read %(line)r: %(exc)s", line=line, exc=exc), lineno
            ) from exc
    if length is None:
        raise MatParseError("bad_mat", N_("no 'N point match' header"))
    if not games:
        raise MatParseError("bad_mat", N_("no games"))
    if players is None:
        players = _bounded_names(
            (metadata.get("Player 1", ""), metadata.get("Player 2", "")),
            (tag_lines.get("Player 1", 0), tag_lines.get("Player 2", 0)),
        )
    is_money = length == 0 if money is None else money
    return ParsedMatch(length, players, metadata, games, is_money)


def _bounded_names(names: tuple[str, str], lines: tuple[int, int]) -> tuple[str, str]:
    """The players' names, or a refusal naming the line if one is longer than the
    player's name column (an import creates a player of that name: issue #25, a 500)."""
    for side, (name, lineno) in enumerate(zip(names, lines, strict=True), start=1):
        if len(name.strip()) > MAX_PLAYER_NAME:
            raise MatParseError(
                "player_name_too_long",
                N_(
                    "player %(side)s's name is %(length)s characters; at most %(limit)s",
                    side=side,
                    length=len(name.strip()),
                    limit=MAX_PLAYER_NAME,
                ),
                lineno,
            )
    return names


def _parse_move_line(game: ParsedGame, line: str, lineno: int) -> None:
    """Read one numbered (or result) line into ``game``'s actions."""
    segments = [line]
    m = _NUMBER.match(line)
    if m:
        line = " " * m.end() + line[m.end() :]
        segments = [line]
        # Galaxy sometimes glues the next numbered line onto this one.
        mid = _MID_NUMBER.search(line, m.end())
        if mid and _CELL_START.search(line, mid.end()):
            first = line[: mid.start()]
            second = " " * (mid.end() - mid.start()) + line[mid.end() :]
            segments = [first, second]
    for seg in segments:
        for player, cell in _cells(seg):
            _parse_cell(game, player, cell, lineno)


def _parse_cell(game: ParsedGame, player: int, cell: str, lineno: int) -> None:
    actions = game.actions
    if cell[:2].isdigit() and cell[2:3] == ":":
        dice = parse_dice(cell[:2])
        rest = cell[3:].strip()
        if rest == "????":
            actions.append(Action(RESIGN, player, lineno, dice, ParsedMove((), ())))
            return
        actions.append(Action(ROLL, player, lineno, dice, parse_move(rest)))
        return
    m = _CUBE.match(cell)
    if m:
        kind = DOUBLE if m.group(1) == "Doubles" else BEAVER
        actions.append(Action(kind, player, lineno, value=int(m.group(2))))
        return
    word = cell.split()[0] if cell.split() else ""
    if cell == "Takes":
        actions.append(Action(TAKE, player, lineno))
        return
    if cell == "Drops":
        actions.append(Action(DROP, player, lineno))
        return
    if word == "Raccoons":
        value = re.search(r"=>\s*(\d+)", cell)
        actions.append(
            Action(RACCOON, player, lineno, value=int(value.group(1)) if value else None)
        )
        return
    m = _RESULT.match(cell)
    if m:
        n = int(m.group(2))
        if m.group(1).lower() == "wins":
            if game.declared_winner is not None:
                raise MatParseError("bad_mat", N_("two 'Wins' lines in one game"), lineno)
            game.declared_winner = player
            game.declared_points = n
            game.declared_match = bool(m.group(3))
            game.result_line = lineno
        else:
            game.declared_loss = n
        return
    raise MatParseError("bad_mat", N_("cannot read cell %(cell)r", cell=cell), lineno)


def parse_mat_file(path: str | Path, *, money: bool | None = None) -> ParsedMatch:
    """Parse a file; ``money`` defaults to True for Galaxy coin-game files (by folder)."""
    p = Path(path)
    if money is None and "coingame" in str(p.parent.name).lower():
        money = True
    return parse_mat(p.read_text(encoding="utf-8", errors="replace"), money=money)
