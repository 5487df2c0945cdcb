"""Transcripts of a variant (docs/transcripts.md, "Variants"): the ``Variation`` tag
names it, the replay starts from its position and checks every move by its rules, never
as the English game; a name we do not know is refused."""

from __future__ import annotations

import pytest

from games.rules.errors import RuleViolation
from games.rules.replay import check_text
from games.rules.variants import REGISTRY
from games.rules.variants.transcripts import variant_of_variation, variation_name

NACK_GAME = """\
 1 point match

 Game 1
 alice : 0                       bob : 0
  1) 31: 23/20 6/5                 Doubles => 2
  2)  Drops
                                 Wins 1 point
"""


def test_a_nackgammon_transcript_replays_from_the_nackgammon_start() -> None:
    result = check_text('; [Variation "NackGammon"]\n\n' + NACK_GAME, "nack.mat")
    assert result.ok, [e.message for e in result.errors]
    assert result.variant == "nackgammon" and result.moves_checked == 1
    assert result.winner == 1


def test_the_same_moves_as_standard_are_refused_with_the_illegal_move() -> None:
    """A nackgammon game read as the English game: 23/20 moves a man the English start
    does not have."""
    result = check_text(NACK_GAME, "standard.mat")
    assert not result.ok
    error = result.errors[0]
    assert (error.game, error.move) == (1, 1)
    assert "23/20" in error.message


def test_a_variant_checked_by_the_engine_refuses_the_english_moves() -> None:
    """Acey-deucey starts with every man off the board: 23/20 is refused at its move
    (tests/games/rules/variants/test_variant_transcripts.py has the rest)."""
    result = check_text('; [Variation "Boxcars acey-deucey"]\n\n' + NACK_GAME, "acey.mat")
    assert [(e.game, e.move, e.code) for e in result.errors] == [(1, 1, "illegal_move")]
    assert result.variant == "acey-deucey"
    unknown = check_text('; [Variation "Chess"]\n\n' + NACK_GAME, "chess.mat")
    assert [e.code for e in unknown.errors] == ["unknown_variation"]


def test_variation_names_read_back() -> None:
    for variant in REGISTRY.values():
        assert variant_of_variation(variation_name(variant)) is variant
    assert variant_of_variation("HyperGammon 2").key == "hypergammon-2"  # gnubg's spelling
    assert variant_of_variation(None).key == "standard"
    assert variation_name(REGISTRY["nackgammon"]) == "NackGammon"
    assert variation_name(REGISTRY["acey-deucey"]) == "Boxcars acey-deucey"
    with pytest.raises(RuleViolation):
        variant_of_variation("Chess")
