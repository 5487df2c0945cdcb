"""Recording the next game of a session."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from games.rules.errors import ConflictError

from ..models import Session, SessionEvent
from ..records import GameInput, record_from_input, session_rules
from ..rules import Ledger, Lineup, next_game
from .common import bump, check_version, lock_session, require_open, require_writer
from .replays import check_players_known, create_game_rows


@dataclass(frozen=True)
class RecordedGame:
    """A write's answer: the session after it and the game it recorded or corrected."""

    session: Session
    number: int | None


@transaction.atomic
def record_game(
    *,
    actor: Actor,
    session_id: int,
    game: GameInput,
    number: int | None = None,
    expected_version: int | None = None,
) -> RecordedGame:
    """Record the next game. ``number`` says which game the client means: if another
    entry got there first, the answer is 409 rather than a second game."""
    session = lock_session(session_id)
    require_writer(actor, session)
    check_version(session, expected_version)
    require_open(session)
    # The stored lineup was derived by the replay of the last write, so the next game
    # is scored against it directly: a write costs the same at game 5 and game 500.
    next_number = session.games.count() + 1
    if number is not None and number != next_number:
        raise ConflictError(
            "game_already_recorded",
            N_(
                "Game %(number)s is already recorded (the next game is "
                "%(next_number)s): reload the sheet.",
                number=number,
                next_number=next_number,
            ),
            field="number",
        )
    check_players_known(game)
    record = record_from_input(game)
    lineup = Lineup.from_order(session.lineup)
    score, after = next_game(session_rules(session), lineup, record)
    Ledger().record(score.payouts)  # refuses a game that does not sum to zero
    last = session.events.order_by("-sequence").values_list("sequence", flat=True).first()
    event = SessionEvent.objects.create(
        session=session,
        sequence=(last or 0) + 1,
        kind=SessionEvent.Kind.GAME,
        recorded_by=actor.user,
    )
    create_game_rows(
        session=session,
        event=event,
        game=game,
        number=next_number,
        lineup=lineup,
        score=score,
        actor=actor,
    )
    session.lineup = list(after.players)
    bump(session, actor)
    return RecordedGame(session, next_number)
