"""Master points of events and the club's table, derived (never stored) from results.

An event earns points once its director has set its formula and weights
(:class:`~money.models.EventMasterPoints`) and it is finished: placement points by its
finishing places, plus points for every match won (by the match's length; byes and
walkovers without a match earn nothing). The club's table sums its events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import cast

from django.db import transaction

from core.actors import Actor
from games.models import Club, Player
from games.rules.errors import RuleViolation
from money.models import EventMasterPoints
from money.rules import master_points as rules
from money.selectors import finishing_places
from money.services import require_director
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    PairingStatus,
    Tournament,
    TournamentStatus,
)


def set_master_points(
    *,
    actor: Actor,
    tournament: Tournament,
    formula: str,
    event_weight: Decimal,
    division_weight: Decimal,
) -> EventMasterPoints:
    """Award master points for this event with ``formula`` and the weights."""
    require_director(actor, tournament)
    if formula not in rules.FORMULAS:
        raise RuleViolation(
            "unknown_formula",
            f"Unknown formula {formula!r}: use {', '.join(rules.FORMULAS)}.",
            "formula",
        )
    weights = rules.Weights(Decimal(event_weight), Decimal(division_weight))
    rules.usbgf_2019_match_win(weights, 1)  # checks the weights
    with transaction.atomic():
        row, _ = EventMasterPoints.objects.select_for_update().update_or_create(
            tournament=tournament,
            defaults={
                "formula": formula,
                "event_weight": weights.event,
                "division_weight": weights.division,
            },
        )
        return row


def event_points(
    tournament: Tournament, setting: EventMasterPoints | None = None
) -> dict[int, Decimal]:
    """Each player's master points in a finished event (player id -> points)."""
    setting = setting or EventMasterPoints.objects.filter(tournament=tournament).first()
    places = finishing_places(tournament)
    if setting is None or places is None:
        return {}
    players = Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE).count()
    if players < 2:
        return {}
    wins = [
        (player, length)
        for player, length in Pairing.objects.filter(
            tournament=tournament, status=PairingStatus.PLAYED, stale=False
        )
        .exclude(match=None)
        .exclude(winner=None)
        .values_list("winner__player_id", "round__match_length")
    ]
    # players are keyed by id here: the cast states it at the boundary
    return cast(
        "dict[int, Decimal]",
        rules.award(
            setting.formula,
            rules.Weights(setting.event_weight, setting.division_weight),
            players=players,
            places=places["event"],
            match_wins=wins,
        ),
    )


@dataclass
class TableRow:
    player: Player
    points: Decimal = Decimal(0)
    events: list[tuple[Tournament, Decimal]] = field(default_factory=list)


def club_table(club: Club) -> list[TableRow]:
    """The club's master-point table: every finished event with master points, summed."""
    rows: dict[int, TableRow] = {}
    settings = EventMasterPoints.objects.filter(
        tournament__club=club, tournament__status=TournamentStatus.FINISHED
    ).select_related("tournament__club")
    per_event = [(s.tournament, event_points(s.tournament, s)) for s in settings]
    players = Player.objects.in_bulk({p for _, points in per_event for p in points})
    for tournament, points in per_event:
        for player_id, value in points.items():
            row = rows.setdefault(player_id, TableRow(player=players[player_id]))
            row.points += value
            row.events.append((tournament, value))
    return sorted(rows.values(), key=lambda r: (-r.points, r.player.display_name.lower()))
