"""Disputes: the opponent objects to an entry awaiting their confirmation, and a
director of the club rules on it (keep, corrected, or void), with a note the players
see. Each write follows :mod:`~games.services.match_writes`."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.actors import Actor
from core.errors import N_
from core.events import emit
from games import events
from games.models import Confirmation, Dispute, Match, MatchStatus
from games.rules.errors import ConflictError, NotAllowed, RuleViolation

from .actors import participant_side
from .match_guards import Write, require_match_director, require_writable, require_writer
from .match_writes import announce, begin_write


@transaction.atomic
def dispute_match(
    *, actor: Actor, match_id: int, reason: str, expected_version: int | None = None
) -> Dispute:
    """The opponent objects to what was entered; the club's directors are asked to rule."""
    write = begin_write(match_id, expected_version, lambda m: require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.DISPUTE, director=director)
    side = participant_side(actor, match)
    if side is None:
        raise NotAllowed("participants_only", N_("Only a player of the match raises a dispute."))
    assert actor.player is not None  # a side means a player of the match
    if match.confirmation != Confirmation.PENDING or match.awaiting_id != actor.player.pk:
        raise ConflictError(
            "nothing_to_dispute", N_("Only an entry awaiting your confirmation can be disputed.")
        )
    if not reason.strip():
        raise RuleViolation("reason_required", N_("Say what is wrong with the entry."), "reason")
    match.confirmation = Confirmation.DISPUTED
    match.awaiting = None
    write.commit()
    dispute = Dispute.objects.create(match=match, raised_by=actor.player, reason=reason.strip())
    emit(events.MATCH_DISPUTED, match_id=match.pk, club_id=match.club_id, dispute_id=dispute.pk)
    return dispute


@transaction.atomic
def resolve_dispute(
    *,
    actor: Actor,
    match_id: int,
    resolution: str,
    decision: str = Dispute.Decision.KEEP,
    expected_version: int | None = None,
) -> Match:
    """A director closes the open dispute with a decision and a note the players see.

    ``keep``: the result stands as entered (and is confirmed). ``corrected``: the
    director has corrected the games first (the correction services), and the result
    stands as it now is. ``void``: the match is voided in the same transaction, so a
    void and its reason cannot come apart. The decision defaults to ``keep``, which is
    what resolving meant before decisions were recorded.
    """
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    require_writable(match, Write.RESOLVE, director=True)
    if decision not in Dispute.Decision.values:
        raise RuleViolation(
            "unknown_decision",
            N_("The decision is one of %(join)s.", join=", ".join(Dispute.Decision.values)),
            "decision",
        )
    if not resolution.strip():
        raise RuleViolation(
            "note_required",
            N_("Write a note for the players: what you decided and why."),
            "resolution",
        )
    open_disputes = match.disputes.filter(status=Dispute.Status.OPEN)
    if not open_disputes.exists():
        raise ConflictError("no_open_dispute", N_("This match has no open dispute."))
    if decision == Dispute.Decision.VOID and match.status in (
        MatchStatus.VOID,
        MatchStatus.FORFEIT,
    ):
        raise ConflictError(
            "match_closed",
            N_("The match is already %(status)s: keep it as it stands.", status=match.status),
        )
    # Each dispute is saved (not a queryset update) so its history records the ruling
    # for the audit trail.
    for dispute in open_disputes:
        dispute.status = Dispute.Status.RESOLVED
        dispute.decision = decision
        dispute.resolution = resolution.strip()
        dispute.resolved_by = actor.user
        dispute.resolved_at = timezone.now()
        dispute.save()
    match.games.filter(confirmed=False).update(confirmed=True)
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    if decision == Dispute.Decision.VOID:
        match.status = MatchStatus.VOID
        match.winner = None
        return write.commit(announce)
    return write.commit()
