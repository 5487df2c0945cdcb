"""What the public result pages read: the events index, a club's events by time, a
player's past results.

Published results stay findable: a finished event leaves the club page's running list
but never the site. Drafts are a director's work in progress and appear nowhere here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, IntegerField, Q, QuerySet, Value, When

from games.models import Club, Player
from tournaments.models import (
    Entry,
    EntryStatus,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.selectors import standings_table

#: Events per page of the index: a season of a busy club on two pages.
PAGE_SIZE = 25
#: Past events the club page lists before linking to the index for the rest.
CLUB_PAST = 10
#: A player's past results listed on their page (newest first).
PLAYER_PAST = 20

PUBLIC_STATUSES = (
    TournamentStatus.REGISTRATION,
    TournamentStatus.RUNNING,
    TournamentStatus.FINISHED,
)
#: The index's "when" filter: its words to the statuses they mean.
WHEN = {
    "running": (TournamentStatus.RUNNING,),
    "upcoming": (TournamentStatus.REGISTRATION,),
    "finished": (TournamentStatus.FINISHED,),
}


def public_events() -> QuerySet[Tournament]:
    """Every event a visitor may see, with its club and its number of entries."""
    return (
        Tournament.objects.filter(status__in=PUBLIC_STATUSES)
        .select_related("club")
        .annotate(entry_count=Count("entries", filter=Q(entries__status=EntryStatus.ACTIVE)))
    )


def event_index(
    *,
    query: str = "",
    club: str = "",
    format: str = "",
    when: str = "",
    year: int | None = None,
    page: Any = 1,
) -> Page:
    """One page of the events index, filtered; running events first, then upcoming,
    then finished, each newest first (an event's date, else when it was made)."""
    events = public_events()
    if query:
        events = events.filter(Q(name__icontains=query) | Q(club__name__icontains=query))
    if club:
        events = events.filter(club__slug=club)
    if format in TournamentFormat.values:
        events = events.filter(format=format)
    if when in WHEN:
        events = events.filter(status__in=WHEN[when])
    if year:
        events = events.filter(
            Q(starts_on__year=year) | Q(starts_on__isnull=True, created_at__year=year)
        )
    events = events.order_by(_status_order(), "-starts_on", "-created_at", "-id")
    return Paginator(events, PAGE_SIZE).get_page(page)


def _status_order() -> Case:
    return Case(
        When(status=TournamentStatus.RUNNING, then=Value(0)),
        When(status=TournamentStatus.REGISTRATION, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )


def index_clubs() -> list[Club]:
    """The clubs that have a public event, for the index's club filter."""
    ids = Tournament.objects.filter(status__in=PUBLIC_STATUSES).values("club_id")
    return list(Club.objects.filter(pk__in=ids).order_by("name"))


def index_years() -> list[int]:
    """The years with a public event, newest first."""
    dated = Tournament.objects.filter(status__in=PUBLIC_STATUSES)
    years = {d.year for d in dated.exclude(starts_on=None).dates("starts_on", "year")}
    years |= {d.year for d in dated.filter(starts_on=None).dates("created_at", "year")}
    return sorted(years, reverse=True)


@dataclass(frozen=True)
class ClubEvents:
    """A club's events as its page lists them."""

    running: list[Tournament]
    upcoming: list[Tournament]
    past: list[Tournament]
    more_past: bool


def club_events(club: Club) -> ClubEvents:
    """Running, upcoming and the latest finished events of a club (three queries)."""
    events = public_events().filter(club=club)
    past = list(
        events.filter(status=TournamentStatus.FINISHED).order_by("-starts_on", "-created_at")[
            : CLUB_PAST + 1
        ]
    )
    return ClubEvents(
        running=list(events.filter(status=TournamentStatus.RUNNING).order_by("-starts_on")),
        upcoming=list(
            events.filter(status=TournamentStatus.REGISTRATION).order_by("starts_on", "name")
        ),
        past=past[:CLUB_PAST],
        more_past=len(past) > CLUB_PAST,
    )


@dataclass(frozen=True)
class PastResult:
    """A player's finish in one finished event."""

    tournament: Tournament
    place: str | None  # "1", "3–4", "Consolation 1"; None when the event ranks no places
    rank: int | None  # the standings rank (Swiss and round robin)
    field_size: int
    ended: date | None


def player_results(player: Player) -> list[PastResult]:
    """The player's finished events, newest first, with their place or rank.

    Places are computed from the results, never stored (``selectors.standings_table``,
    two queries an event), so the list is capped at ``PLAYER_PAST`` events."""
    tournaments = list(
        public_events()
        .filter(
            status=TournamentStatus.FINISHED,
            pk__in=Entry.objects.filter(player=player).values("tournament_id"),
        )
        .order_by("-starts_on", "-created_at")[:PLAYER_PAST]
    )
    out = []
    for tournament in tournaments:
        table = standings_table(tournament)
        mine = next((s for s in table.rows if s.entry.player_id == player.pk), None)
        out.append(
            PastResult(
                tournament=tournament,
                place=mine.place if mine else None,
                rank=mine.row.rank if mine else None,
                field_size=getattr(tournament, "entry_count", 0),  # annotated by public_events
                ended=tournament.ends_on or tournament.starts_on,
            )
        )
    return out
