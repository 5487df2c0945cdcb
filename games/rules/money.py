"""Money-play rule sets, the value of a money game, and the cube actions of one game.

Implements ``docs/rules.md``, "Game value", "The doubling cube" and the money-play
sections. Sources:

- the modern rules (``docs/rules.md``): the doubling cube (only the player who
  last accepted may redouble), beavers (the taker "immediately redouble[s] ... while
  retaining the cube"), raccoons ("A player who accepts a beaver may offer a raccoon"),
  the Jacoby rule (gammons count only "if there has been at least one use of the
  doubling cube"), automatic doubles ("The doubling cube stays in the middle ... The
  Jacoby Rule is still in effect", so an automatic double is not a use of the cube).
- Thorne 1930 (*Backgammon in 20 Minutes*): scoring multiplies the
  doubles made in play by the gammon (x2) and backgammon (x3) "automatic" doubles;
  the Philadelphia method counts "only doubles made in play", so gammons and
  backgammons count single, and (our reading, see ``money_game_value``) automatic
  doubles from opening ties, which are not made in play, do not count either.
- ``docs/rules/hoyle-modernized-backgammon.txt``: a backgammon counts three or four, as agreed.

Used by unlimited sessions and by the chouette (per member's cube).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.errors import N_

from .errors import RuleViolation
from .types import LEVEL_MULTIPLIER, Ending, Level, is_power_of_two


@dataclass(frozen=True, slots=True)
class MoneyRules:
    """The options a table agrees before money play. Defaults are the modern common game."""

    jacoby: bool = True
    beavers: bool = True
    raccoons: bool = False
    automatic_doubles: bool = False
    automatic_double_limit: int = 1  # how many automatic doubles at most (cube 2**limit)
    philadelphia: bool = False
    backgammon_value: int = 3  # 3, or 4 by agreement
    cube_limit: int | None = None  # highest cube value allowed, None = no limit

    def __post_init__(self) -> None:
        if self.backgammon_value not in (3, 4):
            raise RuleViolation(
                "backgammon_value", N_("A backgammon counts 3 or 4."), field="backgammon_value"
            )
        if self.cube_limit is not None and not is_power_of_two(self.cube_limit):
            raise RuleViolation(
                "cube_limit_not_power_of_two",
                N_("The cube limit must be a power of two (1, 2, 4, 8, ...)."),
                field="cube_limit",
            )
        if self.automatic_double_limit < 0:
            raise RuleViolation(
                "automatic_double_limit",
                N_("The automatic double limit cannot be negative."),
                field="automatic_double_limit",
            )
        if self.raccoons and not self.beavers:
            raise RuleViolation(
                "raccoon_without_beaver",
                N_("A raccoon answers a beaver: raccoons need beavers allowed."),
                field="raccoons",
            )


def level_multiplier(level: Level, rules: MoneyRules, *, cube_turned: bool) -> int:
    """How many times the cube a game at ``level`` is worth under ``rules``.

    The Jacoby rule and the Philadelphia method both make gammons and backgammons
    count single: Jacoby only while the cube has not been turned, Philadelphia always.
    """
    level = Level(level)
    if rules.philadelphia:
        return 1
    if rules.jacoby and not cube_turned:
        return 1
    if level is Level.BACKGAMMON:
        return rules.backgammon_value
    return LEVEL_MULTIPLIER[level]


def check_cube(cube: int, rules: MoneyRules, *, field: str = "cube") -> None:
    """Refuse a cube that is not a power of two or above the agreed limit."""
    if isinstance(cube, bool) or not isinstance(cube, int) or not is_power_of_two(cube):
        raise RuleViolation(
            "cube_not_power_of_two",
            N_("The cube value %(cube)r is not a power of two (1, 2, 4, 8, ...).", cube=cube),
            field=field,
        )
    if rules.cube_limit is not None and cube > rules.cube_limit:
        raise RuleViolation(
            "cube_above_limit",
            N_(
                "The cube value %(cube)s is above the agreed limit of %(cube_limit)s.",
                cube=cube,
                cube_limit=rules.cube_limit,
            ),
            field=field,
        )


def check_automatic_doubles(
    count: int, rules: MoneyRules, *, field: str = "automatic_doubles"
) -> None:
    """Refuse automatic doubles the table did not agree, or more than the agreed limit.

    Automatic doubles are a house option ("Sometimes automatic doubles are used"), and
    the table agrees how many opening ties may double the cube (often one).
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RuleViolation(
            "automatic_doubles_invalid",
            N_("The number of automatic doubles must be 0 or more, not %(count)r.", count=count),
            field=field,
        )
    if count and not rules.automatic_doubles:
        raise RuleViolation(
            "automatic_doubles_not_agreed",
            N_(
                "Automatic doubles were not agreed for this table: an opening tie does "
                "not double the cube."
            ),
            field=field,
        )
    if count > rules.automatic_double_limit:
        raise RuleViolation(
            "automatic_doubles_above_limit",
            N_(
                "%(count)s automatic doubles is more than the agreed limit of "
                "%(automatic_double_limit)s.",
                count=count,
                automatic_double_limit=rules.automatic_double_limit,
            ),
            field=field,
        )


def _exponent(cube: int) -> int:
    """The number of doublings behind a cube value (cube = 2**exponent)."""
    return cube.bit_length() - 1


def money_game_value(
    *,
    level: Level,
    cube: int,
    ending: Ending,
    rules: MoneyRules,
    cube_turned: bool | None = None,
    automatic_doubles: int | None = None,
) -> int:
    """Points a money game is worth to its winner.

    ``cube`` is the cube the game was played for, automatic doubles included (for a
    drop, the value before the refused double). ``cube_turned`` says whether a double
    made in play raised that cube; ``automatic_doubles`` how many opening ties doubled
    it. Either may be left out:

    - both left out: a cube above 1 counts as turned (no automatic doubles);
    - ``cube_turned=False`` alone: the whole cube came from automatic doubles (nothing
      else raises a cube without turning it), which must then be agreed and within
      the limit;
    - ``automatic_doubles`` given: the cube is turned iff it is above ``2**automatic_doubles``;
      a ``cube_turned`` that contradicts it is refused.

    Why the split matters: automatic doubles raise the stake but leave the cube in the
    middle, so the Jacoby rule still applies (gammons count single until a double is
    made in play); and the Philadelphia method counts "only doubles made in play", so
    the stake is the cube without its automatic doubles, and gammons count single.
    """
    check_cube(cube, rules)
    try:
        level = Level(level)
    except ValueError:
        raise RuleViolation(
            "invalid_level", N_("Unknown level %(level)r.", level=level), field="level"
        ) from None
    try:
        ending = Ending(ending)
    except ValueError:
        raise RuleViolation(
            "invalid_ending", N_("Unknown ending %(ending)r.", ending=ending), field="ending"
        ) from None

    if automatic_doubles is not None:
        check_automatic_doubles(automatic_doubles, rules)
        if cube < 2**automatic_doubles:
            raise RuleViolation(
                "cube_below_automatic_doubles",
                N_(
                    "%(automatic_doubles)s automatic doubles make the cube at least "
                    "%(value)s, not %(cube)s.",
                    automatic_doubles=automatic_doubles,
                    value=2**automatic_doubles,
                    cube=cube,
                ),
                field="cube",
            )
        auto = automatic_doubles
    elif cube_turned is False and cube > 1:
        auto = _exponent(cube)
        try:
            check_automatic_doubles(auto, rules)
        except RuleViolation as error:
            raise RuleViolation(
                "cube_raised_without_double",
                N_(
                    "A cube of %(cube)s with no double made in play needs %(auto)s "
                    "automatic doubles: %(message)s",
                    cube=cube,
                    auto=auto,
                    message=error.message,
                ),
                field="cube_turned",
            ) from None
    else:
        auto = 0

    in_play_cube = cube >> auto  # the cube as raised by doubles made in play only
    turned = in_play_cube > 1
    # For a drop the refused double was itself made in play; a caller counting it as a
    # turn is not contradicting anything, since a drop always scores single.
    counted_refused_double = ending is Ending.DROPPED and cube_turned is True
    if cube_turned is not None and cube_turned != turned and not counted_refused_double:
        raise RuleViolation(
            "cube_turned_disagrees_with_cube",
            N_(
                "A cube of %(cube)s with %(auto)s automatic doubles %(value)s turned in play.",
                cube=cube,
                auto=auto,
                value="was" if turned else "was not",
            ),
            field="cube_turned",
        )
    stake_cube = in_play_cube if rules.philadelphia else cube

    if ending is Ending.DROPPED:
        if level is not Level.SINGLE:
            raise RuleViolation(
                "dropped_game_is_single",
                N_("A dropped double always scores single: the doubler wins the cube value."),
                field="level",
            )
        return stake_cube
    return stake_cube * level_multiplier(level, rules, cube_turned=turned)


class CubeAction(StrEnum):
    """One step in the life of a game's cube (docs/rules.md, "The doubling cube")."""

    AUTOMATIC = "automatic"  # an opening tie doubled the cube, which stays in the middle
    DOUBLE = "double"  # a player offers to double (the first, or the owner's redouble)
    TAKE = "take"  # the opponent accepts and owns the cube
    DROP = "drop"  # the opponent refuses: the game ends at the cube before the double
    BEAVER = "beaver"  # the opponent takes, immediately redoubles and keeps the cube
    RACCOON = "raccoon"  # the original doubler redoubles the beaver and keeps the cube


@dataclass(frozen=True, slots=True)
class CubeEvent:
    """A cube action by a player (0 or 1).

    ``player`` is required for a double; for the answers it may be left out (it is
    implied: the receiver takes, drops or beavers, the doubler raccoons) and, when
    given, must be that player. Automatic doubles belong to no one.
    """

    action: CubeAction
    player: int | None = None


@dataclass(frozen=True, slots=True)
class CubeHistory:
    """Where a valid sequence of cube actions leaves the game.

    ``cube`` is what the game is played for (for a drop, the value before the refused
    double, which is what the doubler wins); ``owner`` None is the centred cube;
    ``turned`` whether a double made in play was accepted (the Jacoby condition).
    """

    cube: int = 1
    owner: int | None = None
    automatic_doubles: int = 0
    turned: bool = False
    dropped_by: int | None = None  # the player who refused a double; the other wins

    @property
    def dropped(self) -> bool:
        return self.dropped_by is not None


def check_cube_actions(
    actions: Sequence[CubeEvent], rules: MoneyRules, *, field: str = "actions"
) -> CubeHistory:
    """Validate the cube actions of one money game in order and return where they lead.

    The rules checked, each with its own code:

    - automatic doubles only at the start, only if agreed, at most the agreed number;
    - the first double by either player, then only by the player holding the cube
      (who last accepted, beavered or raccooned);
    - every double is answered (take, drop or, if agreed, beaver) by the other player
      before anything else happens; a raccoon only immediately after a beaver, by the
      original doubler, if agreed;
    - no cube above the agreed limit; nothing after a drop ends the game.
    """
    cube = 1
    owner: int | None = None
    automatic = 0
    turned = False
    dropped_by: int | None = None
    pending: int | None = None  # the doubler whose double awaits an answer
    beaver_by: int | None = None  # set right after a beaver: a raccoon may follow

    def raise_cube(new: int, where: str) -> int:
        if rules.cube_limit is not None and new > rules.cube_limit:
            raise RuleViolation(
                "cube_above_limit",
                N_(
                    "This would take the cube to %(new)s, above the agreed limit of "
                    "%(cube_limit)s.",
                    new=new,
                    cube_limit=rules.cube_limit,
                ),
                field=where,
            )
        return new

    for index, event in enumerate(actions):
        where = f"{field}[{index}]"
        try:
            action = CubeAction(event.action)
        except ValueError:
            raise RuleViolation(
                "invalid_cube_action",
                N_("Unknown cube action %(action)r.", action=event.action),
                field=where,
            ) from None
        player = event.player
        if player is not None and player not in (0, 1):
            raise RuleViolation(
                "invalid_player",
                N_("A player is 0 or 1, not %(player)r.", player=player),
                field=where,
            )
        if dropped_by is not None:
            raise RuleViolation(
                "cube_action_after_drop",
                N_("A dropped double ends the game: no cube action can follow it."),
                field=where,
            )
        after_beaver, beaver_by = beaver_by, None

        if action is CubeAction.AUTOMATIC:
            if index != automatic:
                raise RuleViolation(
                    "automatic_double_after_play",
                    N_(
                        "Automatic doubles come from ties of the opening roll, before any "
                        "double is offered."
                    ),
                    field=where,
                )
            if player is not None:
                raise RuleViolation(
                    "invalid_player",
                    N_("An automatic double belongs to no player: the cube stays in the middle."),
                    field=where,
                )
            automatic += 1
            check_automatic_doubles(automatic, rules, field=where)
            cube = raise_cube(cube * 2, where)
            continue

        if action is CubeAction.DOUBLE:
            if pending is not None:
                raise RuleViolation(
                    "double_not_answered",
                    N_("The previous double must be taken, dropped or beavered first."),
                    field=where,
                )
            if player is None:
                raise RuleViolation(
                    "invalid_player", N_("Say which player (0 or 1) doubles."), field=where
                )
            if owner is not None and owner != player:
                raise RuleViolation(
                    "double_by_non_owner",
                    N_(
                        "Only the player holding the cube (player %(owner)s) may redouble.",
                        owner=owner,
                    ),
                    field=where,
                )
            raise_cube(cube * 2, where)
            pending = player
            continue

        if action is CubeAction.RACCOON:
            if after_beaver is None:
                raise RuleViolation(
                    "raccoon_without_beaver",
                    N_("A raccoon is the original doubler's immediate redouble of a beaver."),
                    field=where,
                )
            if not rules.raccoons:
                raise RuleViolation(
                    "raccoons_not_agreed",
                    N_("Raccoons were not agreed for this table."),
                    field=where,
                )
            doubler = 1 - after_beaver
            if player is not None and player != doubler:
                raise RuleViolation(
                    "raccoon_by_wrong_player",
                    N_(
                        "Only the original doubler (player %(doubler)s) may raccoon.",
                        doubler=doubler,
                    ),
                    field=where,
                )
            cube = raise_cube(cube * 2, where)
            owner = doubler
            continue

        # TAKE, DROP, BEAVER answer the pending double.
        if pending is None:
            raise RuleViolation(
                "answer_without_double",
                N_("A %(value)s answers a double, and none is offered.", value=action.value),
                field=where,
            )
        receiver = 1 - pending
        if player is not None and player != receiver:
            raise RuleViolation(
                "answer_by_doubler",
                N_(
                    "Only the player offered the double (player %(receiver)s) may answer it.",
                    receiver=receiver,
                ),
                field=where,
            )
        if action is CubeAction.DROP:
            dropped_by = receiver
        elif action is CubeAction.TAKE:
            cube, owner, turned = cube * 2, receiver, True
        else:  # BEAVER
            if not rules.beavers:
                raise RuleViolation(
                    "beavers_not_agreed", N_("Beavers were not agreed for this table."), field=where
                )
            cube, owner, turned = raise_cube(cube * 4, where), receiver, True
            beaver_by = receiver
        pending = None

    if pending is not None:
        raise RuleViolation(
            "double_not_answered",
            N_("The last double was neither taken, dropped nor beavered."),
            field=field,
        )
    return CubeHistory(
        cube=cube, owner=owner, automatic_doubles=automatic, turned=turned, dropped_by=dropped_by
    )
