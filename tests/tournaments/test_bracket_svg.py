"""Bracket boxes are as wide as the stage's longest name needs (names show whole)."""

from __future__ import annotations

from tournaments.bracket_svg import (
    BOX_W,
    CHAR_W,
    MAX_NAME,
    NAME_X,
    SCORE_ROOM,
    Side,
    SlotInput,
    layout_stage,
    shown_name,
)


def _slot(key: str, top: str, bottom: str, seeds=(1, 16), to: str = "") -> SlotInput:
    return SlotInput(
        key=key,
        status="ready",
        winner_to=to,
        top=Side(top, seeds[0], None, False, 1),
        bottom=Side(bottom, seeds[1], None, False, 2),
        match=None,
        stale=False,
        forfeit=False,
    )


def test_short_names_keep_the_standard_box():
    layout = layout_stage([("Final", [_slot("f", "Ann", "Bob")])])
    assert layout.box_width == BOX_W and layout.boxes[0].width == BOX_W
    assert layout.boxes[0].top_text == "1. Ann"


def test_a_long_name_widens_every_box_and_the_stage():
    long = "Bruno Bianchi-Rossetti"
    rounds = [
        ("R1", [_slot("a", long, "Ann", to="f"), _slot("b", "Cid", "Dee", to="f")]),
        ("F", [_slot("f", "", "")]),
    ]
    layout = layout_stage(rounds)
    needed = len(f"1. {long}") * CHAR_W + NAME_X + SCORE_ROOM
    assert layout.box_width >= needed > BOX_W
    assert {b.width for b in layout.boxes} == {layout.box_width}
    assert layout.boxes[0].top_text == f"1. {long}"  # whole, no ellipsis
    assert layout.boxes[2].x == layout.boxes[0].x + layout.box_width + 40  # next column
    first = layout.boxes[0]
    assert [line[0] for line in layout.lines] == [first.x + layout.box_width] * 2  # wires


def test_a_name_past_the_limit_is_cut_with_an_ellipsis():
    name = "X" * (MAX_NAME + 5)
    text = shown_name(Side(name, None, None, False, 1))
    assert len(text) == MAX_NAME and text.endswith("…")
