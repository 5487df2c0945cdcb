"""Opening order from rolls, lineups by hand, joining and leaving (docs/rules.md, chouette)."""

import pytest

from chouette.rules import Lineup, order_from_rolls
from games.rules.errors import RuleViolation


def test_highest_is_box_next_captain_rest_in_order():
    # Thorne: "the highest number thrown indicates 'the man in the box' ... The second
    # highest number thrown elects the Captain ... the remaining members hold
    # seniority according to the numbers thrown."
    lineup = order_from_rolls({"ann": 3, "bob": 6, "cy": 1, "dee": 5})
    assert lineup == Lineup("bob", ("dee", "ann", "cy"))
    assert lineup.captain == "dee"


def test_ties_reroll_only_among_the_tied():
    lineup = order_from_rolls({"a": [4, 2], "b": [4, 5], "c": 6, "d": 1})
    assert lineup.players == ("c", "b", "a", "d")


def test_a_reroll_never_jumps_a_player_who_beat_you():
    # the tied re-roll a 6 but stay below the 5
    lineup = order_from_rolls({"a": [3, 6], "b": [3, 1], "c": 5})
    assert lineup.players == ("c", "a", "b")


def test_three_way_tie_then_two_way_tie():
    lineup = order_from_rolls({"a": [2, 4, 1], "b": [2, 4, 3], "c": [2, 1], "d": 6})
    assert lineup.players == ("d", "b", "a", "c")


def test_unresolved_tie_refused():
    with pytest.raises(RuleViolation) as error:
        order_from_rolls({"a": 4, "b": 4, "c": 1})
    assert error.value.code == "unresolved_tie"
    assert "'a'" in error.value.message and "'b'" in error.value.message


def test_tie_again_without_further_roll_refused():
    with pytest.raises(RuleViolation) as error:
        order_from_rolls({"a": [4, 3], "b": [4, 3], "c": 1})
    assert error.value.code == "unresolved_tie"


def test_reroll_by_untied_player_refused():
    with pytest.raises(RuleViolation) as error:
        order_from_rolls({"a": [5, 2], "b": 4, "c": 1})
    assert error.value.code == "roll_not_needed"


@pytest.mark.parametrize("roll", [0, 7, -1, 2.5, True, "6"])
def test_impossible_rolls_refused(roll):
    with pytest.raises(RuleViolation) as error:
        order_from_rolls({"a": roll, "b": 3, "c": 1})
    assert error.value.code == "invalid_roll"


def test_two_dice_tables_say_so():
    assert order_from_rolls({"a": 11, "b": 12}, max_roll=12).box == "b"
    with pytest.raises(RuleViolation):
        order_from_rolls({"a": 11, "b": 12})


def test_empty_roll_list_refused():
    with pytest.raises(RuleViolation) as error:
        order_from_rolls({"a": [], "b": 3})
    assert error.value.code == "missing_roll"


def test_one_player_is_no_lineup():
    with pytest.raises(RuleViolation) as error:
        order_from_rolls({"a": 3})
    assert error.value.code == "too_few_players"


def test_lineup_by_hand():
    lineup = Lineup.from_order(["x", "y", "z"])
    assert lineup.box == "x" and lineup.captain == "y" and lineup.team == ("y", "z")
    assert "z" in lineup and "w" not in lineup


def test_lineup_refuses_a_player_twice():
    with pytest.raises(RuleViolation) as error:
        Lineup("a", ("b", "a"))
    assert error.value.code == "player_seated_twice"
    with pytest.raises(RuleViolation):
        Lineup.from_order(["a", "b", "b"])


def test_lineup_needs_a_captain():
    with pytest.raises(RuleViolation) as error:
        Lineup("a", ())
    assert error.value.code == "too_few_players"


def test_newcomer_joins_at_the_bottom():
    assert Lineup.from_order("abc").join("d").players == ("a", "b", "c", "d")


def test_seated_player_cannot_join_again():
    with pytest.raises(RuleViolation) as error:
        Lineup.from_order("abc").join("a")
    assert error.value.code == "already_seated"


@pytest.mark.parametrize(
    ("leaving", "after"),
    [
        ("a", ("b", "c", "d")),  # leaving box: as if the captain had won
        ("b", ("a", "c", "d")),  # leaving captain: next in line captains
        ("c", ("a", "b", "d")),  # a member simply leaves
        ("d", ("a", "b", "c")),
    ],
)
def test_leaving(leaving, after):
    assert Lineup.from_order("abcd").leave(leaving).players == after


def test_leaving_someone_not_seated_refused():
    with pytest.raises(RuleViolation) as error:
        Lineup.from_order("abc").leave("z")
    assert error.value.code == "not_seated"


def test_last_two_cannot_split():
    with pytest.raises(RuleViolation) as error:
        Lineup.from_order("ab").leave("a")
    assert error.value.code == "too_few_players"
