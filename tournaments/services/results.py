"""Results flowing in from match play, forfeits, and re-issuing a flagged pairing.

:func:`record_match_result` is the result listener registered in
:mod:`core.listeners` (``TournamentsConfig.ready()``): the match services call it,
inside the transaction that changed the match's result (holding the match's row
lock), and it takes the tournament's lock (match before tournament, the one lock
order), stores the pairing's result and re-derives the bracket, so the winner and
loser are in their next slots when that transaction commits, or nothing is. Entering
games of a match nobody has won yet is not a result and never reaches it.
"""

from __future__ import annotations

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from core.listeners import ResultChange
from games.models import Match, MatchStatus
from games.rules.errors import ConflictError, RuleViolation
from games.services import match_results
from tournaments.models import Entry, Pairing, Tournament

from .brackets import BRACKET_STAGES, sync_bracket, update_round_statuses
from .common import bump, lock_tournament, require_director
from .odds import request_odds


def record_match_result(change: ResultChange) -> None:
    """Result listener: a tournament match changed result (finished, corrected, voided)."""
    match: Match = change.match
    pairing = Pairing.objects.filter(match_id=match.pk).select_related("round__stage").first()
    if pairing is None:
        return
    tournament = lock_tournament(pairing.tournament_id)
    pairing.refresh_from_db(fields=["winner", "forfeit", "entry1", "entry2"])
    winner: Entry | None = None
    if match.status in (MatchStatus.FINISHED, MatchStatus.FORFEIT) and match.winner_id:
        winner = Entry.objects.filter(tournament=tournament, player_id=match.winner_id).first()
    pairing.winner = winner
    pairing.forfeit = match.status == MatchStatus.FORFEIT
    if pairing.round.stage.kind not in BRACKET_STAGES:
        pairing.status = "played" if winner is not None else "ready"
    pairing.save()
    if pairing.round.stage.kind in BRACKET_STAGES:
        sync_bracket(tournament)
    else:
        update_round_statuses(tournament)
    bump(tournament)
    request_odds(tournament_id=tournament.pk)


@transaction.atomic
def forfeit_pairing(*, actor: Actor, tournament_id: int, key: str, winner_entry_id: int) -> Pairing:
    """A director awards a pairing by forfeit: the opponent advances, standings say so."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    require_director(actor, tournament)
    pairing = (
        Pairing.objects.filter(tournament=tournament, key=key)
        .select_related("match", "entry1", "entry2")
        .first()
    )
    if pairing is None:
        raise RuleViolation(
            "pairing_not_found", N_("There is no pairing %(key)s.", key=key), "pairing"
        )
    if winner_entry_id not in (pairing.entry1_id, pairing.entry2_id):
        raise RuleViolation(
            "winner_not_in_pairing", N_("The winner must be one of the two entries."), "winner"
        )
    if pairing.match is None:
        raise ConflictError(
            "no_match_to_forfeit", N_("This pairing has no match (a bye or not ready yet).")
        )
    winner = pairing.entry1 if winner_entry_id == pairing.entry1_id else pairing.entry2
    assert winner is not None  # the winner is one of the pairing's entries
    match_results.forfeit_match(actor=actor, match_id=pairing.match.pk, winner_id=winner.player_id)
    pairing.refresh_from_db()
    return pairing


@transaction.atomic
def reissue_pairing(*, actor: Actor, tournament_id: int, key: str) -> Pairing:
    """For a pairing flagged after a correction: keep its old match on record, detach it,
    and let the bracket create a new match for the players who now belong there."""
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    pairing = Pairing.objects.filter(tournament=tournament, key=key).first()
    if pairing is None:
        raise RuleViolation(
            "pairing_not_found", N_("There is no pairing %(key)s.", key=key), "pairing"
        )
    if not pairing.stale:
        raise ConflictError(
            "pairing_not_stale", N_("Only a pairing flagged for review is re-issued.")
        )
    if pairing.match_id:
        pairing.replaced_matches = [*pairing.replaced_matches, pairing.match_id]
    pairing.match = None
    pairing.winner = None
    pairing.forfeit = False
    pairing.stale = False
    pairing.stale_reason = ""
    pairing.save()
    sync_bracket(tournament)
    bump(tournament)
    pairing.refresh_from_db()
    return pairing
