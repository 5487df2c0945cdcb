"""A director's corrections of a match's record: replace or remove one game (every
later game re-derived), or set the final score of a match recorded without games.
A correction that makes a later game impossible is refused whole; nothing is written.
Each write follows :mod:`~games.services.match_writes`."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.actors import Actor
from core.errors import N_
from core.listeners import Outcome
from core.locking import LockedWrite
from games.models import Confirmation, Game, Match, MatchStatus
from games.rules.errors import ConflictError, RuleViolation
from games.rules.scoring import MatchState, check_final_score, replay_match

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


def _begin_correction(
    actor: Actor, match_id: int, expected_version: int | None
) -> LockedWrite[Match, Outcome]:
    """Every correction starts alike: the match locked for a director (403 before 412),
    then refused if its state takes no corrections (see :func:`require_writable`)."""
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    require_writable(write.row, Write.CORRECT, director=True)
    return write


def _games_with(match: Match, number: int) -> list[Game]:
    """The match's games in order, read under its lock; a 4xx naming ``number`` when it
    names no game of the match (a correction must not reach past the record)."""
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
    return rows


def _store_rederived(
    write: LockedWrite[Match, Outcome], rows: list[Game], state: MatchState
) -> Match:
    """Every game correction ends alike: the rules' re-derivation of the whole record
    stored on each game and on the match (never patched), then one commit and announce."""
    rewrite_games(write.row, rows, state)
    apply_state(write.row, state)
    return write.commit(announce)


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
    write = _begin_correction(actor, match_id, expected_version)
    match = write.row
    rows = _games_with(match, number)
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
    return _store_rederived(write, rows, state)


@transaction.atomic
def remove_game(
    *, actor: Actor, match_id: int, number: int, expected_version: int | None = None
) -> Match:
    """A director voids one game; later games are renumbered and re-derived."""
    write = _begin_correction(actor, match_id, expected_version)
    match = write.row
    rows = _games_with(match, number)
    remaining = rows[: number - 1] + rows[number:]
    state = match_state(match, remaining)
    rows[number - 1].delete()
    # Renumber from the top down is unsafe with the unique constraint; shift via offsets.
    for row in remaining[number - 1 :]:
        row.number = row.number + 10000
        row.save(update_fields=["number"])
    return _store_rederived(write, remaining, state)


@transaction.atomic
def correct_final_score(
    *, actor: Actor, match_id: int, score: tuple[int, int], expected_version: int | None = None
) -> Match:
    """A director sets the final score of a match recorded without games."""
    write = _begin_correction(actor, match_id, expected_version)
    match = write.row
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
