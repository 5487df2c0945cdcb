"""Master points: an event's formula and points, the club's own versioned table, its
season start and the leaderboard by season."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import access
from core.idempotency import idempotent
from core.locking import expected_version
from games.models import Club, Player
from games.rules.errors import RuleViolation
from money import master_points
from money.models import EventMasterPoints

from .common import LIST_OF_OBJECTS, WRITE_PARAMS, get_tournament, request_actor
from .serializers import ClubPointsTableInput, MasterPointsInput, SeasonInput


class EventMasterPointsView(APIView):
    """GET: how the event awards master points (the formula, its weights and, with the
    club's own table, the table version it keeps) and each player's points; PUT: its
    formula and weights."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_tournament(slug)
        setting = (
            EventMasterPoints.objects.filter(tournament=tournament)
            .select_related("club_table")
            .first()
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

    @extend_schema(request=MasterPointsInput, responses={200: OpenApiTypes.OBJECT})
    def put(self, request: Request, slug: str) -> Response:
        tournament = get_tournament(slug)
        actor = request_actor(request)
        data = MasterPointsInput(data=request.data)
        data.is_valid(raise_exception=True)
        master_points.set_master_points(actor=actor, tournament=tournament, **data.validated_data)
        return self.get(request, slug)


def _season_param(request: Request) -> int | None:
    value = request.query_params.get("season", "")
    if not value:
        return None
    if not value.isdigit() or not 1900 <= int(value) <= 9999:
        raise RuleViolation("invalid_season", "A season is the year it starts in.", "season")
    return int(value)


class ClubMasterPointsView(APIView):
    """GET: the club's master-points leaderboard (public); ``?season=2026`` sums that
    season only (the year it starts in), without it every season."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("season", int, OpenApiParameter.QUERY, required=False)],
        responses={200: LIST_OF_OBJECTS},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
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


def club_table_response(club: Club) -> Response:
    """The table and season start, with the ETag of the club's master-points settings
    (what a save's ``If-Match`` names)."""
    response = Response(club_table_data(club))
    response["ETag"] = f'"{master_points.points_settings_version(club)}"'
    return response


NOUN = "club's master-points settings"


class ClubPointsTableView(APIView):
    """GET: the club's own master-points table, current version (public); PUT: save it
    as a new version (directors; events already awarded keep theirs)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        return club_table_response(get_object_or_404(Club, slug=slug))

    @extend_schema(
        request=ClubPointsTableInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS
    )
    @idempotent
    def put(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        actor = request_actor(request)
        access.require_director(
            actor, club, detail="Only the club's directors manage its master-points table."
        )
        data = ClubPointsTableInput(data=request.data)
        data.is_valid(raise_exception=True)
        brackets = [
            {**b, "points": [str(p) for p in b["points"]]} for b in data.validated_data["brackets"]
        ]
        master_points.save_club_table(
            actor=actor,
            club=club,
            per_match_won=str(data.validated_data["per_match_won"]),
            brackets=brackets,
            expected_version=expected_version(request, noun=NOUN),
        )
        return club_table_response(club)


class ClubSeasonView(APIView):
    """PUT: the day the club's master-points seasons start (directors)."""

    permission_classes = [AllowAny]

    @extend_schema(request=SeasonInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def put(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        actor = request_actor(request)
        access.require_director(
            actor, club, detail="Only the club's directors manage its master-points table."
        )
        data = SeasonInput(data=request.data)
        data.is_valid(raise_exception=True)
        master_points.set_season_start(
            actor=actor,
            club=club,
            expected_version=expected_version(request, noun=NOUN),
            **data.validated_data,
        )
        return club_table_response(club)
