"""One stage's play of a variant in ``.mat`` notation: read from what is written, and
written from the engine's steps (docs/transcripts.md, "Variants").

The notation is gnubg's (``13/9 24/23*``, ``6/0``, merged moves such as ``13/5``) in the
mover's numbering, with one reading for the men off the board: ``25/x`` enters a man
from the bar if the mover has one there, else a man not yet entered (the variants that
start with the board empty write their entering as gnubg writes bar entries). Only
where Cady's Russian and Turkish games let a man not yet entered come in while a
taken-up man waits on the bar is that step written ``in/x``, so every play reads back
to the very position it was written from. ``*`` marks a hit, and only a hit: plakoto's
pins and fevga (no contact) write none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import BAR
from .notation import IN, ParsedMove
from .variants.base import UNENTERED, Contact, Variant
from .variants.engine import Board, Step
from .variants.position import VariantPosition


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to play the written segments: single-die steps in the engine's numbering
    (25 the bar, 26 not yet entered, 0 off), the position after them (mover still
    first), the mover's points where a man was hit, and the dice left unplayed."""

    steps: tuple[Step, ...]
    after: VariantPosition
    hits: frozenset[int]
    unused: int


def read_play(
    variant: Variant, position: VariantPosition, dice: Sequence[int], segments: Sequence[Step]
) -> list[Reading]:
    """Every realisation of ``segments`` as legal single steps with ``dice``, one per
    resulting position, those using more dice first. Segments may interleave (both men
    enter before either moves on) and span several dice (``13/5`` for 4-4), each step
    legal by the variant's rules for a single step; whether the whole play is one the
    rules allow (as many dice as can be played, the higher) is the caller's to ask."""
    board = Board(variant, position)
    cur = [frm for frm, _ in segments]
    target = [to for _, to in segments]
    steps: list[Step] = []
    hits: list[int] = []
    found: dict[tuple[object, ...], Reading] = {}

    def source(point: int) -> int:
        if point == IN:
            return UNENTERED
        if point == BAR and not board.me[BAR]:
            return UNENTERED
        return point

    def pick(rest: list[int], left: int) -> None:
        if left == 0:
            after = board.snapshot()
            reading = Reading(tuple(steps), after, frozenset(hits), len(rest))
            key = after.key()
            if key not in found or found[key].unused > reading.unused:
                found[key] = reading
            return
        for i, (c, t) in enumerate(zip(cur, target, strict=True)):
            if c == t:
                continue
            frm = source(c)
            tried: set[int] = set()
            for k, die in enumerate(rest):
                if die in tried:
                    continue
                tried.add(die)
                to = board.target(frm, die)
                if to < 0 or (t > 0 and to < t):
                    continue
                token = board.do(frm, to)
                hit = bool(token[0]) and variant.contact is Contact.HIT
                steps.append((frm, to))
                if hit:
                    hits.append(to)
                cur[i] = to
                pick(rest[:k] + rest[k + 1 :], left - (to == t))
                cur[i] = c
                if hit:
                    hits.pop()
                steps.pop()
                board.undo(frm, to, token)

    pick(list(dice), len(segments))
    return sorted(found.values(), key=lambda r: r.unused)


def write_play(variant: Variant, position: VariantPosition, steps: Sequence[Step]) -> ParsedMove:
    """The engine's steps as written: entering from off the board as ``25/x`` (``in/x``
    while a man of the mover's waits on the bar), ``*`` after each step that hits."""
    board = Board(variant, position)
    segments: list[Step] = []
    marks: list[bool] = []
    for frm, to in steps:
        shown = frm
        if frm == UNENTERED:
            shown = IN if board.me[BAR] else BAR
        token = board.do(frm, to)
        segments.append((shown, to))
        marks.append(bool(token[0]) and variant.contact is Contact.HIT)
    return ParsedMove(tuple(segments), tuple(marks))
