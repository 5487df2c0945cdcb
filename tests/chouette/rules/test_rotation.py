"""Rotation after a game (docs/rules.md, "Rotation"; Thorne 1930, *Chouette*)."""

import pytest

from chouette.rules import (
    BoxRetention,
    ChouetteRules,
    GameRecord,
    Lineup,
    MemberRecord,
    lineup_after,
    rotate,
    score_game,
)
from chouette.rules import Side as S
from games.rules.errors import RuleViolation

L5 = Lineup("box", ("cap", "m1", "m2", "m3"))


def test_box_beats_the_captain_box_stays_captain_to_the_bottom():
    # Thorne: "Should 'the man in the box' win, the Captain of the team takes the
    # junior position and the second in command takes charge."
    after = rotate(L5, board_captain="cap", board_winner=S.BOX, box_keeps=True)
    assert after == Lineup("box", ("m1", "m2", "m3", "cap"))


def test_captain_beats_the_box_becomes_box_old_box_to_the_bottom():
    # Thorne: "'The man in the box' remains there until defeated, and then takes a
    # position at the foot of the team that opposed him. The Captain of the team
    # defeating 'the man in the box' then takes that position ... the second in
    # command of the team now becomes the Captain."
    after = rotate(L5, board_captain="cap", board_winner=S.TEAM, box_keeps=False)
    assert after == Lineup("cap", ("m1", "m2", "m3", "box"))


def test_board_captain_after_drops_decides_and_droppers_lose_their_place():
    after = rotate(
        L5,
        board_captain="m1",
        board_winner=S.TEAM,
        box_keeps=False,
        dropped_before_captain=("cap",),
    )
    assert after == Lineup("m1", ("m2", "m3", "cap", "box"))
    after = rotate(
        L5, board_captain="m1", board_winner=S.BOX, box_keeps=True, dropped_before_captain=("cap",)
    )
    assert after == Lineup("box", ("m2", "m3", "cap", "m1"))


def test_net_win_double_stand_up():
    after = rotate(L5, board_captain="cap", board_winner=S.BOX, box_keeps=False)
    assert after == Lineup("m1", ("m2", "m3", "cap", "box"))


def test_partner_keeps_his_place_in_line():
    # m3 partnered the box (bottom); the captain who lost goes below him, so the next
    # partner (the bottom) is the player who just lost his seat.
    after = rotate(L5, board_captain="cap", board_winner=S.BOX, box_keeps=True)
    assert after.team[-2:] == ("m3", "cap")


def test_refused_rotations():
    with pytest.raises(RuleViolation) as error:
        rotate(L5, board_captain="box", board_winner=S.BOX, box_keeps=True)
    assert error.value.code == "not_on_team"
    with pytest.raises(RuleViolation) as error:
        rotate(L5, board_captain="cap", board_winner=S.TEAM, box_keeps=True)
    assert error.value.code == "box_keeps_after_losing"
    with pytest.raises(RuleViolation) as error:
        rotate(
            L5,
            board_captain="m1",
            board_winner=S.BOX,
            box_keeps=True,
            dropped_before_captain=("zed",),
        )
    assert error.value.code == "not_on_team"


def _members(*specs):
    names = ("cap", "m1", "m2", "m3")
    return tuple(MemberRecord(n, **spec) for n, spec in zip(names, specs, strict=True))


@pytest.mark.parametrize(
    ("rules", "record", "after"),
    [
        (
            ChouetteRules(),
            GameRecord(_members({}, {}, {}, {}), winner=S.BOX),
            ("box", "m1", "m2", "m3", "cap"),
        ),
        (
            ChouetteRules(),
            GameRecord(_members({}, {}, {}, {}), winner=S.TEAM),
            ("cap", "m1", "m2", "m3", "box"),
        ),
        # the captain dropped, m1 took over the board and won: m1 is box
        (
            ChouetteRules(),
            GameRecord(_members({"drop": S.TEAM}, {}, {}, {}), winner=S.TEAM),
            ("m1", "m2", "m3", "cap", "box"),
        ),
        # everyone dropped: the box beat the captain
        (
            ChouetteRules(),
            GameRecord(_members(*[{"drop": S.TEAM}] * 4)),
            ("box", "m1", "m2", "m3", "cap"),
        ),
        # net win: beat the captain but the box dropped m1's and m2's 4-cubes
        (
            ChouetteRules(box_retention=BoxRetention.NET_WIN),
            GameRecord(
                _members({}, {"cube": 4, "drop": S.BOX}, {"cube": 4, "drop": S.BOX}, {}),
                winner=S.BOX,
            ),
            ("m1", "m2", "m3", "cap", "box"),
        ),
        # with a partner (bottom, m3): box wins, m3 keeps his place, cap below him
        (
            ChouetteRules(partner_threshold=5),
            GameRecord(_members({}, {}, {}, {})[:3], winner=S.BOX),
            ("box", "m1", "m2", "m3", "cap"),
        ),
        (
            ChouetteRules(partner_threshold=5),
            GameRecord(_members({}, {}, {}, {})[:3], winner=S.TEAM),
            ("cap", "m1", "m2", "m3", "box"),
        ),
    ],
)
def test_lineup_after_a_scored_game(rules, record, after):
    assert lineup_after(L5, score_game(rules, L5, record)).players == after
