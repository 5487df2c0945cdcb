"""A director's corrections of a match's record: replace or remove one game (every
later game re-derived), or set the final score of a match recorded without games.
A correction that makes a later game impossible is refused whole; nothing is written.
Each write follows :mod:`~games.services.match_writes`."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.actors import Actor
from core.errors import N_
from games.models import Confirmation, Match, MatchStatus
from games.rules.errors import ConflictError, RuleViolation
from games.rules.scoring import check_final_score, replay_match

from .match_guards import Write, require_match_director, require_writable
from .match_records import (
    INDEX_TO_CUBE_OWNER,
    GameChanges,
    GameInput,
    apply_state,
    match_rules,
    match_state,
    record_from_input,
    record_from_row,
    rewrite_games,
)
from .match_writes import announce, begin_write


@transaction.atomic
def correct_game(
    *,
    actor: Actor,
    match_id: int,
    number: int,
    game: GameInput | GameChanges,
    expected_version: int | None = None,
) -> Match:
    """A director replaces game ``number`` (or, with :class:`GameChanges`, some of its
    fields, merged here under the lock); every later game is re-derived from it.

    If the correction makes a later game impossible (the match would have ended
    earlier, or a later game would become the Crawford game with a double in it),
    the whole correction is refused with that rule; nothing is written.
    """
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.CORRECT, director=True)
    rows = list(match.games.order_by("number"))
    if not 1 <= number <= len(rows):
        raise RuleViolation(
            "no_such_game",
            N_(
                "The match has no game %(number)s (it has %(count)s).",
                number=number,
                count=len(rows),
            ),
            "number",
        )
    if isinstance(game, GameChanges):
        game = game.merged_with(rows[number - 1])
    records = [record_from_row(match, g) for g in rows]
    records[number - 1] = record_from_input(match, game)
    state = replay_match(match_rules(match), records)
    row = rows[number - 1]
    record = records[number - 1]
    row.winner = match.player_at(record.winner)
    row.cube = record.cube
    row.cube_owner = INDEX_TO_CUBE_OWNER[record.cube_owner]
    row.ending = record.ending
    row.level = record.level
    row.points = state.games[number - 1].points
    row.confirmed = True
    row.save()
    rewrite_games(match, rows, state)
    apply_state(match, state)
    return write.commit(announce)


@transaction.atomic
def remove_game(
    *, actor: Actor, match_id: int, number: int, expected_version: int | None = None
) -> Match:
    """A director voids one game; later games are renumbered and re-derived."""
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.CORRECT, director=True)
    rows = list(match.games.order_by("number"))
    if not 1 <= number <= len(rows):
        raise RuleViolation(
            "no_such_game",
            N_(
                "The match has no game %(number)s (it has %(count)s).",
                number=number,
                count=len(rows),
            ),
            "number",
        )
    remaining = rows[: number - 1] + rows[number:]
    state = match_state(match, remaining)
    rows[number - 1].delete()
    # Renumber from the top down is unsafe with the unique constraint; shift via offsets.
    for row in remaining[number - 1 :]:
        row.number = row.number + 10000
        row.save(update_fields=["number"])
    rewrite_games(match, remaining, state)
    apply_state(match, state)
    return write.commit(announce)


@transaction.atomic
def correct_final_score(
    *, actor: Actor, match_id: int, score: tuple[int, int], expected_version: int | None = None
) -> Match:
    """A director sets the final score of a match recorded without games."""
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.CORRECT, director=True)
    if match.games.exists():
        raise ConflictError(
            "match_has_games", N_("This match has game records: correct the games instead.")
        )
    winner = check_final_score(match_rules(match), (*score,))
    match.score1, match.score2 = score
    match.winner = match.player_at(winner)
    match.status = MatchStatus.FINISHED
    match.final_score_only = True
    match.finished_at = match.finished_at or timezone.now()
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    return write.commit(announce)
