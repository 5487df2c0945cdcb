"""Move notation of .mat transcripts: ``13/9 24/23``, ``6/1*``, ``bar/22``, ``6/off``, ``(2)``.

One addition of ours, for the variants whose men start off the board: ``in/22`` enters a
man not yet entered while a man of the same side waits on the bar (Cady's Russian and
Turkish games allow it); everywhere else a man entering from off the board is written
from the bar point, ``25/22``, as gnubg writes bar entries (docs/transcripts.md,
"Variants"). ``in`` reads as :data:`IN` (26, the registry's "not yet entered").

Implements the move grammar of ``docs/transcripts-format.md`` section 1.5 (points 1..24
from the mover's side, bar = ``25`` or ``bar``, borne off = ``0`` or ``off``, ``*`` for a
hit, ``(n)`` repeats, merged moves such as ``13/6``, ``Cannot Move`` for a dance), which
follows ``docs/rules.md``, "Movement".

Parsing gives *segments* ``(from, to)`` exactly as written (a chain ``13/7*/6`` gives two
segments); merged segments are expanded into single-die steps against a position by
:func:`games.rules.board.match_play` (as gnubg's ExpandMatMove does), because only the
position and the dice tell which path is legal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from core.errors import N_

from .board import BAR, OFF, Play, Position, Step, validate_play
from .errors import RuleViolation

#: ``in``: a man not yet entered (games.rules.variants.base.UNENTERED).
IN = 26

_TOKEN = re.compile(
    r"^((?:bar|in|\d{1,2})\*?(?:/(?:off|\d{1,2})\*?)+)(?:\((\d)\))?$", re.IGNORECASE
)
_DANCE_WORDS = {"cannot move", "can't move", ""}


@dataclass(frozen=True, slots=True)
class ParsedMove:
    """A written play: its segments in order, and which segment ends marked ``*``."""

    segments: tuple[Step, ...]
    hits: tuple[bool, ...]

    @property
    def is_dance(self) -> bool:
        return not self.segments


def _point(text: str) -> int:
    t = text.lower()
    if t == "bar":
        return BAR
    if t == "off":
        return OFF
    if t == "in":
        return IN
    value = int(t)
    if not 0 <= value <= 25:
        raise RuleViolation(
            "bad_notation", N_("point %(value)s is out of range 0..25", value=value), "move"
        )
    return value


def parse_move(text: str) -> ParsedMove:
    """Parse the move part of a cell (after ``dd:``); a dance is empty or ``Cannot Move``.

    Raises :class:`RuleViolation` (code ``bad_notation``) on anything else.
    """
    text = text.strip()
    if text.lower() in _DANCE_WORDS:
        return ParsedMove((), ())
    segments: list[Step] = []
    hits: list[bool] = []
    for token in text.split():
        m = _TOKEN.match(token)
        if not m:
            raise RuleViolation(
                "bad_notation", N_("cannot read move %(token)r", token=token), "move"
            )
        parts = m.group(1).split("/")
        repeat = int(m.group(2) or 1)
        chain: list[tuple[int, bool]] = []
        for part in parts:
            hit = part.endswith("*")
            chain.append((_point(part.rstrip("*")), hit))
        one: list[Step] = []
        one_hits: list[bool] = []
        for (a, _), (b, hit_b) in pairwise(chain):
            if b >= a:
                raise RuleViolation(
                    "bad_notation", N_("move %(token)r goes backwards", token=token), "move"
                )
            one.append((a, b))
            one_hits.append(hit_b)
        for _ in range(repeat):
            segments.extend(one)
            hits.extend(one_hits)
    return ParsedMove(tuple(segments), tuple(hits))


def _fmt_point(p: int, *, xg: bool) -> str:
    if p == IN:
        return "in"
    if xg and p == BAR:
        return "bar"
    if xg and p == OFF:
        return "off"
    return str(p)


def format_move(
    segments: Sequence[Step], hits: Sequence[bool] | None = None, *, xg: bool = False
) -> str:
    """Write segments the gnubg way (``25``/``0``), or the XG way (``bar``/``off``).

    gnubg writes each segment on its own, ``*`` after a hit; so do we. An empty play is
    written as the empty string (gnubg) or ``Cannot Move`` (XG).
    """
    if not segments:
        return "Cannot Move" if xg else ""
    out = []
    for i, (a, b) in enumerate(segments):
        star = "*" if hits and i < len(hits) and hits[i] else ""
        out.append(f"{_fmt_point(a, xg=xg)}/{_fmt_point(b, xg=xg)}{star}")
    return " ".join(out)


def parse_dice(text: str) -> tuple[int, int]:
    """``"51"`` -> ``(5, 1)``; each die must be 1..6."""
    text = text.strip().rstrip(":")
    if len(text) != 2 or not text.isdigit():
        raise RuleViolation("bad_notation", N_("cannot read dice %(text)r", text=text), "dice")
    d1, d2 = int(text[0]), int(text[1])
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise RuleViolation("bad_notation", N_("dice %(text)r out of range", text=text), "dice")
    return d1, d2


def play_from_text(position: Position, dice: tuple[int, int], text: str) -> tuple[Position, Play]:
    """Parse ``text`` and check it against ``position`` and ``dice``; expand merged moves."""
    return validate_play(position, dice, parse_move(text).segments)


def format_play(steps: Iterable[Step]) -> str:
    """Single-die steps in gnubg notation (no hit marks)."""
    return format_move(tuple(steps))
