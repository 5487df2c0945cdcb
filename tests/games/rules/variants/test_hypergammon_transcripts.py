"""Hypergammon transcripts (docs/transcripts.md, "Variants"): GNU Backgammon's
``; [Variation "HyperGammon (n)"]`` tag starts the replay from the hypergammon start
with n men a side, every move is checked by the variant's rules (and confirmed by the
registry's engine), a move illegal in hypergammon is refused with its game, move number
and reason, and the transcript round-trips through our export.

The transcripts are GNU Backgammon's own (``export match mat``): the checked-in
``data/gnubg-hypergammon-3.mat`` (how it was made: :mod:`.gnubg_hypergammon`), and, when
``gnubg`` is installed, a match of each of hypergammon 1, 2 and 3 played in it now.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.rules.matexport import export_mat
from games.rules.matfile import ROLL, parse_mat
from games.rules.replay import check_text, replay_match
from games.rules.types import Level

from ..test_matexport import essence
from .gnubg_hypergammon import gnubg_program, play_match

GNUBG_MAT = (Path(__file__).parent / "data" / "gnubg-hypergammon-3.mat").read_text(encoding="utf-8")


def rolls(text: str) -> int:
    return sum(a.kind == ROLL for g in parse_mat(text).games for a in g.actions)


def assert_imports_and_round_trips(text: str, key: str) -> None:
    result = check_text(text, f"{key}.mat")
    assert result.ok, [(e.game, e.move, e.message) for e in result.errors]
    assert result.variant == key
    assert result.moves_checked == rolls(text) > 0  # every move was checked
    assert result.winner is not None and max(result.final_score) >= result.length
    # our export (gnubg's dialect) keeps the tag and every action, and replays alike
    parsed = parse_mat(text)
    exported = export_mat(parsed)
    assert f'; [Variation "HyperGammon ({key[-1]})"]' in exported
    again = parse_mat(exported)
    assert essence(again) == essence(parsed)
    replayed = replay_match(again, "again.mat")
    assert replayed.ok and replayed.variant == key
    assert replayed.to_dict()["games"] == result.to_dict()["games"]


def test_a_gnubg_hypergammon_transcript_imports_with_every_move_checked() -> None:
    assert_imports_and_round_trips(GNUBG_MAT, "hypergammon-3")
    result = check_text(GNUBG_MAT, "gnubg-hypergammon-3.mat")
    # game 1: doubled, taken, a gammon (4 points); game 2 is the Crawford game
    first, second = result.games[0], result.games[1]
    assert (first.cube, first.level, first.points) == (2, Level.GAMMON, 4)
    assert second.crawford and result.final_score == (4, 6) and result.winner == 1


@pytest.mark.skipif(gnubg_program() is None, reason="GNU Backgammon (gnubg) is not installed")
@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_a_match_gnubg_writes_now_imports_and_round_trips(checkers: int) -> None:
    text = play_match(checkers, seed=3)
    assert f'; [Variation "HyperGammon ({checkers})"]' in text  # gnubg's own spelling
    assert_imports_and_round_trips(text, f"hypergammon-{checkers}")


HYPER_GAME = """\
; [Variation "HyperGammon (3)"]

 3 point match

 Game 1
 alice : 0                       bob : 0
  1) 41: {play}
"""


def test_a_standard_move_is_refused_in_hypergammon_with_game_move_and_reason() -> None:
    """24/20 24/23 is the English game's 41 split: hypergammon has one man on the 24."""
    result = check_text(HYPER_GAME.format(play="24/20 24/23"), "hyper.mat")
    error = result.errors[0]
    assert (error.game, error.move, error.code) == (1, 1, "illegal_move")
    assert error.message == "24/20 24/23 is not a legal play of 41"
    # the 13 and the 6 are empty in hypergammon
    other = check_text(HYPER_GAME.format(play="13/9 6/5"), "hyper.mat").errors[0]
    assert (other.game, other.move, other.code) == (1, 1, "illegal_move")


def test_a_hypergammon_play_that_wastes_a_die_is_refused() -> None:
    """Both dice must be played when they can be: 24/20 alone leaves the 1."""
    result = check_text(HYPER_GAME.format(play="24/20"), "hyper.mat")
    error = result.errors[0]
    assert (error.game, error.move, error.code) == (1, 1, "not_maximal")
