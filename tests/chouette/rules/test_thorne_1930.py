"""Thorne's 1930 chouette as a rule profile.

Quotes are from Thorne 1930 (*Backgammon in 20 Minutes*).
"""

from decimal import Decimal

import pytest

from chouette.rules import (
    ChouetteRules,
    GameRecord,
    Lineup,
    MemberRecord,
    lineup_after,
    order_from_rolls,
    score_game,
    settle,
)
from chouette.rules import Side as S
from games.rules.errors import RuleViolation
from games.rules.types import Level

THORNE = ChouetteRules.thorne_1930()
PHILADELPHIA = ChouetteRules.thorne_1930(philadelphia=True)
TABLE = Lineup("box", ("cap", "m1", "m2"))


def test_seniority_by_the_numbers_thrown():
    # "Each person throws a die, and the highest number thrown indicates 'the man in
    # the box,' who plays against all the others. The second highest number thrown
    # elects the Captain of the opposing side, and the remaining members hold
    # seniority according to the numbers thrown."
    lineup = order_from_rolls({"w": 2, "x": 5, "y": 6, "z": 3})
    assert (lineup.box, lineup.captain, lineup.team[1:]) == ("y", "x", ("z", "w"))


def test_thorne_scoring_example():
    # "there were three doubles made during the play and opponent has a man in Black's
    # inner table. The original stake was for five points, which, when doubled three
    # times makes forty points multiplied by three for the triple game, makes a total
    # of 120 points."
    lineup = Lineup("black", ("white", "other"))
    record = GameRecord(
        (MemberRecord("white", cube=8), MemberRecord("other", cube=8)),
        winner=S.BOX,
        level=Level.BACKGAMMON,
    )
    score = score_game(THORNE, lineup, record)
    assert score.payouts["white"] == -24
    transfers = settle({"white": -24, "black": 24}, Decimal("5"))
    assert transfers[0].amount == Decimal("120.00")


def test_philadelphia_method_counts_only_doubles_made_in_play():
    # "Another method of scoring is known as the Philadelphia method wherein Only
    # doubles made in play are counted in this method."
    lineup = Lineup("black", ("white", "other"))
    record = GameRecord(
        (MemberRecord("white", cube=8), MemberRecord("other", cube=8)),
        winner=S.BOX,
        level=Level.BACKGAMMON,
    )
    assert score_game(PHILADELPHIA, lineup, record).payouts["black"] == 16


def test_rejector_pays_up_to_the_double_and_the_captain_takes_over():
    # "anyone of the team may elect to refuse the double proposed by 'the man in the
    # box'; in which case the rejector must pay his loss up to the time of the double,
    # and the Captain of the team takes over his position."
    record = GameRecord(
        (
            MemberRecord("cap", cube=2),
            MemberRecord("m1", cube=1, drop=S.TEAM, taken_over=True),
            MemberRecord("m2", cube=2),
        ),
        winner=S.TEAM,
        level=Level.GAMMON,
    )
    score = score_game(THORNE, TABLE, record)
    # no Jacoby in 1930: "These doubles are in addition to those made during the play."
    assert dict(score.payouts) == {"box": -11, "cap": 8, "m1": -1, "m2": 4}


def test_takeover_in_single_cube_moves_on_with_the_one_cube():
    record = GameRecord(
        (
            MemberRecord("cap", cube=4),
            MemberRecord("m1", cube=1, drop=S.TEAM, taken_over=True),
            MemberRecord("m2", cube=4),
        ),
        winner=S.BOX,
    )
    assert dict(score_game(THORNE, TABLE, record).payouts) == {
        "box": 13,
        "cap": -8,
        "m1": -1,
        "m2": -4,
    }


def test_one_cube_for_the_team():
    record = GameRecord(
        (MemberRecord("cap", cube=2), MemberRecord("m1", cube=4), MemberRecord("m2", cube=2)),
        winner=S.BOX,
    )
    with pytest.raises(RuleViolation) as error:
        score_game(THORNE, TABLE, record)
    assert error.value.code == "single_cube_differs"


def test_no_beavers_in_1930():
    record = GameRecord(
        (
            MemberRecord("cap", cube=4, beaver=S.TEAM),
            MemberRecord("m1", cube=4),
            MemberRecord("m2", cube=4),
        ),
        winner=S.BOX,
    )
    with pytest.raises(RuleViolation) as error:
        score_game(THORNE, TABLE, record)
    assert error.value.code == "beavers_not_agreed"


@pytest.mark.parametrize(
    ("winner", "after"),
    [
        # "Should 'the man in the box' win, the Captain of the team takes the junior
        # position and the second in command takes charge."
        (S.BOX, ("box", "m1", "m2", "cap")),
        # "'The man in the box' remains there until defeated, and then takes a position
        # at the foot of the team that opposed him. The Captain of the team defeating
        # 'the man in the box' then takes that position ... the second in command of
        # the team now becomes the Captain."
        (S.TEAM, ("cap", "m1", "m2", "box")),
    ],
)
def test_thorne_rotation(winner, after):
    record = GameRecord(tuple(MemberRecord(p) for p in TABLE.team), winner=winner)
    assert lineup_after(TABLE, score_game(THORNE, TABLE, record)).players == after
