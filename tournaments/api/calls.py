"""Check-in, no-shows, round calls, late penalties and push subscriptions (API).

Thin views: each parses its input, calls one service and renders. Writes take an
``Idempotency-Key`` (a retried call sends no second round of emails: the first answer
is replayed); errors use the project's body ``{"code", "detail", "field"}``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.actors import Actor
from core.idempotency import idempotent
from core.models import Job
from games.services.actors import actor_for_user
from tournaments.models import Entry, LatePenalty, RoundCall, StageKind, Tournament
from tournaments.services import calls, check_in, late_penalties, push

from .serializers import EntrySerializer


def _actor(request: Request, *, anonymous: bool = False) -> Actor:
    if not request.user.is_authenticated and not anonymous:
        raise NotAuthenticated()
    return actor_for_user(request.user)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _entry(entry: Entry) -> dict[str, Any]:
    return dict(EntrySerializer(Entry.objects.select_related("player").get(pk=entry.pk)).data)


class CheckInInputSerializer(serializers.Serializer):
    token = serializers.CharField(
        max_length=500, required=False, help_text="The entry's private check-in link token."
    )
    checked_in = serializers.BooleanField(
        default=True, help_text="false: a director takes the check-in back."
    )


class CheckInView(APIView):
    """Check an entry in: the player (signed in, or with the link's token) or a director."""

    permission_classes = [AllowAny]  # the service decides: the player, their link, a director

    @extend_schema(request=CheckInInputSerializer, responses={200: EntrySerializer})
    @idempotent
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        data = CheckInInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = data.validated_data.get("token")
        entry = check_in.check_in_entry(
            actor=_actor(request, anonymous=bool(token)),
            tournament_id=_tournament(slug).pk,
            entry_id=entry_id,
            token=token,
            checked_in=data.validated_data["checked_in"],
        )
        return Response(_entry(entry))


class DropNoShowsView(APIView):
    """Withdraw every entry that has not checked in (before the draw); the waitlist moves up."""

    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={200: EntrySerializer(many=True)})
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        dropped = check_in.drop_no_shows(actor=_actor(request), tournament_id=_tournament(slug).pk)
        return Response([_entry(e) for e in dropped])


class CallInputSerializer(serializers.Serializer):
    stage = serializers.ChoiceField(
        choices=StageKind.choices,
        required=False,
        help_text="Only this stage's round (default: every stage's round with this number).",
    )


class RoundCallSerializer(serializers.ModelSerializer):
    stage = serializers.CharField(source="round.stage.kind")
    group = serializers.IntegerField(source="round.stage.group")
    number = serializers.IntegerField(source="round.number")
    called_by = serializers.CharField(source="called_by.username", allow_null=True, default=None)
    notify_job = serializers.SerializerMethodField(
        help_text="The job sending the emails and pushes (/api/v1/jobs/{id}/)."
    )

    class Meta:
        model = RoundCall
        fields = [
            "id",
            "stage",
            "group",
            "number",
            "called_at",
            "called_by",
            "automatic",
            "notify_job",
        ]

    def get_notify_job(self, call: RoundCall) -> int | None:
        return (
            Job.objects.filter(dedupe_key=f"round-call:{call.pk}")
            .values_list("pk", flat=True)
            .first()
        )


class CallRoundView(APIView):
    """Call round ``n``: each player is emailed (and pushed) table, opponent, length, link."""

    permission_classes = [AllowAny]

    @extend_schema(request=CallInputSerializer, responses={201: RoundCallSerializer(many=True)})
    @idempotent
    def post(self, request: Request, slug: str, number: int) -> Response:
        actor = _actor(request)  # anonymous first: refused before the body is read
        data = CallInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = calls.call_round(
            actor=actor,
            tournament_id=_tournament(slug).pk,
            round_number=number,
            stage=data.validated_data.get("stage"),
        )
        rows = RoundCall.objects.filter(pk__in=[c.pk for c in made]).select_related(
            "round__stage", "called_by"
        )
        return Response(RoundCallSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)


class LatePenaltyInputSerializer(serializers.Serializer):
    late_entry = serializers.IntegerField(min_value=1, help_text="The late player's entry id.")


class LatePenaltySerializer(serializers.ModelSerializer):
    score = serializers.SerializerMethodField()
    match_status = serializers.CharField(source="match.status")

    class Meta:
        model = LatePenalty
        fields = [
            "id",
            "match",
            "late_player",
            "awarded_to",
            "points",
            "match_lost",
            "minutes_late",
            "applied_at",
            "score",
            "match_status",
        ]

    def get_score(self, penalty: LatePenalty) -> list[int]:
        return [penalty.match.score1, penalty.match.score2]


class LatePenaltyView(APIView):
    """Apply the UKBGF late penalty due now (minutes since the round was called)."""

    permission_classes = [AllowAny]

    @extend_schema(request=LatePenaltyInputSerializer, responses={201: LatePenaltySerializer})
    @idempotent
    def post(self, request: Request, slug: str, match_id: int) -> Response:
        actor = _actor(request)  # anonymous first: refused before the body is read
        data = LatePenaltyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        penalty = late_penalties.apply_late_penalty(
            actor=actor,
            tournament_id=_tournament(slug).pk,
            match_id=match_id,
            late_entry_id=data.validated_data["late_entry"],
        )
        penalty = LatePenalty.objects.select_related("match").get(pk=penalty.pk)
        return Response(LatePenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)


class PushKeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class PushSubscriptionInputSerializer(serializers.Serializer):
    endpoint = serializers.URLField(max_length=500)
    keys = PushKeysSerializer(required=False)


class PushSubscriptionsView(APIView):
    """This device's web-push subscription (the player's page posts what the browser gave)."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=PushSubscriptionInputSerializer,
        responses={201: inline_serializer("PushSubscribed", {"id": serializers.IntegerField()})},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        actor = _actor(request)  # anonymous first: refused before the body is read
        data = PushSubscriptionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        keys = data.validated_data.get("keys")
        if not keys:
            raise serializers.ValidationError({"keys": ["The browser's p256dh and auth keys."]})
        subscription = push.subscribe_push(
            actor=actor,
            endpoint=data.validated_data["endpoint"],
            p256dh=keys["p256dh"],
            auth=keys["auth"],
        )
        return Response({"id": subscription.pk}, status=status.HTTP_201_CREATED)

    @extend_schema(request=PushSubscriptionInputSerializer, responses={204: None})
    def delete(self, request: Request) -> Response:
        actor = _actor(request)  # anonymous first: refused before the body is read
        data = PushSubscriptionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        push.unsubscribe_push(actor=actor, endpoint=data.validated_data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)
