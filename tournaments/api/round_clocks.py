"""A round's clock policy (API): ``PATCH /tournaments/{slug}/rounds/{number}/``.

Thin: parse, call :func:`tournaments.services.round_clocks.set_round_clock_policy`,
render the rounds it set. The tournament's ``version`` is the ETag (``If-Match``
answers 412 when stale), like the other director writes.
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
from games.services.actors import actor_for_user
from tournaments.models import Round, StageKind, Tournament
from tournaments.services import round_clocks


class RoundClockInputSerializer(serializers.Serializer):
    clock_policy = serializers.CharField(
        max_length=10,
        allow_blank=True,
        help_text="required, allowed or none; blank: the event's policy.",
    )
    stage = serializers.ChoiceField(
        choices=StageKind.choices,
        required=False,
        help_text="Only this stage's round (default: every stage's round with this number).",
    )


class RoundClockSerializer(serializers.ModelSerializer):
    stage = serializers.CharField(source="stage.kind")
    group = serializers.IntegerField(source="stage.group")
    effective_clock_policy = serializers.SerializerMethodField(
        help_text="The policy the round's matches follow (the event's when blank)."
    )

    class Meta:
        model = Round
        fields = ["id", "stage", "group", "number", "clock_policy", "effective_clock_policy"]

    def get_effective_clock_policy(self, round_: Round) -> str:
        return round_.clock_policy or round_.stage.tournament.clock_policy


class RoundClockView(APIView):
    """Set round ``n``'s clock policy (directors of the club)."""

    permission_classes = [AllowAny]  # the service decides: directors only

    @extend_schema(
        request=RoundClockInputSerializer, responses={200: RoundClockSerializer(many=True)}
    )
    @idempotent
    def patch(self, request: Request, slug: str, number: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
        data = RoundClockInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rounds = round_clocks.set_round_clock_policy(
            actor=actor_for_user(request.user),
            tournament_id=tournament.pk,
            round_number=number,
            policy=data.validated_data["clock_policy"],
            stage=data.validated_data.get("stage"),
            expected_version=expected_version(request, noun="tournament"),
        )
        rows = Round.objects.filter(pk__in=[r.pk for r in rounds]).select_related(
            "stage__tournament"
        )
        response = Response(RoundClockSerializer(rows, many=True).data)
        tournament.refresh_from_db(fields=["version"])
        response["ETag"] = tournament.etag
        return response
