"""Match scoring: game values, the Crawford game, and the end of a match.

One game's record is checked on its own in :mod:`games.rules.game_checks`; the value
types (``MatchRules``, ``GameRecord``, ``MatchState``) live in
:mod:`games.rules.match_types` and are importable from here.

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

from collections.abc import Sequence

from .game_checks import _check_record, game_points
from .match_types import GameOutcome, GameRecord, MatchRules, MatchState, Score, _bad
from .types import Ending, Level
from .variants.match_play import check_game as check_variant_game

__all__ = [
    "GameOutcome",
    "GameRecord",
    "MatchRules",
    "MatchState",
    "Score",
    "check_final_score",
    "game_points",
    "next_game_facts",
    "record_next_game",
    "replay_match",
    "resume_match",
    "start_match",
]


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
