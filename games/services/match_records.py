"""The rules' view of a match, and the match rows' view of the rules.

A game as a client describes it (:class:`GameInput`, :class:`GameChanges`), turned into
the pure rules' :class:`~games.rules.scoring.GameRecord`; a match's state replayed or
resumed from its stored games; and the derived facts (score, winner, status, each
game's score before and Crawford flags) copied back onto the rows. The score, winner
and status stored on a match are always re-derived from the games, never patched:
every match write goes through :func:`apply_state` and :func:`rewrite_games`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from django.utils import timezone

from core.errors import N_
from games.models import Game, Match, MatchStatus
from games.rules.errors import RuleViolation
from games.rules.scoring import GameRecord, MatchRules, MatchState, replay_match, resume_match
from games.rules.types import UNKNOWN_OWNER, Ending, Level

CUBE_OWNER_TO_INDEX = {"centre": None, "player1": 0, "player2": 1, "unknown": UNKNOWN_OWNER}


INDEX_TO_CUBE_OWNER = {None: "centre", 0: "player1", 1: "player2", UNKNOWN_OWNER: "unknown"}


def default_cube_owner(cube: int) -> str:
    """The owner of a cube nobody named: an unturned cube (1) is in the centre; a turned
    one is ``unknown`` (score sheets rarely record it, and it changes no score)."""
    return "centre" if cube == 1 else "unknown"


def dropped_double(offered: int, winner_side: int) -> tuple[int, str, str]:
    """(cube, cube owner, level) of a game ended by a dropped double, from the cube the
    player saw offered (turned to ``offered``) and the winner's side (0 or 1).

    The rules record a drop at the value before the double (the doubler wins the cube
    as it stood), owned by the doubler, the winner, once it is above 1; a drop ends the
    game single.
    """
    cube = offered // 2
    return cube, "centre" if cube == 1 else ("player1", "player2")[winner_side], "single"


@dataclass(frozen=True)
class GameInput:
    """A game as a client describes it; ``points`` optional, checked when given."""

    winner_id: int
    cube: int = 1
    cube_owner: str | None = None  # None: the default for the cube (default_cube_owner)
    ending: str = Ending.PLAYED
    level: str = Level.SINGLE
    points: int | None = None


@dataclass(frozen=True)
class GameChanges:
    """A correction naming only some fields (a PATCH): None keeps the stored value,
    except ``points``, which is re-derived unless given. Merged with the stored game
    inside :func:`~games.services.match_corrections.correct_game`, under the match's
    lock, so a correction never builds on a copy of the game another write has changed
    meanwhile."""

    winner_id: int | None = None
    cube: int | None = None
    cube_owner: str | None = None
    ending: str | None = None
    level: str | None = None
    points: int | None = None

    def merged_with(self, row: Game) -> GameInput:
        def pick(name: str, stored: object) -> object:
            value = getattr(self, name)
            return stored if value is None else value

        return GameInput(
            winner_id=pick("winner_id", row.winner_id),  # type: ignore[arg-type]
            cube=pick("cube", row.cube),  # type: ignore[arg-type]
            # a new cube without an owner takes the cube's default (None), never the
            # stored owner of the old cube
            cube_owner=(
                self.cube_owner
                if self.cube_owner is not None or self.cube is not None
                else row.cube_owner
            ),
            ending=pick("ending", row.ending),  # type: ignore[arg-type]
            level=pick("level", row.level),  # type: ignore[arg-type]
            points=self.points,
        )


def match_rules(match: Match) -> MatchRules:
    return MatchRules(
        length=match.length,
        crawford=match.crawford,
        cube_limit=match.cube_limit,
        variant=match.variant,
    )


def record_from_row(match: Match, game: Game) -> GameRecord:
    return GameRecord(
        winner=0 if game.winner_id == match.player1_id else 1,
        cube=game.cube,
        cube_owner=CUBE_OWNER_TO_INDEX[game.cube_owner],
        ending=Ending(game.ending),
        level=Level(game.level),
        points=game.points,
    )


def record_from_input(match: Match, data: GameInput, field_prefix: str = "") -> GameRecord:
    side = {match.player1_id: 0, match.player2_id: 1}.get(data.winner_id)
    if side is None:
        raise RuleViolation(
            "winner_not_in_match",
            N_("The winner must be one of the two players of this match."),
            field=f"{field_prefix}winner",
        )
    owner = data.cube_owner if data.cube_owner is not None else default_cube_owner(data.cube)
    if owner not in CUBE_OWNER_TO_INDEX:
        raise RuleViolation(
            "cube_owner_invalid",
            N_("The cube owner is 'centre', 'player1', 'player2' or 'unknown'."),
            field=f"{field_prefix}cube_owner",
        )
    return GameRecord(
        winner=side,
        cube=data.cube,
        cube_owner=CUBE_OWNER_TO_INDEX[owner],
        ending=Ending(data.ending),
        level=Level(data.level),
        points=data.points,
    )


def stored_state(match: Match) -> MatchState:
    """The state to record the next game from, read from stored facts in one query.

    Each game row keeps its derived facts (the services re-derive them on every
    correction), so the count of games and the Crawford game's number, with the
    score on the match, are all the rules need: cost does not grow with the games.
    """
    from django.db.models import Count, Max, Q

    facts = match.games.aggregate(
        played=Count("id"), crawford=Max("number", filter=Q(crawford=True))
    )
    return resume_match(
        match_rules(match),
        score=(match.score1, match.score2),
        games_played=facts["played"],
        crawford_game=facts["crawford"],
    )


#: The game fields a client is shown (``values()`` of them: no model instances).
GAME_FIELDS = (
    "number",
    "score1_before",
    "score2_before",
    "winner_id",
    "cube",
    "cube_owner",
    "ending",
    "level",
    "points",
    "crawford",
    "post_crawford",
    "confirmed",
    "entered_by_id",
)


def state_from_rows(match: Match, rows: list[dict[str, Any]]) -> MatchState:
    """:func:`stored_state` from the game rows already read (:data:`GAME_FIELDS`)."""
    return resume_match(
        match_rules(match),
        score=(match.score1, match.score2),
        games_played=len(rows),
        crawford_game=max((g["number"] for g in rows if g["crawford"]), default=None),
    )


def game_values(game: Game) -> dict[str, Any]:
    """A game just written, as ``values(*GAME_FIELDS)`` would read it back."""
    return {
        name: value.value if isinstance(value, Enum) else value
        for name in GAME_FIELDS
        for value in (getattr(game, name),)
    }


def match_state(match: Match, games: list[Game] | None = None) -> MatchState:
    """The rules' derivation of a match from its stored games."""
    rows = games if games is not None else list(match.games.order_by("number"))
    return replay_match(match_rules(match), [record_from_row(match, g) for g in rows])


def apply_state(match: Match, state: MatchState) -> None:
    """Copy the derived score, winner and status onto the match row."""
    match.score1, match.score2 = state.score
    if state.finished and state.winner is not None:
        match.winner = match.player_at(state.winner)
        match.status = MatchStatus.FINISHED
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.winner = None
        match.finished_at = None
        match.status = MatchStatus.IN_PROGRESS if state.games else MatchStatus.SCHEDULED


def rewrite_games(match: Match, rows: list[Game], state: MatchState) -> None:
    """Store every game's derived facts (score before, Crawford flags, points)."""
    changed = []
    for row, outcome in zip(rows, state.games, strict=True):
        facts = {
            "number": outcome.number,
            "score1_before": outcome.score_before[0],
            "score2_before": outcome.score_before[1],
            "crawford": outcome.crawford,
            "post_crawford": outcome.post_crawford,
            "points": outcome.points,
        }
        if any(getattr(row, key) != value for key, value in facts.items()):
            for key, value in facts.items():
                setattr(row, key, value)
            changed.append(row)
    for row in changed:  # save() keeps the audit history (bulk_update would not)
        row.save()
