"""Reading a club's past results: one finished match per row, in file order.

Two formats, told apart by their first table line:

* CSV with the header ``date,winner,loser,length``;
* the Markdown table clubs publish on their pages, ``|Date|Winner|Loser|Length|``,
  with its ``|---|`` separator line; prose around the table is ignored.

Dates are ISO (``2024-03-17``); the length is the match length in points (1 or
more: unlimited sessions are not rated, docs/rules.md, "Ratings"). Every row that cannot be
read is reported with its line number, and a file with any such row is refused
whole: a club's rating history half-imported would be worse than none.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from typing import Any

from .errors import RuleViolation
from .limits import MAX_MATCH_LENGTH, MAX_PLAYER_NAME

COLUMNS = ("date", "winner", "loser", "length")
MAX_LENGTH = MAX_MATCH_LENGTH


@dataclass(frozen=True, slots=True)
class ResultRow:
    line: int
    played_on: date
    winner: str
    loser: str
    length: int


@dataclass(frozen=True, slots=True)
class LineError:
    line: int
    message: str

    def as_dict(self) -> dict[str, int | str]:
        return {"line": self.line, "message": self.message}


class ResultsFileInvalid(RuleViolation):
    """The file has unreadable rows; ``errors`` lists each with its line number."""

    def __init__(self, errors: list[LineError]) -> None:
        shown = "; ".join(f"line {e.line}: {e.message}" for e in errors[:5])
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(
            "results_file_invalid",
            f"{len(errors)} row(s) cannot be read, so nothing was imported: {shown}{more}.",
            field="file",
        )
        self.errors = errors

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "errors": [e.as_dict() for e in self.errors]}


def _read_row(line: int, cells: list[str]) -> ResultRow | LineError:
    if len(cells) != len(COLUMNS):
        return LineError(
            line, f"expected 4 columns (date, winner, loser, length), got {len(cells)}"
        )
    raw_date, winner, loser, raw_length = (c.strip() for c in cells)
    if any("\x00" in cell for cell in cells):
        return LineError(line, "the row contains a NUL byte: the file is not plain text")
    try:
        played_on = date.fromisoformat(raw_date)
    except ValueError:
        return LineError(line, f"date {raw_date!r} is not an ISO date like 2024-03-17")
    if not winner or not loser:
        return LineError(line, "the winner and the loser both need a name")
    for name in (winner, loser):
        if len(name) > MAX_PLAYER_NAME:
            return LineError(
                line, f"the name {name[:20]!r}... is longer than {MAX_PLAYER_NAME} characters"
            )
    if winner.casefold() == loser.casefold():
        return LineError(line, f"{winner!r} cannot beat themself")
    try:
        length = int(raw_length)
    except ValueError:
        return LineError(line, f"length {raw_length!r} is not a whole number of points")
    if not 1 <= length <= MAX_LENGTH:
        return LineError(
            line, f"length {length} is not rated: a rated match is 1 to {MAX_LENGTH} points"
        )
    return ResultRow(line, played_on, winner, loser, length)


def _header_ok(cells: list[str]) -> bool:
    return tuple(c.strip().casefold() for c in cells) == COLUMNS


def _markdown_cells(text: str) -> list[str]:
    body = text.strip()
    body = body.removeprefix("|").removesuffix("|")
    return body.split("|")


def _is_separator(cells: list[str]) -> bool:
    return all(set(c.strip()) <= set("-: ") and "-" in c for c in cells)


def _parse_markdown(lines: list[str]) -> tuple[list[ResultRow], list[LineError]]:
    rows: list[ResultRow] = []
    errors: list[LineError] = []
    header_seen = False
    for number, text in enumerate(lines, start=1):
        if not text.strip().startswith("|"):
            continue  # prose around the table
        cells = _markdown_cells(text)
        if not header_seen:
            if not _header_ok(cells):
                errors.append(
                    LineError(number, "the table header must be |Date|Winner|Loser|Length|")
                )
                return rows, errors
            header_seen = True
            continue
        if _is_separator(cells):
            continue
        outcome = _read_row(number, cells)
        (errors if isinstance(outcome, LineError) else rows).append(outcome)  # type: ignore[arg-type]
    return rows, errors


def _parse_csv(lines: list[str]) -> tuple[list[ResultRow], list[LineError]]:
    rows: list[ResultRow] = []
    errors: list[LineError] = []
    header_seen = False
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        cells = next(csv.reader(io.StringIO(text)))
        if not header_seen:
            if not _header_ok(cells):
                errors.append(LineError(number, "the first line must be date,winner,loser,length"))
                return rows, errors
            header_seen = True
            continue
        outcome = _read_row(number, cells)
        (errors if isinstance(outcome, LineError) else rows).append(outcome)  # type: ignore[arg-type]
    return rows, errors


def parse_results(text: str) -> list[ResultRow]:
    """Every row of the file, in file order; raises ResultsFileInvalid listing each bad row."""
    lines = text.lstrip("\ufeff").splitlines()
    markdown = any(line.strip().startswith("|") for line in lines)
    rows, errors = _parse_markdown(lines) if markdown else _parse_csv(lines)
    if not errors and not rows:
        errors.append(LineError(1, "the file has no results"))
    if errors:
        raise ResultsFileInvalid(errors)
    return rows
