"""The ``.mat`` reader bounds the players' names by the player's name column (issue #25)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.limits import MAX_PLAYER_NAME
from games.rules.matfile import MatParseError, parse_mat

GAME = "  1)  Doubles => 2                Drops\n      Wins 1 point\n"


def score_file(left: str, right: str) -> str:
    return f" 1 point match\n\n Game 1\n {left} : 0                      {right} : 0\n{GAME}"


@pytest.mark.parametrize("side", [1, 2])
def test_a_long_name_on_the_score_line_is_refused_naming_its_line_and_side(side):
    names = ["ann", "ben"]
    names[side - 1] = "x" * (MAX_PLAYER_NAME + 1)
    with pytest.raises(MatParseError) as refused:
        parse_mat(score_file(*names))
    assert (refused.value.code, refused.value.line) == ("player_name_too_long", 4)
    assert f"player {side}'s name" in str(refused.value)


@pytest.mark.parametrize("side", [1, 2])
def test_a_long_name_in_a_player_tag_is_refused_naming_the_tag_line(side):
    names = ["ann", "ben"]
    names[side - 1] = "y" * (MAX_PLAYER_NAME + 1)
    text = f'; [Player 1 "{names[0]}"]\n; [Player 2 "{names[1]}"]\n\n 1 point match\n\n Game 1\n'
    with pytest.raises(MatParseError) as refused:
        parse_mat(text)
    assert (refused.value.code, refused.value.line) == ("player_name_too_long", side)


@given(st.text(alphabet="abcdefgh ", min_size=1, max_size=MAX_PLAYER_NAME).map(str.strip))
def test_every_name_that_fits_the_column_is_read(name):
    name = name or "z"
    assert parse_mat(score_file(name, "ben")).players[0] == name
