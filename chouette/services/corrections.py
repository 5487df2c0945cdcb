"""Correcting a recorded game and undoing the last one: the session is replayed."""

from __future__ import annotations

from typing import cast

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from games.rules.errors import ConflictError, RuleViolation

from ..models import SessionEvent
from ..records import GameInput, events_from_rows, opening_lineup, record_from_input, session_rules
from ..rules import next_game, replay_session
from .common import authored, bump, check_version, lock_session, require_open, require_writer
from .recording import RecordedGame
from .replays import check_players_known, event_rows, replay_rows, store_members, store_replay


@transaction.atomic
def correct_game(
    *,
    actor: Actor,
    session_id: int,
    number: int,
    game: GameInput,
    expected_version: int | None = None,
) -> RecordedGame:
    """Replace game ``number``'s record; the ledger and rotation after it are re-derived.

    If the correction makes a later game impossible (its members no longer match the
    lineup the new rotation gives), the whole correction is refused with that rule.
    Seated players correct while the session is open; directors at any time.
    """
    session = lock_session(session_id)
    director = require_writer(actor, session)
    check_version(session, expected_version)
    if not director:
        require_open(session)
    rows = event_rows(session)
    games = [e for e in rows if e.kind == SessionEvent.Kind.GAME]
    if not 1 <= number <= len(games):
        raise RuleViolation(
            "no_such_game",
            N_(
                "The session has no game %(number)s (it has %(count)s).",
                number=number,
                count=len(games),
            ),
            "number",
        )
    target = games[number - 1]
    index = rows.index(target)
    check_players_known(game)
    record = record_from_input(game)
    before = replay_rows(session, rows[:index])
    next_game(session_rules(session), before.lineup, record)  # errors name the body's fields
    events = events_from_rows(rows)
    events[index] = record
    replay = replay_session(session_rules(session), opening_lineup(session), events)

    row = target.game
    row.winner = game.winner or ""
    row.level = game.level
    row.ending = game.ending or ""
    row.automatic_doubles = game.automatic_doubles
    row.given_partner_id = game.partner_id
    row.recorded_by = actor.user
    authored(actor, row).save()
    row.members.all().delete()
    # stored at once: no 0 → n in the audit
    # the rules' players are Hashable; ours are pks
    payouts = cast("dict[int, int]", replay.games[number - 1].score.payouts)
    store_members(row, game, payouts, actor)
    store_replay(session, event_rows(session), replay, actor)
    bump(session, actor)
    return RecordedGame(session, number)


@transaction.atomic
def undo_last_game(
    *, actor: Actor, session_id: int, number: int, expected_version: int | None = None
) -> RecordedGame:
    """Take back the last game (``number`` must be it); everything is replayed without it."""
    session = lock_session(session_id)
    director = require_writer(actor, session)
    check_version(session, expected_version)
    if not director:
        require_open(session)
    rows = event_rows(session)
    games = [e for e in rows if e.kind == SessionEvent.Kind.GAME]
    if not games:
        raise ConflictError("no_game_to_undo", N_("No game has been recorded yet."))
    if number != len(games):
        raise ConflictError(
            "only_last_game_undone",
            N_(
                "Only the last game (%(count)s) can be undone; correct game %(number)s instead.",
                count=len(games),
                number=number,
            ),
            field="number",
        )
    remaining = [e for e in rows if e is not games[-1]]
    replay = replay_rows(session, remaining)
    games[-1].delete()  # cascades to the game and its members
    store_replay(session, remaining, replay, actor)
    bump(session, actor)
    return RecordedGame(session, None)
