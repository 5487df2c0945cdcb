"""Master points of events and the club's leaderboard, derived (never stored) from results.

An event earns points once its director has set its formula and weights
(:class:`~money.models.EventMasterPoints`) and it is finished. With the USBGF formula:
placement points by its finishing places, plus points for every match won (by the
match's length; byes and walkovers without a match earn nothing). With the club's own
table (``club-table``): the higher of the place's points (by field size) and the match
wins times the points per win, with the table version the event named when it was set,
so editing the club's table (a new version) never changes an event's points.

The leaderboard sums a season's events (the calendar year, or from the club's own
season start day).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from core import access
from core.actors import Actor
from core.errors import N_, StaleVersionError
from games.models import Club, Player
from games.rules.errors import RuleViolation
from money.models import ClubMoney, ClubPointsTable, EventMasterPoints
from money.rules import club_points
from money.rules import master_points as rules
from money.rules.seasons import SeasonStart, season_bounds, season_label, season_of
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

CLUB_TABLE = "club-table"
"""The formula name of "the club's own table" (the version is stored with the event)."""
FORMULA_CHOICES = [*sorted(rules.FORMULAS), CLUB_TABLE]


def require_club_director(actor: Actor, club: Club) -> None:
    """403 for a stranger. Public so the API can refuse one before it reads the body
    (nobody learns from a 400 what they may not change); the services check again."""
    access.require_director(
        actor, club, detail="Only the club's directors manage its master-points table."
    )


def latest_club_table(club: Club) -> ClubPointsTable | None:
    """The club's current table version (None: the club has not defined one)."""
    return ClubPointsTable.objects.filter(club=club).order_by("-version").first()


def _lock_points_settings(club: Club, expected_version: int | None) -> ClubMoney:
    """The club's money row, locked, after checking the master-points version the caller
    read (``If-Match``; 412 when another director saved since)."""
    ClubMoney.objects.get_or_create(club=club)
    row = ClubMoney.objects.select_for_update().get(club=club)
    if expected_version is not None and expected_version != row.points_version:
        raise StaleVersionError(
            "stale_version",
            f"The club's master-points settings changed since you read them (your version "
            f"{expected_version}, now {row.points_version}): reload and try again.",
            field="If-Match",
        )
    return row


def points_settings_version(club: Club) -> int:
    """The current ETag value of the club's master-points settings."""
    row = ClubMoney.objects.filter(club=club).only("points_version").first()
    return row.points_version if row else 1


def save_club_table(
    *,
    actor: Actor,
    club: Club,
    per_match_won: Any,
    brackets: Sequence[Any],
    expected_version: int | None = None,
) -> ClubPointsTable:
    """Save the club's table as its next version (the same table again: no new version).

    The club's money row is locked so two directors saving at once number their
    versions one after the other, never twice the same; ``expected_version`` (the
    ``If-Match`` the caller read) refuses a save over a table it never saw.
    """
    require_club_director(actor, club)
    table = club_points.table_from_data({"per_match_won": per_match_won, "brackets": brackets})
    data = club_points.table_to_data(table)
    with transaction.atomic():
        settings = _lock_points_settings(club, expected_version)
        latest = latest_club_table(club)
        if latest is not None and latest.data == data:
            return latest
        settings.points_version += 1
        settings.save(update_fields=["points_version"])
        return ClubPointsTable.objects.create(
            club=club,
            version=(latest.version + 1) if latest else 1,
            data=data,
            created_by=actor.user,
        )


def set_season_start(
    *, actor: Actor, club: Club, month: int, day: int, expected_version: int | None = None
) -> ClubMoney:
    """The day the club's master-points seasons start (1 January: the calendar year)."""
    require_club_director(actor, club)
    SeasonStart(month, day)  # checks
    with transaction.atomic():
        row = _lock_points_settings(club, expected_version)
        if (row.season_start_month, row.season_start_day) == (month, day):
            return row
        row.season_start_month, row.season_start_day = month, day
        row.points_version += 1
        row.save()
        return row


def set_master_points(
    *,
    actor: Actor,
    tournament: Tournament,
    formula: str,
    event_weight: Decimal = Decimal(1),
    division_weight: Decimal = Decimal(1),
) -> EventMasterPoints:
    """Award master points for this event with ``formula`` and the weights.

    With ``club-table`` the event records the club's current table version; setting
    it again later picks up the club's newest version.
    """
    require_director(actor, tournament)
    if formula not in FORMULA_CHOICES:
        raise RuleViolation(
            "unknown_formula",
            N_(
                "Unknown formula %(formula)r: use %(join)s.",
                formula=formula,
                join=", ".join(FORMULA_CHOICES),
            ),
            "formula",
        )
    weights = rules.Weights(Decimal(event_weight), Decimal(division_weight))
    rules.usbgf_2019_match_win(weights, 1)  # checks the weights
    table = None
    if formula == CLUB_TABLE:
        table = latest_club_table(tournament.club)
        if table is None:
            raise RuleViolation(
                "no_club_table",
                "The club has no master-points table yet: define it first.",
                "formula",
            )
    with transaction.atomic():
        row, _ = EventMasterPoints.objects.select_for_update().update_or_create(
            tournament=tournament,
            defaults={
                "formula": formula,
                "event_weight": weights.event,
                "division_weight": weights.division,
                "club_table": table,
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
    if setting.formula == CLUB_TABLE:
        if setting.club_table is None:
            return {}
        return cast(
            "dict[int, Decimal]",
            club_points.award(
                club_points.table_from_data(setting.club_table.data),
                players=players,
                places=places["event"],
                wins=Counter(player for player, _ in wins),
            ),
        )
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


def season_start(club: Club) -> SeasonStart:
    row = ClubMoney.objects.filter(club=club).first()
    return SeasonStart(row.season_start_month, row.season_start_day) if row else SeasonStart()


def event_day(tournament: Tournament) -> date:
    """The day an event counts on for its season: its last day, else its first, else the
    day it finished."""
    if tournament.ends_on:
        return tournament.ends_on
    if tournament.starts_on:
        return tournament.starts_on
    when = tournament.finished_at or tournament.created_at
    return when.date()


@dataclass
class Season:
    """One season of the club's leaderboard (``year``: the year it starts in;
    ``has_points``: a finished event of it awards master points)."""

    year: int
    label: str
    first_day: date
    last_day: date
    has_points: bool = True


def seasons(club: Club, today: date | None = None) -> list[Season]:
    """Every season with a finished event that awards master points, and the current
    season (``today``'s) even before it has any, newest first."""
    start = season_start(club)
    years = {
        season_of(start, event_day(s.tournament))
        for s in EventMasterPoints.objects.filter(
            tournament__club=club, tournament__status=TournamentStatus.FINISHED
        ).select_related("tournament")
    }
    current = season_of(start, today or timezone.localdate())
    return [
        Season(
            year, season_label(start, year), *season_bounds(start, year), has_points=year in years
        )
        for year in sorted(years | {current}, reverse=True)
    ]


def club_table(club: Club, season: int | None = None) -> list[TableRow]:
    """The club's leaderboard: every finished event with master points (in ``season``,
    its starting year, or every season when None), summed per player, best first."""
    rows: dict[int, TableRow] = {}
    start = season_start(club)
    settings = [
        s
        for s in EventMasterPoints.objects.filter(
            tournament__club=club, tournament__status=TournamentStatus.FINISHED
        ).select_related("tournament__club", "club_table")
        if season is None or season_of(start, event_day(s.tournament)) == season
    ]
    per_event = [(s.tournament, event_points(s.tournament, s)) for s in settings]
    players = Player.objects.in_bulk({p for _, points in per_event for p in points})
    for tournament, points in per_event:
        for player_id, value in points.items():
            row = rows.setdefault(player_id, TableRow(player=players[player_id]))
            row.points += value
            row.events.append((tournament, value))
    return sorted(rows.values(), key=lambda r: (-r.points, r.player.display_name.lower()))
