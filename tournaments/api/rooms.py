"""A club's room and an event's reserved tables (API).

``GET``/``PUT /api/v1/clubs/{slug}/room/``: the room's name and table count (anyone
reads; the club's directors write). ``PUT /api/v1/tournaments/{slug}/tables/``: the
tables reserved for the event (``If-Match`` on the tournament's version, like its other
director writes). Thin: parse, call one service in ``tournaments.services.tables``,
render; bad input is a 400 ``{code, detail, field}``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.idempotency import idempotent
from core.locking import expected_version
from games.models import Club
from games.rules import limits
from games.services.actors import actor_for_user
from tournaments.models import Room, Tournament
from tournaments.services import tables


class RoomSerializer(serializers.ModelSerializer):
    name = serializers.CharField(max_length=limits.MAX_LABEL, allow_blank=True, required=False)
    tables = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_TABLE,
        allow_null=True,
        help_text="How many numbered tables the room has; null: no cap.",
    )

    class Meta:
        model = Room
        fields = ["name", "tables"]


class TableRangeSerializer(serializers.Serializer):
    table_first = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_TABLE, allow_null=True, help_text="null: no reservation."
    )
    table_last = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_TABLE, allow_null=True, help_text="null: no reservation."
    )


class RoomView(APIView):
    """The club's playing room: every event of the club draws its tables from it."""

    permission_classes = [AllowAny]  # reading is public; the service lets directors write

    @extend_schema(responses={200: RoomSerializer})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        return Response(RoomSerializer(tables.room_of(club)).data)

    @extend_schema(request=RoomSerializer, responses={200: RoomSerializer})
    @idempotent
    def put(self, request: Request, slug: str) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        club = get_object_or_404(Club, slug=slug)
        data = RoomSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        room = tables.set_room(
            actor=actor_for_user(request.user),
            club=club,
            name=data.validated_data.get("name", ""),
            tables=data.validated_data["tables"],
        )
        return Response(RoomSerializer(room).data)


class TableRangeView(APIView):
    """The tables reserved for an event (its draws take them first)."""

    permission_classes = [AllowAny]  # the service decides: directors only

    @extend_schema(request=TableRangeSerializer, responses={200: TableRangeSerializer})
    @idempotent
    def put(self, request: Request, slug: str) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = get_object_or_404(Tournament, slug=slug)
        data = TableRangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        saved = tables.reserve_tables(
            actor=actor_for_user(request.user),
            tournament_id=tournament.pk,
            first=data.validated_data["table_first"],
            last=data.validated_data["table_last"],
            expected_version=expected_version(request, noun="tournament"),
        )
        response = Response(TableRangeSerializer(saved).data)
        response["ETag"] = saved.etag
        return response
