"""Scoring one chouette game: table tests for every house rule (docs/rules.md, "The
chouette" and the money-play sections)."""

import pytest

from chouette.rules import (
    BoxRetention,
    ChouetteRules,
    CubeMode,
    GameRecord,
    Lineup,
    MemberRecord,
    PartnerChoice,
    score_game,
    split_with_partner,
)
from chouette.rules import MemberRecord as M
from chouette.rules import Side as S
from games.rules.errors import RuleViolation
from games.rules.money import MoneyRules
from games.rules.types import Ending, Level

FOUR = Lineup("box", ("cap", "m1", "m2"))
MODERN = ChouetteRules.modern()


def members(*cubes_or_records):
    """Records for cap, m1, m2 in order: an int is a plain cube, a dict extra fields."""
    out = []
    for name, spec in zip(("cap", "m1", "m2"), cubes_or_records, strict=True):
        if isinstance(spec, dict):
            out.append(MemberRecord(name, **spec))
        else:
            out.append(MemberRecord(name, cube=spec))
    return tuple(out)


def score(record, rules=MODERN, lineup=FOUR):
    result = score_game(rules, lineup, record)
    assert sum(result.payouts.values()) == 0
    return result


def refused(record, rules=MODERN, lineup=FOUR):
    with pytest.raises(RuleViolation) as error:
        score_game(rules, lineup, record)
    return error.value


# -- the board's result against each member separately ------------------------------


@pytest.mark.parametrize(
    ("cubes", "winner", "level", "rules", "expected"),
    [
        # plain singles
        ((1, 1, 1), S.BOX, Level.SINGLE, MODERN, {"box": 3, "cap": -1, "m1": -1, "m2": -1}),
        ((1, 1, 1), S.TEAM, Level.SINGLE, MODERN, {"box": -3, "cap": 1, "m1": 1, "m2": 1}),
        # Jacoby per member's cube: only turned cubes count the gammon
        ((2, 1, 4), S.TEAM, Level.GAMMON, MODERN, {"box": -13, "cap": 4, "m1": 1, "m2": 8}),
        ((1, 1, 1), S.BOX, Level.GAMMON, MODERN, {"box": 3, "cap": -1, "m1": -1, "m2": -1}),
        ((2, 1, 1), S.BOX, Level.BACKGAMMON, MODERN, {"box": 8, "cap": -6, "m1": -1, "m2": -1}),
        # no Jacoby: every gammon counts
        (
            (1, 1, 2),
            S.BOX,
            Level.GAMMON,
            ChouetteRules(money=MoneyRules(jacoby=False)),
            {"box": 8, "cap": -2, "m1": -2, "m2": -4},
        ),
        # backgammon counts 4 by agreement
        (
            (2, 2, 1),
            S.TEAM,
            Level.BACKGAMMON,
            ChouetteRules(money=MoneyRules(backgammon_value=4)),
            {"box": -17, "cap": 8, "m1": 8, "m2": 1},
        ),
        # Philadelphia: gammons and backgammons count single
        (
            (2, 4, 1),
            S.TEAM,
            Level.BACKGAMMON,
            ChouetteRules(money=MoneyRules(philadelphia=True)),
            {"box": -7, "cap": 2, "m1": 4, "m2": 1},
        ),
    ],
)
def test_board_result_per_member(cubes, winner, level, rules, expected):
    result = score(GameRecord(members(*cubes), winner=winner, level=level), rules)
    assert dict(result.payouts) == expected


def test_resignation_scores_its_level():
    result = score(
        GameRecord(members(2, 2, 2), winner=S.BOX, level=Level.GAMMON, ending=Ending.RESIGNED)
    )
    assert result.payouts["box"] == 12
    assert result.ending is Ending.RESIGNED


def test_positions_explain_the_payouts():
    result = score(GameRecord(members(2, 1, {"drop": S.TEAM}), winner=S.BOX, level=Level.GAMMON))
    by_member = {p.source: p for p in result.positions}
    assert by_member["cap"].multiplier == 2 and by_member["cap"].points == 4
    assert by_member["m1"].multiplier == 1  # Jacoby: m1's cube never turned
    assert by_member["m2"].dropped and by_member["m2"].points == 1
    assert result.box_total == 6


# -- automatic doubles -------------------------------------------------------------

AUTO = ChouetteRules(money=MoneyRules(automatic_doubles=True, automatic_double_limit=1))


def test_automatic_double_raises_every_cube_but_keeps_jacoby():
    record = GameRecord(
        (M("cap"), M("m1"), M("m2", cube=4, owner=S.TEAM)),
        winner=S.TEAM,
        level=Level.GAMMON,
        automatic_doubles=1,
    )
    result = score(record, AUTO)
    # cap and m1: cube 2 from the opening tie, never turned: single; m2 turned: gammon
    assert dict(result.payouts) == {"box": -12, "cap": 2, "m1": 2, "m2": 8}


def test_philadelphia_does_not_count_automatic_doubles():
    rules = ChouetteRules(
        money=MoneyRules(philadelphia=True, automatic_doubles=True, automatic_double_limit=2)
    )
    record = GameRecord(members(4, 8, 16), winner=S.BOX, level=Level.GAMMON, automatic_doubles=2)
    assert score(record, rules).payouts["box"] == 1 + 2 + 4


@pytest.mark.parametrize(
    ("rules", "count", "code"),
    [
        (MODERN, 1, "automatic_doubles_not_agreed"),
        (AUTO, 2, "automatic_doubles_above_limit"),
        (AUTO, -1, "automatic_doubles_invalid"),
    ],
)
def test_automatic_doubles_refused(rules, count, code):
    error = refused(GameRecord(members(8, 8, 8), winner=S.BOX, automatic_doubles=count), rules)
    assert error.code == code and error.field == "automatic_doubles"


def test_cube_below_automatic_doubles_refused():
    error = refused(GameRecord(members(2, 1, 2), winner=S.BOX, automatic_doubles=1), AUTO)
    assert error.code == "cube_below_automatic_doubles"
    assert error.field == "members[1].cube"


# -- drops -------------------------------------------------------------------------


def test_member_who_drops_pays_the_cube_before_the_double_and_is_out():
    record = GameRecord(
        members(2, {"cube": 2, "drop": S.TEAM}, 2), winner=S.TEAM, level=Level.GAMMON
    )
    assert dict(score(record).payouts) == {"box": -6, "cap": 4, "m1": -2, "m2": 4}


def test_box_who_drops_a_members_double_pays_that_member():
    record = GameRecord(members(1, {"cube": 2, "drop": S.BOX}, 1), winner=S.BOX)
    assert dict(score(record).payouts) == {"box": 0, "cap": -1, "m1": 2, "m2": -1}


def test_captain_drops_next_member_still_in_takes_over_the_board():
    record = GameRecord(members({"drop": S.TEAM}, {"drop": S.TEAM}, 2), winner=S.TEAM)
    result = score(record)
    assert result.board_captain == "m2"
    assert result.dropped_before_captain == ("cap", "m1")
    assert dict(result.payouts) == {"box": 0, "cap": -1, "m1": -1, "m2": 2}


def test_everyone_drops_the_box_wins_against_the_captain():
    record = GameRecord(members(*[{"cube": 2, "drop": S.TEAM}] * 3))
    result = score(record)
    assert result.board_winner is S.BOX and result.board_captain == "cap"
    assert result.ending is Ending.DROPPED
    assert result.payouts["box"] == 6


def test_box_drops_everyone_the_captain_beat_the_box():
    record = GameRecord(members(*[{"drop": S.BOX}] * 3))
    result = score(record)
    assert result.board_winner is S.TEAM and result.board_captain == "cap"
    assert result.payouts["box"] == -3


def test_all_out_first_member_the_box_dropped_is_the_board_captain():
    record = GameRecord(members({"drop": S.TEAM}, {"cube": 2, "drop": S.BOX}, {"drop": S.BOX}))
    result = score(record)
    assert result.board_captain == "m1" and result.board_winner is S.TEAM
    assert result.dropped_before_captain == ("cap",)
    assert dict(result.payouts) == {"box": -2, "cap": -1, "m1": 2, "m2": 1}


@pytest.mark.parametrize(
    ("specs", "winner"),
    [
        ([{"drop": S.TEAM}] * 3, S.TEAM),  # the members who dropped cannot be winners
        ([{"drop": S.BOX}] * 3, S.BOX),  # the box who dropped cannot be the winner
    ],
)
def test_drop_by_the_winning_side_refused(specs, winner):
    error = refused(GameRecord(members(*specs), winner=winner))
    assert error.code == "drop_by_winning_side" and error.field == "winner"


def test_all_dropped_is_single_and_ended_by_a_drop():
    record = GameRecord(members(*[{"drop": S.TEAM}] * 3), level=Level.GAMMON)
    assert refused(record).code == "dropped_game_is_single"
    record = GameRecord(members(*[{"drop": S.TEAM}] * 3), ending=Ending.PLAYED)
    assert refused(record).code == "no_board_result"


def test_board_with_members_in_needs_a_winner_and_is_not_a_drop():
    assert refused(GameRecord(members(1, 1, 1))).code == "winner_missing"
    record = GameRecord(members(1, 1, 1), winner=S.BOX, ending=Ending.DROPPED)
    assert refused(record).code == "board_not_dropped"


def test_drop_whose_double_would_pass_the_limit_refused():
    rules = ChouetteRules(money=MoneyRules(cube_limit=4))
    error = refused(GameRecord(members(1, {"cube": 4, "drop": S.TEAM}, 1), winner=S.BOX), rules)
    assert error.code == "cube_above_limit" and error.field == "members[1].cube"
    record = GameRecord(members(1, {"cube": 2, "drop": S.TEAM}, 4), winner=S.BOX)
    assert score(record, rules).payouts["box"] == 1 + 2 + 4


# -- beavers and raccoons ----------------------------------------------------------


def test_beaver_is_the_members_cube_doubled_and_owned_by_the_member():
    beaver = {"cube": 4, "beaver": S.TEAM, "owner": S.TEAM}
    result = score(GameRecord(members(1, beaver, 1), winner=S.TEAM, level=Level.GAMMON))
    assert dict(result.payouts) == {"box": -10, "cap": 1, "m1": 8, "m2": 1}


def test_raccoon_when_agreed():
    rules = ChouetteRules(money=MoneyRules(raccoons=True))
    raccoon = {"cube": 8, "beaver": S.TEAM, "raccoon": True, "owner": S.BOX}
    assert score(GameRecord(members(1, raccoon, 1), winner=S.BOX), rules).payouts["m1"] == -8


@pytest.mark.parametrize(
    ("rules", "spec", "code", "field"),
    [
        (
            ChouetteRules(money=MoneyRules(beavers=False)),
            {"cube": 4, "beaver": S.TEAM},
            "beavers_not_agreed",
            "members[1].beaver",
        ),
        (
            MODERN,
            {"cube": 8, "beaver": S.TEAM, "raccoon": True},
            "raccoons_not_agreed",
            "members[1].raccoon",
        ),
        (
            ChouetteRules(money=MoneyRules(raccoons=True)),
            {"cube": 8, "raccoon": True},
            "raccoon_without_beaver",
            "members[1].raccoon",
        ),
        (MODERN, {"cube": 2, "beaver": S.TEAM}, "cube_too_low_for_beaver", "members[1].cube"),
        (
            ChouetteRules(money=MoneyRules(raccoons=True)),
            {"cube": 4, "beaver": S.BOX, "raccoon": True},
            "cube_too_low_for_beaver",
            "members[1].cube",
        ),
        (MODERN, {"cube": 4, "beaver": "nobody"}, "invalid_beaver", "members[1].beaver"),
    ],
)
def test_beaver_and_raccoon_refusals(rules, spec, code, field):
    error = refused(GameRecord(members(1, spec, 1), winner=S.BOX), rules)
    assert (error.code, error.field) == (code, field)


# -- cubes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cube", "rules", "code"),
    [
        (3, MODERN, "cube_not_power_of_two"),
        (0, MODERN, "cube_not_power_of_two"),
        (-2, MODERN, "cube_not_power_of_two"),
        (2.0, MODERN, "cube_not_power_of_two"),
        (True, MODERN, "cube_not_power_of_two"),
        (16, ChouetteRules(money=MoneyRules(cube_limit=8)), "cube_above_limit"),
    ],
)
def test_impossible_cubes_refused(cube, rules, code):
    error = refused(GameRecord(members(1, 1, cube), winner=S.BOX), rules)
    assert error.code == code and error.field == "members[2].cube"


def test_owner_of_a_centred_cube_refused():
    error = refused(GameRecord(members({"owner": S.BOX}, 1, 1), winner=S.BOX))
    assert error.code == "owner_of_centred_cube" and error.field == "members[0].owner"


# -- who is recorded ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("records", "code", "field"),
    [
        ((M("cap"), M("m1"), M("m2"), M("m1")), "member_twice", "members[3].player"),
        ((M("cap"), M("m1"), M("m2"), M("box")), "box_as_member", "members[3].player"),
        ((M("cap"), M("m1"), M("m2"), M("zed")), "not_on_team", "members[3].player"),
        ((M("cap"), M("m2")), "member_missing", "members"),
    ],
)
def test_member_records_refused(records, code, field):
    error = refused(GameRecord(records, winner=S.BOX))
    assert (error.code, error.field) == (code, field)


def test_lineup_cross_checks():
    assert refused(GameRecord(members(1, 1, 1), winner=S.BOX, box="cap")).code == "lineup_mismatch"
    error = refused(GameRecord(members(1, 1, 1), winner=S.BOX, captain="m1"))
    assert (error.code, error.field) == ("lineup_mismatch", "captain")
    score(GameRecord(members(1, 1, 1), winner=S.BOX, box="box", captain="cap"))


def test_a_chouette_needs_three_players():
    error = refused(GameRecord((M("cap"),), winner=S.BOX), lineup=Lineup("box", ("cap",)))
    assert error.code == "too_few_players"


# -- stake multiples (a member starting with the cube at 2 or 4) ----------------------

STARTING = ChouetteRules(allow_starting_cube=True)


def test_starting_cube_is_a_stake_multiple():
    record = GameRecord(
        members({"stake": 2}, {"stake": 4, "cube": 2}, 1), winner=S.TEAM, level=Level.GAMMON
    )
    # cap: stake 2, cube never turned: Jacoby keeps the gammon single -> 2
    # m1: stake 4, cube turned to 2: gammon -> 2 * 2 * 4 = 16
    assert dict(score(record, STARTING).payouts) == {"box": -19, "cap": 2, "m1": 16, "m2": 1}


def test_stake_multiple_applies_to_a_drop():
    record = GameRecord(members({"stake": 4, "cube": 2, "drop": S.TEAM}, 1, 1), winner=S.TEAM)
    assert score(record, STARTING).payouts["cap"] == -8


@pytest.mark.parametrize(
    ("rules", "stake", "code"),
    [
        (MODERN, 2, "starting_cube_not_allowed"),
        (MODERN, 4, "starting_cube_not_allowed"),
        (STARTING, 3, "invalid_stake_multiple"),
        (STARTING, 8, "invalid_stake_multiple"),
        (STARTING, 0, "invalid_stake_multiple"),
    ],
)
def test_stake_multiple_refused(rules, stake, code):
    error = refused(GameRecord(members(1, {"stake": stake}, 1), winner=S.BOX), rules)
    assert (error.code, error.field) == (code, "members[1].stake")


# -- partner -----------------------------------------------------------------------

FIVE = Lineup("box", ("cap", "m1", "m2", "m3"))
PARTNER = ChouetteRules(partner_threshold=5)
GIVEN = ChouetteRules(partner_threshold=5, partner_choice=PartnerChoice.GIVEN)


@pytest.mark.parametrize(
    ("total", "box", "partner"),
    [
        (0, 0, 0),
        (1, 1, 0),
        (2, 1, 1),
        (3, 2, 1),
        (-3, -2, -1),
        (-1, -1, 0),
        (7, 4, 3),
        (-8, -4, -4),
    ],
)
def test_split_with_partner_odd_point_to_the_box(total, box, partner):
    assert split_with_partner(total) == (box, partner)


def test_partner_is_the_bottom_member_and_shares_the_result():
    result = score(GameRecord(members(1, 1, 1), winner=S.BOX), PARTNER, FIVE)
    assert result.partner == "m3" and result.team == ("cap", "m1", "m2")
    assert dict(result.payouts) == {"box": 2, "m3": 1, "cap": -1, "m1": -1, "m2": -1}
    result = score(GameRecord(members(2, 1, 1), winner=S.TEAM), PARTNER, FIVE)
    assert result.box_total == -4
    assert (result.payouts["box"], result.payouts["m3"]) == (-2, -2)


def test_no_partner_below_the_threshold():
    assert score(GameRecord(members(1, 1, 1), winner=S.BOX), PARTNER).partner is None
    error = refused(GameRecord(members(1, 1, 1), winner=S.BOX, partner="m2"), PARTNER)
    assert error.code == "partner_not_allowed"
    assert refused(GameRecord(members(1, 1, 1), winner=S.BOX, partner="m2")).code == (
        "partner_not_allowed"
    )


def test_partner_has_no_cube():
    record = GameRecord((*members(1, 1, 1), M("m3")), winner=S.BOX)
    assert refused(record, PARTNER, FIVE).code == "partner_as_member"


def test_bottom_partner_cannot_be_named_otherwise():
    record = GameRecord((M("cap"), M("m1"), M("m3")), winner=S.BOX, partner="m2")
    assert refused(record, PARTNER, FIVE).code == "partner_not_bottom"
    record = GameRecord(members(1, 1, 1), winner=S.BOX, partner="m3")
    assert score(record, PARTNER, FIVE).partner == "m3"


def test_given_partner():
    record = GameRecord((M("cap"), M("m2"), M("m3")), winner=S.TEAM, partner="m1")
    result = score(record, GIVEN, FIVE)
    assert result.partner == "m1"
    assert dict(result.payouts) == {"box": -2, "m1": -1, "cap": 1, "m2": 1, "m3": 1}


@pytest.mark.parametrize(
    ("partner", "code"),
    [
        (None, "partner_missing"),
        ("cap", "partner_is_captain"),
        ("box", "partner_not_on_team"),
        ("zed", "partner_not_on_team"),
    ],
)
def test_given_partner_refused(partner, code):
    record = GameRecord((M("m1"), M("m2"), M("m3")), winner=S.BOX, partner=partner)
    error = refused(record, GIVEN, FIVE)
    assert (error.code, error.field) == (code, "partner")


# -- box retention -----------------------------------------------------------------

NET_WIN = ChouetteRules(box_retention=BoxRetention.NET_WIN)


@pytest.mark.parametrize(
    ("specs", "winner", "beat_captain_keeps", "net_win_keeps"),
    [
        ((1, 1, 1), S.BOX, True, True),  # beat everyone
        ((1, {"cube": 2, "drop": S.BOX}, 1), S.BOX, True, False),  # +1 -2 +1 = 0: no net win
        ((1, {"cube": 4, "drop": S.BOX}, 1), S.BOX, True, False),  # net loss
        ((1, {"drop": S.TEAM}, 8), S.TEAM, False, False),  # lost the board
        ((1, {"cube": 4, "drop": S.TEAM}, 1), S.TEAM, False, False),  # net +2 but lost the board
        ((1, {"cube": 4, "drop": S.BOX}, 2), S.BOX, True, False),
        ((1, {"cube": 2, "drop": S.BOX}, 2), S.BOX, True, True),  # +1 -2 +2 = 1
    ],
)
def test_box_retention(specs, winner, beat_captain_keeps, net_win_keeps):
    record = GameRecord(members(*specs), winner=winner)
    assert score(record).box_keeps is beat_captain_keeps
    assert score(record, NET_WIN).box_keeps is net_win_keeps


# -- captain takeover (Thorne's option) ----------------------------------------------

TAKEOVER = ChouetteRules(captain_takeover=True)


def test_captain_takes_over_a_dropped_position_at_the_doubled_stake():
    record = GameRecord(members(2, {"drop": S.TEAM, "taken_over": True}, 2), winner=S.TEAM)
    result = score(record, TAKEOVER)
    assert dict(result.payouts) == {"box": -5, "cap": 4, "m1": -1, "m2": 2}
    takeover = next(p for p in result.positions if p.takeover)
    assert (takeover.holder, takeover.source, takeover.cube) == ("cap", "m1", 2)


def test_taken_over_position_counts_the_gammon_its_cube_was_turned():
    record = GameRecord(
        members(1, {"drop": S.TEAM, "taken_over": True}, 1), winner=S.BOX, level=Level.GAMMON
    )
    assert dict(score(record, TAKEOVER).payouts) == {"box": 7, "cap": -5, "m1": -1, "m2": -1}


def test_takeover_goes_to_the_boards_captain_at_the_end():
    record = GameRecord(
        members({"drop": S.TEAM}, {"drop": S.TEAM, "taken_over": True}, 1), winner=S.TEAM
    )
    result = score(record, TAKEOVER)
    assert result.board_captain == "m2"
    assert dict(result.payouts) == {"box": -1, "cap": -1, "m1": -1, "m2": 3}


@pytest.mark.parametrize(
    ("rules", "specs", "code"),
    [
        (MODERN, (1, {"drop": S.TEAM, "taken_over": True}, 1), "captain_takeover_not_allowed"),
        (TAKEOVER, (1, {"taken_over": True}, 1), "takeover_without_drop"),
        (TAKEOVER, (1, {"drop": S.BOX, "taken_over": True}, 1), "takeover_without_drop"),
        (
            TAKEOVER,
            ({"drop": S.TEAM, "taken_over": True}, {"drop": S.TEAM}, {"drop": S.TEAM}),
            "takeover_by_dropper",
        ),
    ],
)
def test_takeover_refused(rules, specs, code):
    error = refused(GameRecord(members(*specs), winner=S.BOX), rules)
    assert error.code == code


# -- single cube (Thorne 1930) --------------------------------------------------------

SINGLE = ChouetteRules(cubes=CubeMode.SINGLE)


def test_single_cube_members_still_in_share_it():
    record = GameRecord(members(4, {"cube": 2, "drop": S.TEAM}, 4), winner=S.BOX)
    assert dict(score(record, SINGLE).payouts) == {"box": 10, "cap": -4, "m1": -2, "m2": -4}


@pytest.mark.parametrize(
    ("specs", "code"),
    [
        ((2, 4, 2), "single_cube_differs"),
        ((2, {"cube": 2, "drop": S.TEAM}, 2), "single_cube_drop_above"),
        ((2, {"cube": 2, "drop": S.BOX}, 2), "single_cube_box_drop"),
        (
            ({"cube": 2, "drop": S.BOX}, {"cube": 4, "drop": S.BOX}, {"drop": S.TEAM}),
            "single_cube_differs",
        ),
        (
            ({"cube": 2, "drop": S.BOX}, {"cube": 2, "drop": S.BOX}, {"cube": 2, "drop": S.TEAM}),
            "single_cube_drop_above",
        ),
    ],
)
def test_single_cube_records_that_differ_refused(specs, code):
    still_in = any(not isinstance(spec, dict) for spec in specs)
    record = GameRecord(members(*specs), winner=S.BOX if still_in else None)
    assert refused(record, SINGLE).code == code


def test_single_cube_box_refuses_the_teams_double():
    record = GameRecord(
        members({"cube": 2, "drop": S.BOX}, {"drop": S.TEAM}, {"cube": 2, "drop": S.BOX})
    )
    result = score(record, SINGLE)
    assert result.board_winner is S.TEAM
    assert dict(result.payouts) == {"box": -3, "cap": 2, "m1": -1, "m2": 2}
