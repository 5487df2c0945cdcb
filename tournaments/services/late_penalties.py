"""Late penalties a director applies from the dashboard (the UKBGF rule).

The clock starts when the match's round was called (:class:`RoundCall`). The director
sees the time since the call and presses the late player's penalty button; this
applies what the rule says is due for that lateness (``formats.late_penalty``) minus
what was applied before for it: penalty points to the opponent through the match's
score (:func:`games.services.penalties.award_penalty_points`, a row on the score
sheet), or, beyond half the match length, the match lost by forfeit
(:func:`games.services.match_results.forfeit_match`). A :class:`LatePenalty` records who
applied what, to whom, after how many minutes.

One transaction. The match row is locked first (the one lock order: match, then
tournament), so two presses of the button at once apply the penalty once: the second
waits, then finds the points applied and has nothing left to award.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from core.actors import Actor
from core.locking import lock_row
from games.models import Match, MatchStatus
from games.rules.errors import ConflictError, RuleViolation
from games.services.match_results import forfeit_match
from games.services.penalties import award_penalty_points
from tournaments.formats.late_penalty import LatePenalty as Due
from tournaments.formats.late_penalty import minutes_since, own_call, penalty_to_apply
from tournaments.models import Entry, LatePenalty, Pairing, RoundCall, Tournament
from tournaments.selectors_calls import own_calls

from .common import require_director


def applied_points(match_id: int, late_player_id: int) -> int:
    """Penalty points already applied against ``late_player_id`` in the match (a
    penalty whose score-sheet row a director removed no longer counts)."""
    total = LatePenalty.objects.filter(
        match_id=match_id, late_player_id=late_player_id, game__isnull=False
    ).aggregate(points=Sum("points"))["points"]
    return int(total or 0)


@dataclass(frozen=True)
class PenaltyQuote:
    """What pressing the button would do now (the confirmation page shows it)."""

    pairing: Pairing
    call: RoundCall
    late: Entry
    opponent: Entry
    due: Due


def quote_late_penalty(
    *,
    actor: Actor,
    tournament: Tournament,
    match_id: int,
    late_entry_id: int,
    now: datetime | None = None,
) -> PenaltyQuote:
    """The penalty due now for ``late_entry_id`` in the event's match ``match_id``."""
    require_director(actor, tournament)
    pairing = (
        Pairing.objects.filter(tournament=tournament, match_id=match_id)
        .select_related("match", "entry1__player", "entry2__player", "round__call")
        .first()
    )
    if pairing is None or pairing.match is None:
        raise RuleViolation("match_not_found", _("That match is not one of this event's."), "match")
    call = getattr(pairing.round, "call", None)
    if call is None:
        raise ConflictError(
            "round_not_called",
            _("The round is not called yet: lateness counts from the call."),
            "match",
        )
    entries = {e.pk: e for e in (pairing.entry1, pairing.entry2) if e is not None}
    if late_entry_id not in entries or len(entries) != 2:
        raise RuleViolation(
            "entry_not_in_match", _("The late player must be one of the match's two."), "late_entry"
        )
    late = entries.pop(late_entry_id)
    opponent = next(iter(entries.values()))
    due = penalty_to_apply(
        minutes_since(
            own_call(call.called_at, own_calls([(call.pk, match_id)]).get(match_id)),
            now or timezone.now(),
        ),
        pairing.match.length,
        applied_points(match_id, late.player_id),
    )
    return PenaltyQuote(pairing=pairing, call=call, late=late, opponent=opponent, due=due)


@transaction.atomic
def apply_late_penalty(
    *,
    actor: Actor,
    tournament_id: int,
    match_id: int,
    late_entry_id: int,
    now: datetime | None = None,
) -> LatePenalty:
    """Apply the penalty due now for the late player (see the module's docstring).

    409 ``no_penalty_due`` when nothing more is due yet (under 5 minutes, or the
    points for this lateness were applied already); ``match_closed`` when the match
    is already decided.
    """
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise RuleViolation("tournament_not_found", _("There is no such tournament."), "tournament")
    require_director(actor, tournament)
    match = lock_row(Match.objects.all(), match_id, noun="match")
    if match.status in (MatchStatus.FINISHED, MatchStatus.FORFEIT, MatchStatus.VOID):
        raise ConflictError(
            "match_closed", _("The match is already decided: no penalty applies."), "match"
        )
    quote = quote_late_penalty(
        actor=actor, tournament=tournament, match_id=match_id, late_entry_id=late_entry_id, now=now
    )
    due = quote.due
    if not due.match_lost and due.points == 0:
        raise ConflictError(
            "no_penalty_due",
            _("%(minutes)d minutes since the call: no more penalty is due yet.")
            % {"minutes": due.minutes_late},
        )
    opponent_player = quote.opponent.player_id
    game = None
    if due.match_lost:
        forfeit_match(actor=actor, match_id=match_id, winner_id=opponent_player)
    else:
        _match, game = award_penalty_points(
            actor=actor, match_id=match_id, to_player_id=opponent_player, points=due.points
        )
    return LatePenalty.objects.create(
        pairing=quote.pairing,
        match_id=match_id,
        late_player_id=quote.late.player_id,
        awarded_to_id=opponent_player,
        points=0 if due.match_lost else due.points,
        match_lost=due.match_lost,
        minutes_late=due.minutes_late,
        game=game,
        applied_by=actor.user,
    )
