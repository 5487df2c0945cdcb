"""The event's prize order, set from the money pages: the order its places rank and its
prizes go (``main``, ``consolation:2`` ...; ``tournaments.formats.places``).

The field is the tournament's and changes through the tournament's own service (its
lock, version and checks); this use case adds what money needs: a director may set it
until the first prize is handed over, and not after, because the places it orders are
what the pools paid."""

from __future__ import annotations

from collections.abc import Sequence

from core.actors import Actor
from core.errors import N_
from games.rules.errors import RuleViolation
from tournaments.formats.places import parse_prize_order
from tournaments.models import Tournament
from tournaments.services.events import configure_tournament

from .common import directors_only, event_money_write, refuse_after_payouts


@directors_only
def set_prize_order(
    *,
    actor: Actor,
    tournament: Tournament,
    prize_order: Sequence[str],
    expected_version: int | None = None,
) -> Tournament:
    """Set the prize order (an empty list: the default order), refused once payouts start."""
    if isinstance(prize_order, str) or not all(isinstance(t, str) for t in prize_order):
        raise RuleViolation("bad_prize_order", N_("The prize order is a list."), "prize_order")
    steps = [t.strip() for t in prize_order if t.strip()]
    parse_prize_order(steps)  # raises a FormatError naming the bad step and the field
    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        refuse_after_payouts(event, "prize_order")
        changed = configure_tournament(actor=actor, tournament_id=tournament.pk, prize_order=steps)
        tournament.prize_order = changed.prize_order
        tournament.version = changed.version
        return changed
