"""Match scoring: game values, the Crawford game, and the end of a match.

Implements ``docs/rules.md``, "Game value", "The doubling cube", "Match play" and
"Crawford and post-Crawford games". Sources:

- the modern rules (``docs/rules.md``): single, gammon (2) and backgammon (3)
  "times the stakes"; the doubling cube (powers of two, the right to redouble "belongs
  exclusively to the player who last accepted"); the Crawford rule ("when a player
  becomes one single point short of winning the match, neither player may use the
  doubling cube for a single game"); beavers, raccoons, the Jacoby rule and automatic
  doubles are for money play, not matches.
- Thorne 1930 (*Backgammon in 20 Minutes*): a refused double ends
  the game and "all wagers must be paid", i.e. the doubler wins the stake before the
  double.
- ``docs/transcripts-format.md`` section 2: how GNU Backgammon decides the Crawford
  game from the scores alone, which this module follows exactly:
  ``crawford = !post_crawford && ((s0 == N-1) XOR (s1 == N-1))``.

Length 0 is an unlimited session (money play): it never ends, never has a Crawford
game, and scores its games with the table's :class:`~games.rules.money.MoneyRules`
when given (Jacoby, Philadelphia, automatic doubles), else plainly cube x level.

A resigned match (``Ending.MATCH_RESIGNED``: the loser resigned the match, not a game) is
recorded as its last game, worth exactly the points the winner still needed, so the
final score is N to the loser's score. Its level is single (no game level was
resigned) and its cube is the cube of the game in progress, checked like any other
(no cube in the Crawford game). Only a match can be resigned this way, never an
unlimited session. Why a game and not a flag on the match: the score stays the sum of
the games, the match ends by the one rule that ends every match (a player reaches N),
and everything that reads finished matches (ratings, brackets) needs no special case.

A late penalty (``Ending.LATE_PENALTY``, the UKBGF rule in
``tournaments.formats.late_penalty``) is recorded among the games for the same reason,
but it is not a game: it scores the points the director awarded (at least one, cube 1
in the centre, single), it is never the Crawford game and never uses it up. The game
after it is the Crawford game exactly when the scores say so (GNU Backgammon's
derivation above), so a penalty that takes a player to N-1 makes the next game the
Crawford game, and one that takes both to N-1 leaves none. Penalties exist only in a
match, never in an unlimited session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.errors import N_

from .errors import RuleViolation
from .money import MoneyRules, check_automatic_doubles, money_game_value
from .types import LEVEL_MULTIPLIER, UNKNOWN_OWNER, Ending, Level, is_power_of_two
from .variants import Variant
from .variants import for_match as get_variant
from .variants.match_play import check_game as check_variant_game

Score = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What a director sets for one match: its length, the Crawford rule, a cube limit.

    ``money`` is only for unlimited sessions (length 0), where money-play options apply;
    in a match "beavers ... [are] usually not allowed" and the Jacoby rule "is not used
    in match play", so a match refuses money rules rather than silently ignoring them.
    """

    length: int
    crawford: bool = True
    cube_limit: int | None = None
    money: MoneyRules | None = None
    #: The game played (``games.rules.variants``): its levels, cube and Crawford rule.
    variant: str = "standard"

    def __post_init__(self) -> None:
        get_variant(self.variant)  # an unknown variant is refused, naming the field
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 0:
            raise RuleViolation(
                "match_length_invalid",
                N_(
                    "A match length is a whole number of points, 0 (an unlimited session) "
                    "or more, not %(length)r.",
                    length=self.length,
                ),
                field="length",
            )
        if self.cube_limit is not None and not is_power_of_two(self.cube_limit):
            raise RuleViolation(
                "cube_limit_not_power_of_two",
                N_("The cube limit must be a power of two (1, 2, 4, 8, ...)."),
                field="cube_limit",
            )
        if self.money is not None and self.length > 0:
            raise RuleViolation(
                "money_rules_in_match",
                N_(
                    "Jacoby, beavers, raccoons and automatic doubles do not apply in "
                    "matches: money rules are for unlimited sessions (length 0)."
                ),
                field="money",
            )
        if (
            self.money is not None
            and self.cube_limit is not None
            and self.money.cube_limit not in (None, self.cube_limit)
        ):
            raise RuleViolation(
                "cube_limit_conflict",
                N_(
                    "The session's cube limit %(cube_limit)s contradicts the money rules' "
                    "limit %(cube_limit2)s.",
                    cube_limit=self.cube_limit,
                    cube_limit2=self.money.cube_limit,
                ),
                field="cube_limit",
            )

    @property
    def game(self) -> Variant:
        return get_variant(self.variant)

    @property
    def crawford_applies(self) -> bool:
        """The Crawford rule is on and the variant has it (none without a cube)."""
        return self.crawford and self.game.crawford

    @property
    def is_unlimited_session(self) -> bool:
        """Length 0: money play game by game, no end, no Crawford game, not rated."""
        return self.length == 0

    @property
    def effective_cube_limit(self) -> int | None:
        if self.cube_limit is not None:
            return self.cube_limit
        return self.money.cube_limit if self.money is not None else None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as entered: who won, the cube, how it ended, at which level.

    ``cube`` is the cube the game was played for; for a drop it is the value before the
    refused double (what the doubler wins), and a drop is always single. ``cube_owner``
    is None for a centred cube, else the player (0/1) who last accepted, or
    :data:`~games.rules.types.UNKNOWN_OWNER` for a turned cube whose owner was not
    recorded (the owner changes no score; only the checks that need it are skipped). ``points`` is
    optional; when given it must agree with cube x level. ``automatic_doubles`` (opening
    ties that doubled the cube) exist only in unlimited sessions that agreed them.
    Whether the game was the Crawford game is derived, never entered.
    """

    winner: int
    cube: int = 1
    cube_owner: int | str | None = None
    ending: Ending = Ending.PLAYED
    level: Level = Level.SINGLE
    points: int | None = None
    automatic_doubles: int = 0


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A recorded game with what the rules derived: its number, Crawford status, points."""

    number: int  # 1-based
    score_before: Score
    crawford: bool
    post_crawford: bool
    points: int
    score_after: Score
    record: GameRecord


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands after its recorded games, and what the next game will be."""

    rules: MatchRules
    games: tuple[GameOutcome, ...]
    score: Score
    winner: int | None
    finished: bool
    crawford_game: int | None  # the number of the Crawford game, if one was played
    next_game_number: int
    next_game_is_crawford: bool
    next_game_post_crawford: bool


def _bad(code: str, message: str, field: str) -> RuleViolation:
    return RuleViolation(code, message, field=field)


def _check_score(score: Score, field: str = "score") -> Score:
    """A score is two whole, non-negative numbers of points."""
    try:
        first, second = score
    except (TypeError, ValueError):
        raise _bad("invalid_score", f"A score is two numbers, not {score!r}.", field) from None
    for value in (first, second):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _bad(
                "invalid_score",
                f"A score is two whole numbers of 0 or more, not {score!r}.",
                field,
            )
    return (first, second)


def next_game_facts(rules: MatchRules, score: Score, crawford_played: bool) -> tuple[bool, bool]:
    """Whether the game starting at ``score`` is the Crawford game, or post-Crawford.

    Exactly GNU Backgammon's derivation (docs/transcripts-format.md section 2): with the rule on and
    N > 1, the first game that starts with exactly one player at N-1 is the Crawford
    game, however that player got there (single, gammon, cube); every game after it
    is post-Crawford. A game starting at (N-1, N-1) is neither; a 1-point match starts
    at (0, 0) = (N-1, N-1) and so has none; unlimited sessions and Crawford-off matches
    never have one. Returns ``(is_crawford, is_post_crawford)``.
    """
    first, second = _check_score(score)
    n = rules.length
    if not rules.crawford_applies or n <= 1:
        return (False, False)
    if crawford_played:
        return (False, True)
    return ((first == n - 1) != (second == n - 1), False)


def _winner_of(rules: MatchRules, score: Score) -> int | None:
    """The player who has reached N or more, if any (never in an unlimited session)."""
    if rules.is_unlimited_session:
        return None
    for player in (0, 1):
        if score[player] >= rules.length:
            return player
    return None


def start_match(rules: MatchRules) -> MatchState:
    """A match with no game played yet, at 0-0."""
    is_crawford, is_post = next_game_facts(rules, (0, 0), False)
    return MatchState(
        rules=rules,
        games=(),
        score=(0, 0),
        winner=None,
        finished=False,
        crawford_game=None,
        next_game_number=1,
        next_game_is_crawford=is_crawford,
        next_game_post_crawford=is_post,
    )


def resume_match(
    rules: MatchRules, *, score: Score, games_played: int, crawford_game: int | None
) -> MatchState:
    """The state after ``games_played`` games, from stored facts instead of a replay.

    Recording one more game needs only the score, how many games were played and
    whether the Crawford game was one of them, so a service that keeps those facts
    need not load every earlier game. ``games`` of the result is empty: it holds only
    what is recorded from here on.
    """
    score = _check_score(score)
    winner = _winner_of(rules, score)
    if winner is None:
        is_crawford, is_post = next_game_facts(rules, score, crawford_game is not None)
    else:
        is_crawford, is_post = False, False
    return MatchState(
        rules=rules,
        games=(),
        score=score,
        winner=winner,
        finished=winner is not None,
        crawford_game=crawford_game,
        next_game_number=games_played + 1,
        next_game_is_crawford=is_crawford,
        next_game_post_crawford=is_post,
    )


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


def record_next_game(state: MatchState, record: GameRecord) -> MatchState:
    """Validate one more game against the match so far and return the new state.

    Refuses a game after the match ended, and every impossible record (see
    ``_check_record``) with a field like ``games[3].cube`` (0-based, the index of the
    game in the match).
    """
    rules = state.rules
    index = state.next_game_number - 1
    prefix = f"games[{index}]"
    if state.finished:
        raise _bad(
            "game_after_match_end",
            f"The match ended at {state.score[0]}-{state.score[1]} when player "
            f"{state.winner} reached {rules.length}: no game can follow it.",
            prefix,
        )
    is_crawford, is_post = state.next_game_is_crawford, state.next_game_post_crawford
    penalty = record.ending == Ending.LATE_PENALTY
    if penalty:  # not a game: it neither is nor uses up the Crawford game
        is_crawford, is_post = False, False
    points = _check_record(
        record,
        cube_limit=rules.effective_cube_limit,
        crawford=is_crawford,
        money=rules.money,
        match_play=not rules.is_unlimited_session,
        backgammon_value=3,
        prefix=prefix,
        score=state.score,
        length=rules.length,
    )
    if not penalty and rules.variant != "standard":
        check_variant_game(
            rules.game,
            level=Level(record.level),
            cube=record.cube,
            cube_owner=record.cube_owner,
            ending=Ending(record.ending),
            at=prefix,
        )
    before = state.score
    after = (
        (before[0] + points, before[1]) if record.winner == 0 else (before[0], before[1] + points)
    )
    outcome = GameOutcome(
        number=index + 1,
        score_before=before,
        crawford=is_crawford,
        post_crawford=is_post,
        points=points,
        score_after=after,
        record=record,
    )
    winner = _winner_of(rules, after)
    crawford_game = outcome.number if is_crawford else state.crawford_game
    if winner is None:
        next_crawford, next_post = next_game_facts(rules, after, crawford_game is not None)
    else:
        next_crawford, next_post = False, False
    return MatchState(
        rules=rules,
        games=(*state.games, outcome),
        score=after,
        winner=winner,
        finished=winner is not None,
        crawford_game=crawford_game,
        next_game_number=index + 2,
        next_game_is_crawford=next_crawford,
        next_game_post_crawford=next_post,
    )


def replay_match(rules: MatchRules, records: Sequence[GameRecord]) -> MatchState:
    """Validate a whole match game by game and return its final state.

    The first impossible record stops the replay with its RuleViolation, so a director
    correcting a result sees which game and which field the rules refuse.
    """
    state = start_match(rules)
    for record in records:
        state = record_next_game(state, record)
    return state


def _game_values(cube_limit: int | None, most: int, top_level: int = 3) -> set[int]:
    """Every number of points one game can score in a match, up to ``most``."""
    values: set[int] = set()
    cube = 1
    while cube <= most and (cube_limit is None or cube <= cube_limit):
        values.update(cube * level for level in range(1, top_level + 1))
        cube *= 2
    return {value for value in values if value <= most}


def check_final_score(rules: MatchRules, score: Score) -> int:
    """Check a final score entered without its games (e.g. 7-4); return the winner.

    A final score has exactly one player at N or more (the match ends as soon as one
    gets there, so the score may exceed N) and the other below N. It must also be
    reachable: the last game took the winner from some score below N to the final
    score, by a number of points one game can score (cube x 1, 2 or 3, within the cube
    limit), and if that game can only have been the Crawford game (the winner at N-1,
    the loser still at 0 with Crawford on), without the cube.
    """
    first, second = _check_score(score)
    n = rules.length
    if rules.is_unlimited_session:
        raise _bad(
            "unlimited_session_has_no_final_score",
            "An unlimited session (length 0) never ends, so it has no final score.",
            "score",
        )
    if (first >= n) == (second >= n):
        who = "both players" if first >= n else "neither player"
        raise _bad(
            "final_score_needs_one_winner",
            f"In a final score of a {n}-point match exactly one player has {n} or more "
            f"points; at {first}-{second} {who} has.",
            "score",
        )
    winner = 0 if first >= n else 1
    won, lost = score[winner], score[1 - winner]
    cube_limit = rules.cube_limit if rules.game.cube else 1
    values = _game_values(cube_limit, won, max(rules.game.levels.values()))
    for before in range(n):
        last_game = won - before
        one_away = (before == n - 1) != (lost == n - 1)
        other = lost if before == n - 1 else before  # the player not at N-1
        # (N-1, x) with x >= 1 may be post-Crawford (x won the Crawford game); with
        # x = 0 the other player never won a game, so this can only be the Crawford game.
        forced_crawford = rules.crawford_applies and n > 1 and one_away and other == 0
        allowed = (
            _game_values(1, won, max(rules.game.levels.values())) if forced_crawford else values
        )
        if last_game in allowed:
            return winner
    raise _bad(
        "final_score_unreachable",
        f"No last game can take a player from below {n} to {won}: one game scores the "
        f"cube times 1, 2 or 3"
        + (f" with the cube at most {rules.cube_limit}" if rules.cube_limit else "")
        + ".",
        "score",
    )
