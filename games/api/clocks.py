"""The match clock API under ``/api/v1/matches/{id}/clock/`` (docs/clocks.md).

``GET`` reads the clock and the match's clock policy (anyone); ``POST`` starts a
clock; ``turns/`` reports a turn (idempotent by the client's ``seq`` and by
``Idempotency-Key``); ``pause/``, ``resume/`` and ``flag/``. Writes are the match's
two players (account, token or private score link) and its club's directors (a turn:
the player whose turn ends; the clock's time is the server's, docs/clocks.md); each
answers with the clock and its ``ETag`` (the clock's version; ``If-Match`` with a
stale one answers 412). Sides are 1 (player1) and 2 (player2), as everywhere in the
API. Views only parse, call one service and render.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from core import api_headers, locking
from core.idempotency import idempotent
from games.clock_policies import clock_policy_of
from games.models import Match, MatchClock
from games.rules import clock as rules
from games.services import clocks as clock_services

from .clock_serializers import ClockResourceSerializer, clock_payload, policy_payload
from .match_views import MATCH_WRITE_PARAMS, request_actor
from .permissions import MatchWritePermission
from .throttling import ScoreThrottling


class ClockStartSerializer(serializers.Serializer):
    preset = serializers.ChoiceField(
        choices=[(p.value, p.name) for p in rules.Preset],
        required=False,
        help_text="Default: the event's.",
    )
    delay_ms = serializers.IntegerField(min_value=0, required=False)
    reserve_ms = serializers.IntegerField(min_value=0, required=False)
    flag_rule = serializers.ChoiceField(
        choices=[(r.value, r.name) for r in rules.FlagRule], required=False
    )
    overtime_ms = serializers.IntegerField(min_value=0, required=False)


class ClockTurnSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1, max_value=10_000_000)
    side = serializers.ChoiceField(choices=[1, 2])
    used_ms = serializers.IntegerField(min_value=0, max_value=2**31 - 1)


class ClockFlagSerializer(ClockTurnSerializer):
    used_ms = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        default=0,
        help_text="The device's figure, kept in the log; the server's own time decides.",
    )
    reason = serializers.CharField(
        max_length=500,
        required=False,
        default="",
        help_text="A director's award of the flag fall, whatever the server's time: why.",
    )


def _respond(clock: MatchClock, code: int = status.HTTP_200_OK) -> Response:
    data = {
        "policy": policy_payload(clock_policy_of(clock.match_id)),
        "clock": clock_payload(clock),
    }
    response = Response(data, status=code)
    response["ETag"] = clock.etag
    return response


class MatchClockViewSet(ScoreThrottling, viewsets.ViewSet):
    """A match's clock: anyone reads; its players and directors write (limited per
    score link or account and match, failed attempts per address: .throttling)."""

    permission_classes = [MatchWritePermission]

    @extend_schema(responses={200: ClockResourceSerializer}, parameters=[api_headers.ETAG])
    def retrieve(self, request: Request, pk: str) -> Response:
        match = get_object_or_404(Match, pk=pk)
        clock = MatchClock.objects.filter(match=match).first()
        data = {
            "policy": policy_payload(clock_policy_of(match.pk)),
            "clock": clock_payload(clock) if clock else None,
        }
        response = Response(data)
        if clock is not None:
            response["ETag"] = clock.etag
        return response

    @extend_schema(
        request=ClockStartSerializer,
        responses={201: ClockResourceSerializer},
        parameters=[*MATCH_WRITE_PARAMS[1:], api_headers.ETAG],
    )
    @idempotent
    def start(self, request: Request, pk: str) -> Response:
        actor = request_actor(request, int(pk))
        data = ClockStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        preset = fields.get("preset") or clock_policy_of(int(pk)).preset
        clock = clock_services.start_clock(
            actor=actor,
            match_id=int(pk),
            request=clock_services.ClockRequest(
                preset=rules.Preset(preset),
                delay_ms=fields.get("delay_ms"),
                reserve_ms=fields.get("reserve_ms"),
                flag_rule=rules.FlagRule(fields["flag_rule"]) if "flag_rule" in fields else None,
                overtime_ms=fields.get("overtime_ms"),
            ),
        )
        return _respond(clock, status.HTTP_201_CREATED)

    def _turn(
        self, request: Request, pk: str, service: Any, serializer: type[serializers.Serializer]
    ) -> Response:
        actor = request_actor(request, int(pk))
        data = serializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        clock = service(
            actor=actor,
            match_id=int(pk),
            side=fields.pop("side") - 1,
            expected_version=locking.expected_version(request, noun="clock"),
            **fields,
        )
        return _respond(clock)

    @extend_schema(
        request=ClockTurnSerializer,
        responses={200: ClockResourceSerializer},
        parameters=MATCH_WRITE_PARAMS,
    )
    @idempotent
    def turns(self, request: Request, pk: str) -> Response:
        """Report a turn: side 1 or 2 ended a turn of ``used_ms``. Only that side's
        player (or a director) reports it (403 ``turn_not_yours``); the time charged is
        weighed against the server's own clock (docs/clocks.md, "The server's time")."""
        return self._turn(request, pk, clock_services.report_turn, ClockTurnSerializer)

    @extend_schema(
        request=ClockFlagSerializer,
        responses={200: ClockResourceSerializer},
        parameters=MATCH_WRITE_PARAMS,
    )
    @idempotent
    def flag(self, request: Request, pk: str) -> Response:
        """Side 1 or 2's flag fell: accepted only when the server's own time of the turn
        has spent the delay and the reserve (409 ``clock_not_expired`` otherwise), from
        that player, the opponent (a claim) or a director; with a ``reason``, a
        director's award of the flag fall (403 ``directors_only`` for anyone else)."""
        return self._turn(request, pk, clock_services.report_flag, ClockFlagSerializer)

    def _toggle(self, request: Request, pk: str, service: Any) -> Response:
        clock = service(
            actor=request_actor(request, int(pk)),
            match_id=int(pk),
            expected_version=locking.expected_version(request, noun="clock"),
        )
        return _respond(clock)

    @extend_schema(
        request=None, responses={200: ClockResourceSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @idempotent
    def pause(self, request: Request, pk: str) -> Response:
        return self._toggle(request, pk, clock_services.pause_clock)

    @extend_schema(
        request=None, responses={200: ClockResourceSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @idempotent
    def resume(self, request: Request, pk: str) -> Response:
        return self._toggle(request, pk, clock_services.resume_clock)


def _route(action: str, method: str = "post") -> Any:
    return MatchClockViewSet.as_view({method: action}, detail=True)


clock_view = MatchClockViewSet.as_view({"get": "retrieve", "post": "start"}, detail=True)
clock_turns_view = _route("turns")
clock_pause_view = _route("pause")
clock_resume_view = _route("resume")
clock_flag_view = _route("flag")
