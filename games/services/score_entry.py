"""Entering a match's score: record the next game or only a final score, the
opponent's confirmation, and the author's undo of the last entry.

A participant's entry awaits the opponent's confirmation (or dispute:
:mod:`~games.services.match_disputes`); a director's entry stands confirmed. Each write
follows :mod:`~games.services.match_writes`; :func:`record_game` is the API's hot write
and reads what it needs in the locking query itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.db.models import BooleanField, FloatField, IntegerField, JSONField, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from core import compiled_writes
from core.actors import Actor
from core.compiled_queries import CompiledQuery
from core.errors import N_
from core.history import history_in_bulk
from core.listeners import Outcome
from core.locking import LockedWrite, locking_query
from core.transactions import joins_all_or_nothing
from games.models import Club, Confirmation, Game, Match, MatchStatus, Rating, RatingList
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from games.rules.scoring import check_final_score, record_next_game
from games.selectors import next_game_refusal

from .actors import participant_side
from .clock_guard import require_clock_or_override
from .match_guards import Write, require_writable, require_writer
from .match_records import (
    GAME_FIELDS,
    INDEX_TO_CUBE_OWNER,
    GameInput,
    apply_state,
    game_values,
    match_rules,
    match_state,
    record_from_input,
    state_from_rows,
)
from .match_writes import MATCH_ROWS, announce, begin_write


def _rows(directs_user: int | None) -> QuerySet[Match]:
    """:data:`~games.services.match_writes.MATCH_ROWS` with what :func:`record_game`
    needs, asked by the locking query itself instead of one query each:
    ``actor_directs`` (does user ``directs_user`` direct the match's club? None: not
    asked, the actor is an admin or has no account) and, on PostgreSQL,
    ``locked_game_rows`` (the games, as ``values(*GAME_FIELDS)``) with
    ``snapshot_version``.

    The games are read in the statement's snapshot, which predates the lock when the
    lock had to wait for another writer: then they may be the games *before* that
    writer's. Every write of a match's games bumps its version under the lock, so the
    version in the same snapshot tells: equal to the locked row's, the games are the
    locked state's; different, :func:`_locked_games` reads them again.
    """
    sql = _annotation_sql()
    rows = MATCH_ROWS.annotate(
        list_rating1=RawSQL(sql["rating"] % "player1_id", (), output_field=FloatField()),
        list_rating2=RawSQL(sql["rating"] % "player2_id", (), output_field=FloatField()),
    )
    if directs_user is not None:
        rows = rows.annotate(
            actor_directs=RawSQL(sql["directs"], (directs_user,), output_field=BooleanField())
        )
    if connection.vendor == "postgresql":
        rows = rows.annotate(
            locked_game_rows=RawSQL(sql["games"], (), output_field=JSONField()),
            snapshot_version=RawSQL(sql["version"], (), output_field=IntegerField()),
        )
    return rows


# The locking query of record_game, compiled once (core.compiled_queries: building and
# compiling it was the biggest piece of the hot write's CPU that was not SQL).
_LOCK_ASKING_DIRECTS = CompiledQuery(lambda pk, user: locking_query(_rows(user), pk), "pk", "user")
_LOCK = CompiledQuery(lambda pk: locking_query(_rows(None), pk), "pk")


def _locker(actor: Actor) -> Callable[[int], Match | None]:
    """How :func:`record_game` locks its match for ``actor`` (see :func:`_rows`)."""
    user = actor.user
    if user is not None and not actor.is_admin:
        return lambda pk: _LOCK_ASKING_DIRECTS.first(pk=pk, user=user.pk)
    return lambda pk: _LOCK.first(pk=pk)


@functools.cache
def _annotation_sql() -> dict[str, str]:
    """The locking query's four subqueries as SQL, written once.

    They were ``Subquery``/``Exists``/``JSONBAgg`` expressions, and building and
    compiling those cost about 8 ms of CPU per entry (profiled under the bench's load,
    four fifths of the locking query's compile time), more than the query's execution.
    Each reads the outer row as ``games_match`` (the table's own alias in the locking
    query) and is the SQL those expressions produced.
    """
    q = connection.ops.quote_name
    outer = q(Match._meta.db_table)
    rating, rating_list = q(Rating._meta.db_table), q(RatingList._meta.db_table)
    directors = q(Club.directors.through._meta.db_table)
    game = Game._meta
    columns = {f.attname: f.column for f in game.concrete_fields}
    pairs = ", ".join(f"'{f}', g.{q(columns[f])}" for f in GAME_FIELDS)
    return {
        # the player's rating on the match's club list (``%s``: the player column)
        "rating": (
            f"SELECT r.{q('rating')} FROM {rating} r JOIN {rating_list} l "
            f"ON l.{q('id')} = r.{q('rating_list_id')} "
            f"WHERE l.{q('club_id')} = {outer}.{q('club_id')} AND l.{q('variant')} = 'standard' "
            f"AND r.{q('player_id')} = {outer}.%s LIMIT 1"
        ),
        "directs": (
            f"EXISTS (SELECT 1 FROM {directors} d WHERE d.{q('club_id')} = "
            f"{outer}.{q('club_id')} AND d.{q('user_id')} = %s)"
        ),
        "games": (
            f"SELECT JSONB_AGG(JSONB_BUILD_OBJECT({pairs}) ORDER BY g.{q('number')}) "
            f"FROM {q(game.db_table)} g WHERE g.{q('match_id')} = {outer}.{q('id')}"
        ),
        "version": (
            f"SELECT v.{q('version')} FROM {outer} v WHERE v.{q('id')} = {outer}.{q('id')}"
        ),
    }


def _locked_games(match: Match) -> list[dict[str, Any]]:
    """The match's games (``values(*GAME_FIELDS)``, in order), read under its lock:
    those the locking query brought if they are the locked state's, else read now."""
    # both annotated by the locking query (``_rows``, PostgreSQL only), or neither
    rows: list[dict[str, Any]] | None = getattr(match, "locked_game_rows", None)
    version: int | None = getattr(match, "snapshot_version", None)
    if version is not None and version == match.version:
        return rows or []
    return list(Game.objects.filter(match_id=match.pk).order_by("number").values(*GAME_FIELDS))


@joins_all_or_nothing
def record_game(
    *,
    actor: Actor,
    match_id: int,
    game: GameInput,
    number: int | None = None,
    expected_version: int | None = None,
    clock_override_reason: str = "",
) -> Match:
    """Record the next game. ``number`` says which game the client means: if another
    entry got there first, the answer is 409 rather than a second game.

    The hot write of the API, kept to few round trips: the locking query also answers
    whether the actor directs the club and brings the games (:func:`_rows`), read
    once for the rules and for the answer (:data:`Match.game_rows`: the serializer renders from them
    instead of reading them again); the two audit rows go in one statement
    (:func:`core.history.history_in_bulk`); and inside the API's all-or-nothing
    transaction the function joins it without a savepoint."""
    write = begin_write(
        match_id,
        expected_version,
        lambda m: require_writer(actor, m, director=getattr(m, "actor_directs", None)),
        rows=_locker(actor),
    )
    match, director = write.row, write.authorized
    require_writable(match, Write.ENTER, director=director)
    refusal = next_game_refusal(match, director=director)
    if refusal is not None:
        raise refusal
    rows = _locked_games(match)
    state = state_from_rows(match, rows)
    if number is not None and number != state.next_game_number:
        raise ConflictError(
            "game_already_recorded",
            N_(
                "Game %(number)s is already recorded (the next game is "
                "%(next_game_number)s): reload the match and confirm or dispute it "
                "instead.",
                number=number,
                next_game_number=state.next_game_number,
            ),
            field="number",
        )
    record = record_from_input(match, game)
    new_state = record_next_game(state, record)  # raises the rule that forbids it
    if new_state.finished:  # the game that ends the match: a clock where one is required
        require_clock_or_override(match, director=director, reason=clock_override_reason)
    outcome = new_state.games[-1]
    with history_in_bulk():
        created = compiled_writes.insert(
            Game(
                match=match,
                number=outcome.number,
                winner=match.player_at(record.winner),
                cube=record.cube,
                cube_owner=INDEX_TO_CUBE_OWNER[record.cube_owner],
                ending=record.ending,
                level=record.level,
                points=outcome.points,
                score1_before=outcome.score_before[0],
                score2_before=outcome.score_before[1],
                crawford=outcome.crawford,
                post_crawford=outcome.post_crawford,
                entered_by=actor.player,
                entered_by_user=actor.user,
                confirmed=director,
            )
        )
        apply_state(match, new_state)
        _mark_entered(match, actor, director)
        write.commit(announce)
    match.game_rows = [*rows, game_values(created)]
    return match


def _mark_entered(match: Match, actor: Actor, director: bool) -> None:
    """A participant's entry awaits the opponent; a director's entry stands confirmed."""
    side = participant_side(actor, match)
    if director and side is None:
        if match.confirmation != Confirmation.DISPUTED:
            match.confirmation = Confirmation.CONFIRMED
            match.awaiting = None
        return
    match.confirmation = Confirmation.PENDING
    match.awaiting = match.player_at(1 - side) if side is not None else None


@transaction.atomic
def record_final_score(
    *,
    actor: Actor,
    match_id: int,
    score: tuple[int, int],
    expected_version: int | None = None,
    clock_override_reason: str = "",
) -> Match:
    """Record only the final score (clubs with paper score sheets): no game detail.
    Where a clock is required, a director's reason stands in for it
    (:mod:`~games.services.clock_guard`)."""
    write = begin_write(match_id, expected_version, lambda m: require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.ENTER, director=director)
    if match.length == 0:
        raise RuleViolation(
            "unlimited_session_has_no_final_score",
            N_("An unlimited session has no final score: record its games."),
            field="score",
        )
    if match.games.exists() or match.final_score_only:
        raise ConflictError(
            "result_already_recorded",
            N_("Games or a result are already recorded for this match; a director corrects it."),
            field="score",
        )
    winner = check_final_score(match_rules(match), (*score,))
    require_clock_or_override(match, director=director, reason=clock_override_reason)
    match.score1, match.score2 = score
    match.winner = match.player_at(winner)
    match.status = MatchStatus.FINISHED
    match.finished_at = timezone.now()
    match.final_score_only = True
    _mark_entered(match, actor, director)
    return write.commit(announce)


@transaction.atomic
def confirm_match(*, actor: Actor, match_id: int, expected_version: int | None = None) -> Match:
    """The opponent (or a director) confirms everything entered so far."""
    write = begin_write(match_id, expected_version, lambda m: require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.CONFIRM, director=director)
    if match.confirmation != Confirmation.PENDING:
        raise ConflictError(
            "nothing_to_confirm",
            N_(
                "There is nothing awaiting confirmation (the match is %(confirmation)s).",
                confirmation=match.confirmation,
            ),
        )
    if not director and match.awaiting_id != getattr(actor.player, "pk", None):
        raise NotAllowed(
            "confirm_own_entry", N_("Your opponent confirms what you entered, not you.")
        )
    match.games.filter(confirmed=False).update(confirmed=True)
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    return write.commit()


@transaction.atomic
def undo_last_game(*, actor: Actor, match_id: int, expected_version: int | None = None) -> Match:
    """The person who entered the last game takes it back, until the opponent confirms.

    A result recorded as a final score only (no games) is taken back the same way: a
    player who typed it backwards undoes it and enters it again. The author is the
    player the entry does not await; once the opponent confirms (or disputes, and a
    director rules) only a director takes it back.
    """
    write = begin_write(match_id, expected_version, lambda m: require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.UNDO, director=director)
    last = match.games.order_by("-number").first()
    if last is None and match.final_score_only:
        return _undo_final_score(write, actor, director)
    if last is None:
        raise ConflictError("no_game_to_undo", N_("No game has been recorded yet."))
    if not director:
        if last.confirmed:
            raise ConflictError(
                "game_confirmed",
                N_("Your opponent confirmed this game: ask a director to correct it."),
            )
        if last.entered_by_id != getattr(actor.player, "pk", None):
            raise NotAllowed(
                "undo_own_entry_only", N_("Only the player who entered the last game may undo it.")
            )
    last.delete()
    rows = list(match.games.order_by("number"))
    state = match_state(match, rows)
    apply_state(match, state)
    if not rows or all(g.confirmed for g in rows):
        match.confirmation = Confirmation.CONFIRMED if rows else Confirmation.NONE
        match.awaiting = None
    return write.commit(announce)


def _undo_final_score(write: LockedWrite[Match, Outcome], actor: Actor, director: bool) -> Match:
    """Take back a final score (the match row is locked by the caller's write)."""
    match = write.row
    if not director:
        if match.confirmation != Confirmation.PENDING:
            raise ConflictError(
                f"result_{match.confirmation}",
                N_(
                    "The final score is %(confirmation)s: ask a director to correct it.",
                    confirmation=match.confirmation,
                ),
            )
        side = participant_side(actor, match)
        if side is None or match.awaiting_id != match.player_at(1 - side).pk:
            raise NotAllowed(
                "undo_own_entry_only",
                N_("Only the player who entered the final score may undo it."),
            )
    match.score1 = match.score2 = 0
    match.winner = None
    match.status = MatchStatus.SCHEDULED
    match.finished_at = None
    match.final_score_only = False
    match.confirmation = Confirmation.NONE
    match.awaiting = None
    match._change_reason = "final score taken back"
    match._history_user = actor.user
    return write.commit(announce)
