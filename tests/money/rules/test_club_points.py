"""The club's own master-points table: place points by field size or per match won."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import RuleViolation
from money.rules.club_points import (
    Bracket,
    ClubTable,
    award,
    bracket_for,
    check_table,
    placement,
    table_from_data,
    table_to_data,
)

D = Decimal
TABLE = check_table(
    ClubTable(
        (
            Bracket(8, 15, (D(10), D(6), D(3), D(3))),
            Bracket(16, 31, (D(16), D(10), D(5), D(5), D(2), D(2), D(2), D(2))),
            Bracket(32, None, (D(25), D(15), D(8), D(8))),
        ),
        per_match_won=D(2),
    )
)


def test_the_bracket_is_chosen_by_field_size():
    assert bracket_for(TABLE, 7) is None
    assert bracket_for(TABLE, 8) is TABLE.brackets[0]
    assert bracket_for(TABLE, 15) is TABLE.brackets[0]
    assert bracket_for(TABLE, 16) is TABLE.brackets[1]
    assert bracket_for(TABLE, 500) is TABLE.brackets[2]


def test_places_and_ties_spread_over_the_ranks_they_occupy():
    # 16 players: 1st 16, 2nd 10, 3rd-4th share (5 + 5) / 2, 5th-8th share (2 x 4) / 4
    points = placement(TABLE, 16, [["a"], ["b"], ["c", "d"], ["e", "f", "g", "h"], ["i"]])
    assert points == {
        "a": D(16),
        "b": D(10),
        "c": D(5),
        "d": D(5),
        "e": D(2),
        "f": D(2),
        "g": D(2),
        "h": D(2),
        "i": D(0),
    }
    # 8 players: two tied for 2nd-3rd share (6 + 3) / 2
    assert placement(TABLE, 8, [["a"], ["b", "c"]])["b"] == D("4.50")


def test_a_player_gets_the_higher_of_place_and_match_wins():
    # 8 players, 2 points a win: the winner (3 wins, 6) keeps 10; the 3rd with 2 wins
    # gets 4 (> 3); a non-placed player with 1 win gets 2
    points = award(
        TABLE, players=8, places=[["a"], ["b"], ["c", "d"]], wins={"a": 3, "c": 2, "x": 1}
    )
    assert points == {"a": D(10), "b": D(6), "c": D(4), "d": D(3), "x": D(2)}


def test_fields_outside_every_bracket_earn_only_match_wins():
    assert award(TABLE, players=4, places=[["a"], ["b"]], wins={"a": 2}) == {"a": D(4)}


@pytest.mark.parametrize(
    ("brackets", "field"),
    [
        ((), "brackets"),
        ((Bracket(1, 5, (D(1),)),), "brackets[0].min_players"),
        ((Bracket(8, 7, (D(1),)),), "brackets[0].max_players"),
        ((Bracket(8, 15, (D(1),)), Bracket(12, 20, (D(1),))), "brackets[1].min_players"),
        ((Bracket(8, None, (D(1),)), Bracket(40, 50, (D(1),))), "brackets[1].min_players"),
        ((Bracket(8, 15, ()),), "brackets[0].points"),
        ((Bracket(8, 15, (D(3), D(5))),), "brackets[0].points[1]"),
        ((Bracket(8, 15, (D(-1),)),), "brackets[0].points[0]"),
        ((Bracket(8, 15, (D("1.005"),)),), "brackets[0].points[0]"),
    ],
)
def test_bad_tables_are_refused_naming_the_field(brackets, field):
    with pytest.raises(RuleViolation) as refused:
        check_table(ClubTable(brackets, D(1)))
    assert refused.value.field == field


def test_the_stored_shape_round_trips():
    data: dict = table_to_data(TABLE)
    assert data["brackets"][0] == {
        "min_players": 8,
        "max_players": 15,
        "points": ["10", "6", "3", "3"],
    }
    assert table_from_data(data) == TABLE
    with pytest.raises(RuleViolation):
        table_from_data({"brackets": "no"})


points_lists = st.lists(
    st.decimals(min_value=0, max_value=1000, places=2), min_size=1, max_size=12
).map(lambda xs: tuple(sorted(xs, reverse=True)))


@settings(deadline=None)  # the machine may be busy: no timing here
@given(
    points=points_lists,
    groups=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=8),
    per_win=st.decimals(min_value=0, max_value=50, places=2),
    wins=st.lists(st.integers(min_value=0, max_value=6), min_size=30, max_size=30),
)
def test_properties_of_any_table(points, groups, per_win, wins):
    table = check_table(ClubTable((Bracket(2, None, points),), per_win))
    places, person = [], 0
    for size in groups:
        places.append(list(range(person, person + size)))
        person += size
    by_place = placement(table, max(person, 2), places)
    # each tied group shares exactly the sum of its ranks' points (to the rounding cent)
    rank = 0
    for group in places:
        expected = sum(points[rank : rank + len(group)], D(0))
        got = sum((by_place[p] for p in group), D(0))
        assert abs(got - expected) <= D("0.01") * len(group)
        rank += len(group)
    # a better place never earns less than a worse one
    values = [by_place[group[0]] for group in places]
    assert values == sorted(values, reverse=True)
    won: dict = {p: wins[p % 30] for p in range(person)}
    total = award(table, players=max(person, 2), places=places, wins=won)
    for p in range(person):
        higher = max(by_place[p], per_win * won[p])
        assert total.get(p, D(0)) == higher
