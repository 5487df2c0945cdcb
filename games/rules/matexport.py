"""Write a parsed match back as a ``.mat`` transcript in the GNU Backgammon dialect.

Follows the layout that ``docs/transcripts-format.md`` describes from gnubg's
``export.c``: `` N point match``, `` Game k``, the score line ``" %-31s%s : %d"``, move
lines ``"%3d) %-27s %s"`` (left = player 1, right = player 2), bar ``25``, off ``0``, hits
``*``, a dance as a bare ``dd:``, ``Doubles => v`` / ``Takes`` / ``Drops``, and
``Wins n point(s)`` in the winner's column on its own line (indented 6 on the left, at
column 33 on the right). Two things gnubg's importer reads but its exporter does not
write are kept so that nothing is lost: ``dd: ????`` (rolled, then resigned; import.c 645)
and ``and the match``. Metadata tags are written back as ``; [Key "Value"]``.

parse -> export -> parse gives the same games, scores, moves, cube actions and results;
``tests/games/rules/test_matexport.py`` checks it over the whole corpus. The rules
themselves are those of ``docs/rules.md``.
"""

from __future__ import annotations

from .matfile import (
    BEAVER,
    DOUBLE,
    DROP,
    RACCOON,
    RESIGN,
    ROLL,
    TAKE,
    Action,
    ParsedGame,
    ParsedMatch,
)
from .notation import format_move


def _cell(action: Action) -> str:
    if action.kind in (ROLL, RESIGN):
        assert action.dice is not None
        dice = f"{action.dice[0]}{action.dice[1]}:"
        if action.kind == RESIGN:
            return f"{dice} ????"
        assert action.move is not None
        text = format_move(action.move.segments, action.move.hits)
        return f"{dice} {text}" if text else dice
    if action.kind == DOUBLE:
        return f" Doubles => {action.value}"
    if action.kind == BEAVER:
        return f" Beavers => {action.value}"
    if action.kind == RACCOON:
        return f" Raccoons => {action.value}" if action.value else " Raccoons"
    if action.kind == TAKE:
        return " Takes"
    if action.kind == DROP:
        return " Drops"
    raise ValueError(f"unknown action {action.kind!r}")


def _game_lines(game: ParsedGame) -> list[str]:
    name1, name2 = game.names
    s1, s2 = game.score_before
    lines = [f" Game {game.number}", f" {f'{name1} : {s1}':<31}{name2} : {s2}"]
    number = 0
    slots: list[str | None] = [None, None]

    def flush() -> None:
        nonlocal number, slots
        if slots == [None, None]:
            return
        number += 1
        left, right = slots
        if right is None:
            lines.append(f"{number:3d}) {left}".rstrip())
        else:
            lines.append(f"{number:3d}) {left or '':<27} {right}".rstrip())
        slots = [None, None]

    for action in game.actions:
        cell = _cell(action)
        if action.player == 0:
            flush()
            slots[0] = cell
        else:
            slots[1] = cell
            flush()
    flush()
    if game.declared_winner is not None and game.declared_points is not None:
        n = game.declared_points
        text = f"Wins {n} point{'s' if n > 1 else ''}"
        if game.declared_match:
            text += " and the match"
        lines.append(" " * 6 + text if game.declared_winner == 0 else " " * 33 + text)
    return lines


def export_mat(match: ParsedMatch) -> str:
    """The transcript of ``match`` in gnubg's dialect (ends with a newline)."""
    lines = [f'; [{key} "{value}"]' for key, value in match.metadata.items()]
    if lines:
        lines.append("")
    lines += [f" {match.length} point match", ""]
    for game in match.games:
        lines += _game_lines(game)
        lines.append("")
    return "\n".join(lines) + "\n"
