"""Guards shared by the chouette services: locking, versions, who may act."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import access, locking
from core.actors import Actor
from core.errors import N_
from games.models import Club, Player
from games.rules.errors import ConflictError, NotAllowed, RuleViolation

from ..models import Session, SessionStatus


def lock_session(session_id: int) -> Session:
    """The session row, locked for this transaction (every write takes this lock, so two
    writes to one session run one after the other)."""
    return locking.lock_row(Session.objects.select_related("club"), session_id, noun="session")


def check_version(session: Session, expected_version: int | None) -> None:
    """Refuse a write made against a version the client no longer sees (``If-Match``)."""
    locking.check_version(session, expected_version, noun="session")


def is_director(actor: Actor, club: Club) -> bool:
    return access.actor_directs(actor, club)


def is_seated(actor: Actor, session: Session) -> bool:
    if actor.player is None:
        return False
    return session.seats.filter(player=actor.player, left_at__isnull=True).exists()


def can_record(actor: Actor, session: Session) -> bool:
    """The session's seated players and the club's directors record games."""
    return is_director(actor, session.club) or is_seated(actor, session)


def can_open(actor: Actor, club: Club) -> bool:
    """The club's directors and its members with an account may open a chouette (a
    member must then sit at the table: ``open_session`` checks the lineup)."""
    if is_director(actor, club):
        return True
    return actor.player is not None and club.memberships.filter(player=actor.player).exists()


def can_read_audit(actor: Actor, session: Session) -> bool:
    """The audit trail is for the club's directors and whoever sat at the session."""
    if is_director(actor, session.club):
        return True
    return actor.player is not None and session.seats.filter(player=actor.player).exists()


def require_writer(actor: Actor, session: Session) -> bool:
    """Seated players and directors write; returns whether the actor directs the club."""
    director = is_director(actor, session.club)
    if not director and not is_seated(actor, session):
        raise NotAllowed(
            "not_at_the_table",
            N_("Only the players seated at this chouette and the club's directors may change it."),
        )
    return director


def require_open(session: Session) -> None:
    if session.status != SessionStatus.OPEN:
        raise ConflictError(
            "session_closed",
            N_(
                "The session is closed: no more games, joins or leaves (a director may "
                "still correct a game)."
            ),
        )


def authored(actor: Actor, row: Any) -> Any:
    """Name the actor as the author of ``row``'s next history record, so the audit says
    who wrote it even outside a web request (commands, the demo, jobs)."""
    row._history_user = actor.user
    return row


def bump(session: Session, actor: Actor) -> None:
    locking.bump(authored(actor, session))


def players_of(club: Club, ids: Sequence[int], field: str) -> dict[int, Player]:
    """The players by id, each a member of the club; unknown ids named by the rule."""
    found = {p.pk: p for p in Player.objects.filter(pk__in=list(ids))}
    for index, pk in enumerate(ids):
        if pk not in found:
            raise RuleViolation(
                "unknown_player", N_("There is no player %(pk)s.", pk=pk), f"{field}[{index}]"
            )
    members = set(
        club.memberships.filter(player_id__in=list(ids)).values_list("player_id", flat=True)
    )
    for index, pk in enumerate(ids):
        if pk not in members:  # nobody is seated by being named: 403 (tenancy)
            raise NotAllowed(
                "player_not_in_club",
                N_("%(value)s is not a member of %(club)s.", value=found[pk], club=club),
                f"{field}[{index}]",
            )
    return found
