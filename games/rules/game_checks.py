"""One game's record checked on its own: who won, the cube, drops, levels and its points.

Implements the per-game half of ``docs/rules.md``, "Game value" and "The doubling cube"
(sources and decisions in :mod:`games.rules.scoring`): what a single record may say
whatever the match around it, apart from the match's own state (the score, the
Crawford game), which :mod:`games.rules.scoring` passes in.
"""

from __future__ import annotations

from collections.abc import Callable

from .match_types import GameRecord, Score, _bad
from .money import MoneyRules, check_automatic_doubles, money_game_value
from .types import LEVEL_MULTIPLIER, UNKNOWN_OWNER, Ending, Level, is_power_of_two


def _level_points(level: Level, backgammon_value: int) -> int:
    return backgammon_value if level is Level.BACKGAMMON else LEVEL_MULTIPLIER[level]


def _check_record(
    record: GameRecord,
    *,
    cube_limit: int | None,
    crawford: bool,
    money: MoneyRules | None,
    match_play: bool,
    backgammon_value: int,
    prefix: str,
    score: Score | None = None,
    length: int = 0,
) -> int:
    """Check one record against every rule that concerns it alone; return its points.

    Checks run in an order that reports the most basic broken rule first (who won,
    then the cube, then who held it, then the Crawford game, then drops, then points).
    ``score`` (before the game) and ``length`` are given in a match; a resigned match
    is worth the points the winner needed, so it cannot be valued without them.
    """

    def at(name: str) -> str:
        return f"{prefix}.{name}" if prefix else name

    winner = record.winner
    if isinstance(winner, bool) or winner not in (0, 1):
        raise _bad("invalid_winner", f"The winner is player 0 or 1, not {winner!r}.", at("winner"))
    try:
        ending = Ending(record.ending)
    except ValueError:
        raise _bad("invalid_ending", f"Unknown ending {record.ending!r}.", at("ending")) from None
    try:
        level = Level(record.level)
    except ValueError:
        raise _bad("invalid_level", f"Unknown level {record.level!r}.", at("level")) from None

    if ending is Ending.LATE_PENALTY:
        return _check_penalty(record, match_play=match_play, at=at)

    cube = record.cube
    if isinstance(cube, bool) or not isinstance(cube, int) or not is_power_of_two(cube):
        raise _bad(
            "cube_not_power_of_two",
            f"The cube only ever doubles (1, 2, 4, 8, ...): {cube!r} is not a cube value.",
            at("cube"),
        )
    if cube_limit is not None and cube > cube_limit:
        raise _bad(
            "cube_above_limit",
            f"The cube value {cube} is above the agreed limit of {cube_limit}.",
            at("cube"),
        )

    auto = record.automatic_doubles
    if match_play:
        if auto != 0:
            raise _bad(
                "automatic_doubles_in_match",
                "Automatic doubles do not apply in match play.",
                at("automatic_doubles"),
            )
    elif money is not None:
        check_automatic_doubles(auto, money, field=at("automatic_doubles"))
    elif auto != 0:
        raise _bad(
            "automatic_doubles_not_agreed",
            "This session did not agree automatic doubles.",
            at("automatic_doubles"),
        )
    centred_cube = 2**auto
    if cube < centred_cube:
        raise _bad(
            "cube_below_automatic_doubles",
            f"{auto} automatic doubles make the cube at least {centred_cube}, not {cube}.",
            at("cube"),
        )

    owner = record.cube_owner
    unknown = owner == UNKNOWN_OWNER
    if owner is not None and not unknown and (isinstance(owner, bool) or owner not in (0, 1)):
        raise _bad(
            "cube_owner_invalid",
            f"The cube is in the centre (None), owned by player 0 or 1, or its owner is "
            f"{UNKNOWN_OWNER!r}, not {owner!r}.",
            at("cube_owner"),
        )
    if cube == centred_cube and owner is not None:
        raise _bad(
            "cube_owner_invalid",
            f"A cube of {cube} that no one has doubled is in the centre: it has no owner.",
            at("cube_owner"),
        )
    if cube > centred_cube and owner is None:
        raise _bad(
            "cube_owner_invalid",
            f"A cube of {cube} was doubled and taken: it is owned by the player who took "
            f"it, or its owner is {UNKNOWN_OWNER!r} if the sheet did not say (for a dropped "
            f"double the cube is the value before the refused double: a first double "
            f"dropped is cube {centred_cube}).",
            at("cube_owner"),
        )

    if crawford:
        if cube > 1 or owner is not None:
            raise _bad(
                "double_in_crawford_game",
                "Crawford rule: no doubling in the Crawford game, so its cube stays at 1 "
                "in the centre.",
                at("cube" if cube > 1 else "cube_owner"),
            )
        if ending is Ending.DROPPED:
            raise _bad(
                "double_in_crawford_game",
                "Crawford rule: no doubling in the Crawford game, so no double can be dropped.",
                at("ending"),
            )

    if ending is Ending.DROPPED:
        if level is not Level.SINGLE:
            raise _bad(
                "dropped_game_is_single",
                "A dropped double ends the game single: the doubler wins the cube value "
                "before the double.",
                at("level"),
            )
        if owner is not None and not unknown and owner != winner:
            raise _bad(
                "double_by_non_owner",
                f"The winner of a dropped game made the refused double, but only the cube's "
                f"owner (player {owner}) may redouble.",
                at("cube_owner"),
            )
        if cube_limit is not None and cube * 2 > cube_limit:
            raise _bad(
                "cube_above_limit",
                f"The refused double would have taken the cube to {cube * 2}, above the "
                f"agreed limit of {cube_limit}.",
                at("cube"),
            )

    if ending is Ending.MATCH_RESIGNED:
        if not match_play or score is None or length <= 0:
            raise _bad(
                "match_resigned_outside_match",
                "Only a match can be resigned: an unlimited session (or a game on its "
                "own) has no match length to award.",
                at("ending"),
            )
        if level is not Level.SINGLE:
            raise _bad(
                "match_resigned_is_single",
                "A resigned match is recorded single: the match, not a game level, was resigned.",
                at("level"),
            )
        points = length - score[winner]
    elif money is not None:
        points = money_game_value(
            level=level,
            cube=cube,
            ending=ending,
            rules=money,
            cube_turned=cube > centred_cube,
            automatic_doubles=auto,
        )
    elif ending is Ending.DROPPED:
        points = cube
    else:
        points = cube * _level_points(level, backgammon_value)

    given = record.points
    if given is not None and (isinstance(given, bool) or given != points):
        if ending is Ending.DROPPED:
            rule = f"a dropped double scores the cube before the double, {points}"
        elif ending is Ending.MATCH_RESIGNED:
            rule = f"a resigned match gives the winner the {points} points needed"
        else:
            rule = f"cube {cube} x {level.value} is {points}"
        raise _bad(
            "points_disagree_with_cube_and_level",
            f"The points {given!r} contradict the game: {rule}.",
            at("points"),
        )
    return points


def _check_penalty(record: GameRecord, *, match_play: bool, at: Callable[[str], str]) -> int:
    """A late penalty's points: given, at least one, no cube, single, in a match."""
    if not match_play:
        raise _bad(
            "penalty_outside_match",
            "Late penalties are awarded in a match, not in an unlimited session.",
            at("ending"),
        )
    if record.cube != 1 or record.cube_owner is not None or record.automatic_doubles:
        raise _bad(
            "penalty_has_no_cube",
            "A late penalty is not a game: its cube stays at 1 in the centre.",
            at("cube"),
        )
    if Level(record.level) is not Level.SINGLE:
        raise _bad(
            "penalty_is_single", "A late penalty is recorded single: it is not a game.", at("level")
        )
    points = record.points
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise _bad(
            "penalty_points_invalid",
            f"A late penalty awards one point or more, not {points!r}.",
            at("points"),
        )
    return points


def game_points(record: GameRecord, *, backgammon_value: int = 3) -> int:
    """Points a game is worth to its winner: cube x level, or the cube for a drop.

    Checks the record on its own (no match context, so no Crawford or cube-limit
    check): fields in errors are the record's own (``cube``, ``level``, ``points``).
    Automatic doubles have no meaning here (a match never has them), so a record with
    some is refused; unlimited sessions score through :func:`record_next_game`. A
    resigned match is refused too: it is worth the points the winner needed, which
    only the match score says (:func:`record_next_game`).
    """
    if backgammon_value not in (3, 4):
        raise _bad("backgammon_value", "A backgammon counts 3 or 4.", "backgammon_value")
    return _check_record(
        record,
        cube_limit=None,
        crawford=False,
        money=None,
        match_play=True,
        backgammon_value=backgammon_value,
        prefix="",
    )
