"""Players joining and leaving a session between games."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.actors import Actor
from core.errors import N_
from games.models import Player
from games.rules.errors import NotAllowed, RuleViolation

from ..models import Seat, Session, SessionEvent
from ..rules import Join, Leave
from .common import (
    authored,
    bump,
    check_version,
    lock_session,
    players_of,
    require_open,
    require_writer,
)
from .replays import event_rows, next_sequence, replay_rows


@transaction.atomic
def join_session(
    *, actor: Actor, session_id: int, player: Player, expected_version: int | None = None
) -> Session:
    """A newcomer takes a seat at the bottom of the team, between games.

    Seated players and directors seat a newcomer; a club member may seat themself.
    """
    session = lock_session(session_id)
    self_join = actor.player is not None and actor.player.pk == player.pk
    if not self_join:
        require_writer(actor, session)
    elif actor.user is None:
        raise NotAllowed("login_required", N_("Log in to join a chouette."))
    check_version(session, expected_version)
    require_open(session)
    players_of(session.club, [player.pk], "player")
    rows = event_rows(session)
    try:
        replay = replay_rows(session, rows, [Join(player.pk)])
    except RuleViolation as error:
        raise RuleViolation(error.code, error.message, field="player") from None
    SessionEvent.objects.create(
        session=session,
        sequence=next_sequence(rows),
        kind=SessionEvent.Kind.JOIN,
        player=player,
        recorded_by=actor.user,
    )
    seat = session.seats.filter(player=player).first()
    if seat is None:
        authored(
            actor, Seat(session=session, player=player, join_order=session.seats.count())
        ).save()
    else:
        seat.left_at = None
        seat.joined_at = timezone.now()
        authored(actor, seat).save()
    session.lineup = list(replay.lineup.players)
    bump(session, actor)
    return session


@transaction.atomic
def leave_session(
    *, actor: Actor, session_id: int, player: Player, expected_version: int | None = None
) -> Session:
    """A player leaves between games; they keep their total and settle at the end."""
    session = lock_session(session_id)
    require_writer(actor, session)
    check_version(session, expected_version)
    require_open(session)
    rows = event_rows(session)
    try:
        replay = replay_rows(session, rows, [Leave(player.pk)])
    except RuleViolation as error:
        raise RuleViolation(error.code, error.message, field="player") from None
    SessionEvent.objects.create(
        session=session,
        sequence=next_sequence(rows),
        kind=SessionEvent.Kind.LEAVE,
        player=player,
        recorded_by=actor.user,
    )
    seat = session.seats.get(player=player)
    seat.left_at = timezone.now()
    authored(actor, seat).save()
    session.lineup = list(replay.lineup.players)
    bump(session, actor)
    return session
