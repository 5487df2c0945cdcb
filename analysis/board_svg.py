"""An SVG picture of a decision: the board from the decider's side, the dice, the cube,
the score, the move played (red arrows) and gnubg's best move (green, dashed).

Pure: numbers in, markup out (only numbers and escaped names are written into it).
The decider's home board is bottom right (points 1-6), as gnubg and XG draw it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.html import escape

from games.rules.notation import parse_move

W = 22  # a point's width
BAR = 24
LEFT = 8
TOP = 34
HEIGHT = 220
TRAY = 30
WIDTH = LEFT + 12 * W + BAR + TRAY + 8
R = 10  # checker radius
MINE, THEIRS = "#f4f1e8", "#2b2b2b"


def _column(point: int) -> tuple[float, bool]:
    """The x of a point's centre and whether it is on the bottom row (decider's side)."""
    if 1 <= point <= 12:
        c = 12 - point
        bottom = True
    else:
        c = point - 13
        bottom = False
    x = LEFT + c * W + (BAR if c >= 6 else 0) + W / 2
    return x, bottom


def _stack_y(bottom: bool, k: int) -> float:
    step = 2 * R
    return TOP + HEIGHT - R - k * step if bottom else TOP + R + k * step


def _steps(text: str) -> list[tuple[int, int]]:
    try:
        return list(parse_move(text).segments)
    except Exception:  # a cube decision, or text we do not draw
        return []


def _spot(point: int, mover_side: bool, count_before: int) -> tuple[float, float]:
    """Where a step starts or ends: a point's top checker, the bar, or the tray."""
    if point == 25:
        return LEFT + 6 * W + BAR / 2, TOP + HEIGHT / 2 + (30 if mover_side else -30)
    if point == 0:
        return LEFT + 12 * W + BAR + TRAY / 2, TOP + HEIGHT - 40
    x, bottom = _column(point)
    return x, _stack_y(bottom, max(0, min(count_before, 5) - 1))


def board_svg(
    me: Sequence[int],
    opp: Sequence[int],
    *,
    dice: str = "",
    played: str = "",
    best: str = "",
    score: tuple[int, int] = (0, 0),
    length: int = 0,
    names: tuple[str, str] = ("", ""),  # (decider, opponent), as ``score``
    cube: str = "",
    title: str = "",
    opposing: Callable[[int], int] | None = None,
    heading: str | None = None,
) -> str:
    """The SVG markup of one decision (``me``/``opp`` in each side's own numbering).

    ``opposing`` maps the opponent's own point to the decider's (the English game's
    25 − p by default; a variant's ``opposing_point`` where both sides march the same
    way). Men not yet entered (a 27th count, the variants that start off the board) are
    written in the tray. ``heading`` replaces the score line (a rules page's start)."""
    to_mine = opposing or (lambda p: 25 - p)
    parts: list[str] = [
        f'<svg class="decision-board" viewBox="0 0 {WIDTH} {TOP + HEIGHT + 24}" '
        f'role="img" aria-label="{escape(title)}">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{TOP + HEIGHT + 24}" fill="#fff"/>',
        f'<rect x="{LEFT}" y="{TOP}" width="{12 * W + BAR}" height="{HEIGHT}" fill="#d9c8a0"/>',
        f'<rect x="{LEFT + 6 * W}" y="{TOP}" width="{BAR}" height="{HEIGHT}" fill="#8b6b3d"/>',
        f'<rect x="{LEFT + 12 * W + BAR + 4}" y="{TOP}" width="{TRAY - 4}" height="{HEIGHT}" '
        'fill="#eee" stroke="#bbb"/>',
        '<defs><marker id="ah-red" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto"><path d="M0,0L10,5L0,10z" fill="#c0392b"/></marker>'
        '<marker id="ah-green" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto"><path d="M0,0L10,5L0,10z" fill="#1e8449"/></marker>'
        "</defs>",
    ]
    for point in range(1, 25):
        x, bottom = _column(point)
        base = TOP + HEIGHT if bottom else TOP
        tip = base - 0.42 * HEIGHT if bottom else base + 0.42 * HEIGHT
        fill = "#a0522d" if point % 2 else "#e8dcc0"
        parts.append(
            f'<polygon points="{x - W / 2},{base} {x + W / 2},{base} {x},{tip}" fill="{fill}"/>'
        )
        label_y = TOP + HEIGHT + 14 if bottom else TOP - 6
        parts.append(
            f'<text x="{x}" y="{label_y}" font-size="9" text-anchor="middle" '
            f'fill="#555">{point}</text>'
        )
    # checkers: the decider's on their own points, the opponent's on 25 - p
    for side, counts, colour in ((0, me, MINE), (1, opp, THEIRS)):
        for own_point in range(1, 25):
            n = counts[own_point]
            if not n:
                continue
            point = own_point if side == 0 else to_mine(own_point)
            x, bottom = _column(point)
            for k in range(min(n, 5)):
                parts.append(
                    f'<circle cx="{x}" cy="{_stack_y(bottom, k)}" r="{R - 1}" fill="{colour}" '
                    'stroke="#555"/>'
                )
            if n > 5:
                text_fill = "#000" if side == 0 else "#fff"
                parts.append(
                    f'<text x="{x}" y="{_stack_y(bottom, 4) + 4}" font-size="10" '
                    f'text-anchor="middle" fill="{text_fill}">{n}</text>'
                )
        on_bar = counts[25]
        if on_bar:
            bx = LEFT + 6 * W + BAR / 2
            by = TOP + HEIGHT / 2 + (30 if side == 0 else -30)
            parts.append(
                f'<circle cx="{bx}" cy="{by}" r="{R - 1}" fill="{colour}" stroke="#555"/>'
                f'<text x="{bx}" y="{by + 4}" font-size="10" text-anchor="middle" '
                f'fill="{"#000" if side == 0 else "#fff"}">{on_bar}</text>'
            )
        off = counts[0]
        if off:
            ty = TOP + HEIGHT - 12 if side == 0 else TOP + 12
            parts.append(
                f'<text x="{LEFT + 12 * W + BAR + TRAY / 2 + 2}" y="{ty}" font-size="10" '
                f'text-anchor="middle">{off} off</text>'
            )
        waiting = counts[26] if len(counts) > 26 else 0
        if waiting:
            ty = TOP + HEIGHT - 28 if side == 0 else TOP + 28
            parts.append(
                f'<text x="{LEFT + 12 * W + BAR + TRAY / 2 + 2}" y="{ty}" font-size="10" '
                f'text-anchor="middle">{waiting} in</text>'
            )
    # arrows: best (green, dashed) under played (red)
    for text, colour, dash in ((best, "green", ' stroke-dasharray="4 3"'), (played, "red", "")):
        counts = list(me)
        stroke = "#1e8449" if colour == "green" else "#c0392b"
        for frm, to in _steps(text):
            x1, y1 = _spot(frm, True, counts[frm] if 0 < frm < 25 else 1)
            if 0 < frm < 26:
                counts[frm] = max(0, counts[frm] - 1)
            x2, y2 = _spot(to, True, (counts[to] + 1) if 0 < to < 25 else 1)
            if 0 < to < 25:
                counts[to] += 1
            parts.append(
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" '
                f'stroke-width="3" marker-end="url(#ah-{colour})"{dash} opacity="0.85"/>'
            )
    # dice on the decider's right half, the cube on the bar, the score above
    if len(dice) == 2 and dice.isdigit():
        for k, d in enumerate(dice):
            dx = LEFT + 9 * W + BAR - 8 + k * 26
            dy = TOP + HEIGHT / 2 - 11
            parts.append(
                f'<rect x="{dx}" y="{dy}" width="22" height="22" rx="4" fill="#fff" '
                f'stroke="#333"/><text x="{dx + 11}" y="{dy + 16}" font-size="14" '
                f'text-anchor="middle">{int(d)}</text>'
            )
    if cube:
        cx = LEFT + 6 * W + 2
        parts.append(
            f'<rect x="{cx}" y="{TOP + HEIGHT / 2 - 10}" width="{BAR - 4}" height="20" '
            f'fill="#fff" stroke="#333"/><text x="{cx + (BAR - 4) / 2}" '
            f'y="{TOP + HEIGHT / 2 + 4}" font-size="10" text-anchor="middle">'
            f"{escape(cube)}</text>"
        )
    match_text = f"{length}-point match" if length else "money session"
    line = (
        escape(heading)
        if heading is not None
        else f"{escape(names[0])} {score[0]} (on roll) · {escape(names[1])} {score[1]} · "
        f"{match_text}"
    )
    parts.append(f'<text x="{LEFT}" y="13" font-size="11">{line}</text>')
    parts.append("</svg>")
    return "".join(parts)
