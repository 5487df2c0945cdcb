"""Replaying a session of many games with players joining and leaving (docs/rules.md,
"The chouette")."""

from decimal import Decimal

import pytest

from chouette.rules import (
    ChouetteRules,
    GameRecord,
    Join,
    Leave,
    Lineup,
    MemberRecord,
    order_from_rolls,
    replay_session,
    settle,
)
from chouette.rules import Side as S
from games.rules.errors import RuleViolation


def plain(lineup_team, winner, level="single", **cubes):
    """A game where every member plays on with cube 1 unless given."""
    return GameRecord(
        tuple(MemberRecord(p, cube=cubes.get(p, 1)) for p in lineup_team),
        winner=winner,
        level=level,
    )


def test_a_long_session_with_joins_and_leaves():
    rules = ChouetteRules()
    start = order_from_rolls({"ann": 6, "bob": 4, "cy": [2, 5], "dee": [2, 1]})
    assert start.players == ("ann", "bob", "cy", "dee")
    events = [
        # 1: ann (box) beats bob: bob to the bottom
        plain(("bob", "cy", "dee"), S.BOX),
        # 2: cy captains and wins a gammon on a 2-cube: cy becomes box
        plain(("cy", "dee", "bob"), S.TEAM, "gammon", cy=2),
        Join("eve"),
        # 3: cy box; dee captains, drops; bob takes over the board and loses
        GameRecord(
            (
                MemberRecord("dee", drop=S.TEAM),
                MemberRecord("bob", cube=2),
                MemberRecord("ann", cube=2),
                MemberRecord("eve", cube=2),
            ),
            winner=S.BOX,
        ),
        Leave("cy"),  # the box leaves: as if the captain had won
        # 4
        plain(("eve", "dee", "bob"), S.TEAM),
        Leave("dee"),
        # 5
        plain(("bob", "ann"), S.BOX, "backgammon", ann=2),
    ]
    replay = replay_session(rules, start, events)
    lineups = [(g.lineup_before.players, g.lineup_after.players) for g in replay.games]
    assert lineups == [
        (("ann", "bob", "cy", "dee"), ("ann", "cy", "dee", "bob")),
        (("ann", "cy", "dee", "bob"), ("cy", "dee", "bob", "ann")),
        (("cy", "dee", "bob", "ann", "eve"), ("cy", "ann", "eve", "dee", "bob")),
        (("ann", "eve", "dee", "bob"), ("eve", "dee", "bob", "ann")),
        (("eve", "bob", "ann"), ("eve", "ann", "bob")),
    ]
    assert [dict(g.payouts) for g in replay.games] == [
        {"ann": 3, "bob": -1, "cy": -1, "dee": -1},
        {"ann": -6, "cy": 4, "dee": 1, "bob": 1},
        {"cy": 7, "dee": -1, "bob": -2, "ann": -2, "eve": -2},
        {"ann": -3, "eve": 1, "dee": 1, "bob": 1},
        {"eve": 7, "bob": -1, "ann": -6},
    ]
    assert dict(replay.totals) == {"ann": -14, "bob": -2, "cy": 10, "dee": 0, "eve": 6}
    assert replay.lineup.players == ("eve", "ann", "bob")
    for game in replay.games:
        assert sum(game.totals.values()) == 0
    transfers = settle(replay.totals, Decimal("1.00"))
    assert len(transfers) == 3


def test_a_correction_is_a_replay():
    rules = ChouetteRules()
    start = Lineup.from_order("abc")
    events = [plain("bc", S.BOX), plain("cb", S.BOX), plain("bc", S.BOX)]
    before = replay_session(rules, start, events)
    assert before.lineup.players == ("a", "c", "b")
    assert dict(before.totals) == {"a": 6, "b": -3, "c": -3}
    # game 2 corrected: c's cube was 4 and c won a gammon; the rotation changes, so
    # the later record must be re-entered against the new lineup
    corrected = [plain("bc", S.BOX), plain("cb", S.TEAM, "gammon", c=4), plain("ba", S.BOX)]
    after = replay_session(rules, start, corrected)
    assert [g.lineup_before.players for g in after.games] == [
        ("a", "b", "c"),
        ("a", "c", "b"),
        ("c", "b", "a"),
    ]
    assert dict(after.totals) == {"a": 2 - 9 - 1, "b": -1 + 1 - 1, "c": -1 + 8 + 2}
    with pytest.raises(RuleViolation) as error:
        replay_session(rules, start, [*corrected[:2], events[2]])
    assert error.value.field == "events[2].members[1].player"


def test_errors_name_the_event_and_game():
    rules = ChouetteRules()
    start = Lineup.from_order("abc")
    events = [plain("bc", S.BOX), Join("d"), plain("cbd", S.BOX, c=3)]
    with pytest.raises(RuleViolation) as error:
        replay_session(rules, start, events)
    assert error.value.code == "cube_not_power_of_two"
    assert error.value.field == "events[2].members[0].cube"
    assert error.value.message.startswith("Game 2: ")


def test_a_game_against_the_wrong_lineup_is_refused():
    with pytest.raises(RuleViolation) as error:
        replay_session(ChouetteRules(), Lineup.from_order("abc"), [plain("ca", S.BOX)])
    assert (error.value.code, error.value.field) == ("box_as_member", "events[0].members[1].player")
    # members may be recorded in any order: the lineup fixes the line
    assert replay_session(ChouetteRules(), Lineup.from_order("abc"), [plain("cb", S.BOX)]).games


def test_bad_join_and_leave_events():
    start = Lineup.from_order("abc")
    with pytest.raises(RuleViolation) as error:
        replay_session(ChouetteRules(), start, [Join("a")])
    assert (error.value.code, error.value.field) == ("already_seated", "events[0].player")
    with pytest.raises(RuleViolation) as error:
        replay_session(ChouetteRules(), start, [Leave("z")])
    assert error.value.code == "not_seated"
    with pytest.raises(RuleViolation) as error:
        replay_session(ChouetteRules(), start, ["nonsense"])  # type: ignore[list-item]  # deliberately wrong
    assert error.value.code == "invalid_event"


def test_two_players_cannot_play_a_chouette_until_someone_joins():
    start = Lineup.from_order("abc")
    events = [Leave("c"), plain("b", S.BOX)]
    with pytest.raises(RuleViolation) as error:
        replay_session(ChouetteRules(), start, events)
    assert error.value.code == "too_few_players"
    replay = replay_session(ChouetteRules(), start, [Leave("c"), Join("d"), plain("bd", S.BOX)])
    assert replay.lineup.players == ("a", "d", "b")
    assert dict(replay.totals) == {"a": 2, "b": -1, "c": 0, "d": -1}
