"""Master points: an event's formula and points, the club's own versioned table, its
season start and the leaderboard by season."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from core import api_headers
from games.models import Club, Player
from games.rules.errors import RuleViolation
from money import master_points
from money.models import EventMasterPoints
from tournaments.models import Tournament

from . import shapes
from .common import MoneyAPIView, get_tournament
from .serializers import ClubPointsTableInput, MasterPointsInput, SeasonInput
from .writing import Family, endpoint


def event_points_response(request: Request, tournament: Tournament) -> Response:
    """How the event awards master points and each player's points."""
    setting = (
        EventMasterPoints.objects.filter(tournament=tournament).select_related("club_table").first()
    )
    points = master_points.event_points(tournament, setting)
    names = dict(Player.objects.filter(pk__in=points).values_list("pk", "display_name"))
    return Response(
        {
            "formula": setting.formula if setting else None,
            "club_table_version": (
                setting.club_table.version if setting and setting.club_table else None
            ),
            "event_weight": str(setting.event_weight) if setting else None,
            "division_weight": str(setting.division_weight) if setting else None,
            "points": [
                {"player": pk, "name": names[pk], "points": str(value)}
                for pk, value in sorted(points.items(), key=lambda item: -item[1])
            ],
        }
    )


EVENT_POINTS: Family[Tournament] = Family(
    load=get_tournament,
    keyword="tournament",
    noun=None,
    answer=event_points_response,
    shape=shapes.EventMasterPointsSerializer,
)
"""An event's master-points setting: it has no version, so ``If-Match`` is not read."""


class EventMasterPointsView(MoneyAPIView):
    """GET: how the event awards master points (the formula, its weights and, with the
    club's own table, the table version it keeps) and each player's points; PUT: its
    formula and weights."""

    @extend_schema(responses={200: shapes.EventMasterPointsSerializer})
    def get(self, request: Request, slug: str) -> Response:
        return event_points_response(request, get_tournament(slug))

    put = endpoint(EVENT_POINTS, master_points.set_master_points, MasterPointsInput)


def _season_param(request: Request) -> int | None:
    value = request.query_params.get("season", "")
    if not value:
        return None
    if not value.isdigit() or not 1900 <= int(value) <= 9999:
        raise RuleViolation("invalid_season", "A season is the year it starts in.", "season")
    return int(value)


class ClubMasterPointsView(MoneyAPIView):
    """GET: the club's master-points leaderboard (public); ``?season=2026`` sums that
    season only (the year it starts in), without it every season."""

    @extend_schema(
        parameters=[OpenApiParameter("season", int, OpenApiParameter.QUERY, required=False)],
        responses={200: shapes.MasterPointsRowSerializer(many=True)},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = get_club(slug)
        season = _season_param(request)
        return Response(
            [
                {
                    "rank": rank,
                    "player": row.player.pk,
                    "name": row.player.display_name,
                    "points": str(row.points),
                    "events": [{"tournament": t.slug, "points": str(v)} for t, v in row.events],
                }
                for rank, row in enumerate(master_points.club_table(club, season), start=1)
            ]
        )


def club_table_data(club: Club) -> dict[str, Any]:
    table = master_points.latest_club_table(club)
    start = master_points.season_start(club)
    return {
        "version": table.version if table else None,
        "table": table.data if table else None,
        "season_start": {"month": start.month, "day": start.day},
    }


def club_table_response(request: Request, club: Club) -> Response:
    """The table and season start, with the ETag of the club's master-points settings
    (what a save's ``If-Match`` names)."""
    response = Response(club_table_data(club))
    response["ETag"] = f'"{master_points.points_settings_version(club)}"'
    return response


def get_club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


CLUB_POINTS: Family[Club] = Family(
    load=get_club,
    keyword="club",
    noun="club's master-points settings",
    answer=club_table_response,
    guard=master_points.require_club_director,
    shape=shapes.ClubPointsTableSerializer,
)
"""The club's master-points table and season: directors only, refused before the body
is read; one version (``points_version``) for both."""


class ClubPointsTableView(MoneyAPIView):
    """GET: the club's own master-points table, current version (public); PUT: save it
    as a new version (directors; events already awarded keep theirs)."""

    @extend_schema(responses=shapes.ClubPointsTableSerializer, parameters=[api_headers.ETAG])
    def get(self, request: Request, slug: str) -> Response:
        return club_table_response(request, get_club(slug))

    put = endpoint(
        CLUB_POINTS, master_points.save_club_table, ClubPointsTableInput, idempotent=True
    )


class ClubSeasonView(MoneyAPIView):
    """PUT: the day the club's master-points seasons start (directors)."""

    put = endpoint(CLUB_POINTS, master_points.set_season_start, SeasonInput, idempotent=True)
