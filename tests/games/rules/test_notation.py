"""Move notation of .mat files (docs/transcripts-format.md section 1.5)."""

from __future__ import annotations

import pytest

from games.rules.board import BAR, Position
from games.rules.errors import RuleViolation
from games.rules.notation import format_move, parse_dice, parse_move, play_from_text


def test_plain_hits_bar_off() -> None:
    assert parse_move("13/9 24/23").segments == ((13, 9), (24, 23))
    m = parse_move("6/1* 8/1")
    assert m.segments == ((6, 1), (8, 1)) and m.hits == (True, False)
    assert parse_move("25/22 bar/21").segments == ((BAR, 22), (BAR, 21))
    assert parse_move("6/0 5/off").segments == ((6, 0), (5, 0))


def test_repeats_and_chains() -> None:
    assert parse_move("24/22(2) 13/11(2)").segments == ((24, 22),) * 2 + ((13, 11),) * 2
    assert parse_move("13/11*(2)").hits == (True, True)
    m = parse_move("24/18*/14")
    assert m.segments == ((24, 18), (18, 14)) and m.hits == (True, False)


def test_dances() -> None:
    assert parse_move("").is_dance
    assert parse_move("Cannot Move").is_dance


@pytest.mark.parametrize("bad", ["13-9", "26/20", "9/13", "x/1", "13/"])
def test_bad_notation(bad: str) -> None:
    with pytest.raises(RuleViolation) as exc:
        parse_move(bad)
    assert exc.value.code == "bad_notation"


def test_dice() -> None:
    assert parse_dice("51") == (5, 1)
    assert parse_dice("66:") == (6, 6)
    for bad in ("71", "5", "ab"):
        with pytest.raises(RuleViolation):
            parse_dice(bad)


def test_merged_moves_expand_to_single_die_steps() -> None:
    start = Position.start()
    _, steps = play_from_text(start, (6, 1), "13/6")
    assert len(steps) == 2 and steps[0][0] == 13 and steps[-1][1] == 6
    _, steps = play_from_text(start, (3, 3), "13/4 6/3")
    assert len(steps) == 4
    # two checkers enter before either moves on (bar/21(2) with 2-2)
    me = [0] * 26
    me[BAR], me[6], me[0] = 2, 5, 8
    opp = list(Position.start().opp)
    p = Position(tuple(me), tuple(opp))
    _, steps = play_from_text(p, (2, 2), "bar/21(2)")
    assert steps[:2] == ((BAR, 23), (BAR, 23))


def test_format_round_trip() -> None:
    m = parse_move("bar/22* 6/off(2)")
    assert format_move(m.segments, m.hits) == "25/22* 6/0 6/0"
    assert format_move(m.segments, m.hits, xg=True) == "bar/22* 6/off 6/off"
    assert format_move(()) == "" and format_move((), xg=True) == "Cannot Move"
