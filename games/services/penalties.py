"""Penalty points a director awards in a match (a player's lateness, the UKBGF rule).

Why here and not in :mod:`games.services.score_entry`: a penalty is its own use case with
its own rule (only the club's directors award it, to one player, a whole number of
points), written through the same locked write as every match service. It is recorded
as a scored entry among the games (``Ending.LATE_PENALTY``), so the score stays the sum
of the games and the score sheet lists it where it happened; the pure rules decide
what it does to the Crawford game (``games.rules.scoring``: it neither is nor uses up
the Crawford game). A penalty that takes a player to the match length ends the match
like any game would, and the result listeners run (a tournament's bracket advances).

Losing the match outright for lateness is not a penalty of points but a forfeit: the
caller uses :func:`games.services.match_results.forfeit_match`.
"""

from __future__ import annotations

from django.db import transaction

from core.actors import Actor
from games.models import Game, Match
from games.rules.errors import RuleViolation
from games.rules.scoring import GameRecord, record_next_game
from games.rules.types import Ending, Level

from .match_guards import Write, require_match_director, require_writable
from .match_records import INDEX_TO_CUBE_OWNER, apply_state, stored_state
from .match_writes import announce, begin_write


@transaction.atomic
def award_penalty_points(
    *,
    actor: Actor,
    match_id: int,
    to_player_id: int,
    points: int,
    expected_version: int | None = None,
) -> tuple[Match, Game]:
    """Award ``points`` penalty points to ``to_player_id`` (one of the two players).

    Directors only; refused on a closed match (confirmed, void, forfeit) and after the
    match ended (``game_after_match_end``), with the rule that forbids it. Returns the
    match (score, status re-derived) and the penalty's row on the score sheet.
    """
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.CORRECT, director=True)
    side = {match.player1_id: 0, match.player2_id: 1}.get(to_player_id)
    if side is None:
        raise RuleViolation(
            "player_not_in_match", "Penalty points go to one of the match's two players.", "player"
        )
    state = stored_state(match)
    record = GameRecord(winner=side, ending=Ending.LATE_PENALTY, level=Level.SINGLE, points=points)
    new_state = record_next_game(state, record)  # the rules refuse a penalty after the end
    outcome = new_state.games[-1]
    row = Game.objects.create(
        match=match,
        number=outcome.number,
        winner=match.player_at(side),
        cube=1,
        cube_owner=INDEX_TO_CUBE_OWNER[None],
        ending=Ending.LATE_PENALTY,
        level=Level.SINGLE,
        points=outcome.points,
        score1_before=outcome.score_before[0],
        score2_before=outcome.score_before[1],
        crawford=False,
        post_crawford=False,
        entered_by=None,
        entered_by_user=actor.user,
        confirmed=True,
    )
    apply_state(match, new_state)
    match._change_reason = f"late penalty: {outcome.points} to {match.player_at(side)}"
    match._history_user = actor.user
    return write.commit(announce), row
