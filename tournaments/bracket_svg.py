"""Laying out a bracket stage for a server-rendered SVG (no Django; plain numbers).

Each round is a column; each pairing a box, spread evenly down its column so that
halving rounds line up between the two boxes that feed them. Lines join a box to the
box its winner plays next in the same stage. Boxes holding the selected player get
the ``path`` class, so ``?player=ID`` highlights a player's way through the bracket.
A match under an open dispute gets the ``disputed`` class (an amber border), and the
boxes its players went on to get ``fed-disputed`` (a small flag): the result that put
someone there may still change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.errors import N_

BOX_W, BOX_H, COL_GAP, ROW_GAP, PAD = 190, 44, 40, 10, 10
#: Room for one character of a 12 px name, bold (a winner), with a margin: the boxes
#: widen to the longest name of the stage so that names up to ``MAX_NAME`` characters
#: show whole (a phone scrolls the bracket sideways inside its box instead).
CHAR_W = 7.4
#: Left margin before a name, and room on the right for the score.
NAME_X, SCORE_ROOM = 6, 30
#: Longer names are cut with an ellipsis (the full name is the box's tooltip).
MAX_NAME = 32


def shown_name(side: Side) -> str:
    """The text of one side of a box: "12. Bruno Bianchi-Rossetti" (cut past MAX_NAME)."""
    name = side.name if len(side.name) <= MAX_NAME else side.name[: MAX_NAME - 1] + "…"
    return f"{side.seed}. {name}" if side.seed else name


def box_width(rounds: Sequence[tuple[str, Sequence[SlotInput]]]) -> int:
    """The width every box of a stage gets: at least BOX_W, wide enough for its longest
    name and the score beside it."""
    longest = max(
        (
            len(shown_name(s))
            for _, slots in rounds
            for slot in slots
            for s in (slot.top, slot.bottom)
        ),
        default=0,
    )
    return max(BOX_W, int(longest * CHAR_W + 0.999) + NAME_X + SCORE_ROOM)


@dataclass(frozen=True)
class Side:
    name: str
    seed: int | None
    score: int | None
    won: bool
    entry: int | None


@dataclass(frozen=True)
class Box:
    key: str
    x: int
    y: int
    top: Side
    bottom: Side
    status: str
    classes: str
    match: int | None
    label: str
    top_text: str = ""
    bottom_text: str = ""
    width: int = BOX_W
    note: str = ""  # the title's explanation of a flag (a dispute, or fed by one)


@dataclass
class StageLayout:
    width: int
    height: int
    box_width: int = BOX_W
    boxes: list[Box] = field(default_factory=list)
    lines: list[tuple[int, int, int, int]] = field(default_factory=list)
    headers: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class SlotInput:
    """What the layout needs of one pairing."""

    key: str
    status: str
    winner_to: str
    top: Side
    bottom: Side
    match: int | None
    stale: bool
    forfeit: bool
    disputed: bool = False  # its match's result is under an open dispute
    fed_by_disputed: bool = False  # a player came here from a disputed result


def layout_stage(
    rounds: Sequence[tuple[str, Sequence[SlotInput]]], highlight: int | None = None
) -> StageLayout:
    """Positions for every box of one stage; ``rounds`` are (header, slots) in order."""
    tallest = max((len(slots) for _, slots in rounds), default=1)
    height = max(1, tallest) * (BOX_H + ROW_GAP) + 2 * PAD + 20
    box_w = box_width(rounds)
    width = len(rounds) * (box_w + COL_GAP) + 2 * PAD
    layout = StageLayout(width=width, height=height, box_width=box_w)
    centres: dict[str, tuple[int, int]] = {}
    pending: list[tuple[str, str]] = []
    for column, (header, slots) in enumerate(rounds):
        x = PAD + column * (box_w + COL_GAP)
        layout.headers.append((x, header))
        band = (height - 2 * PAD - 20) / max(1, len(slots))
        for index, slot in enumerate(slots):
            y = int(PAD + 20 + band * index + (band - BOX_H) / 2)
            classes = [f"st-{slot.status}"]
            if slot.stale:
                classes.append("stale")
            if highlight is not None and highlight in (slot.top.entry, slot.bottom.entry):
                classes.append("path")
            # words people read in the box and its title: Texts, in the page's language
            # when the template renders them (they were English on every page)
            label: str = (
                N_("forfeit") if slot.forfeit else (N_("bye") if slot.status == "bye" else "")
            )
            note: str = ""
            if slot.disputed:
                classes.append("disputed")
                label = N_("disputed")
                note = N_("disputed: the result may change")
            elif slot.fed_by_disputed:
                classes.append("fed-disputed")
                note = N_("fed by a disputed result")
            layout.boxes.append(
                Box(
                    slot.key,
                    x,
                    y,
                    slot.top,
                    slot.bottom,
                    slot.status,
                    " ".join(classes),
                    slot.match,
                    label,
                    shown_name(slot.top),
                    shown_name(slot.bottom),
                    box_w,
                    note,
                )
            )
            centres[slot.key] = (x, y + BOX_H // 2)
            if slot.winner_to:
                pending.append((slot.key, slot.winner_to))
    for source, target in pending:
        if target in centres:
            (x1, y1), (x2, y2) = centres[source], centres[target]
            layout.lines.append((x1 + box_w, y1, x2, y2))
    return layout
