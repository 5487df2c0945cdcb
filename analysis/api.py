"""``/api/v1/matches/{id}/analysis/``: ask for a match's analysis (202 + the job), read it;
``.../analysis/history/``: the earlier analyses re-analyses replaced."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_jobs import JobSerializer, job_answer
from core.idempotency import idempotent
from games.api.permissions import ReadOnlyOrAuthenticated
from games.models import Club, Match

from . import selectors, services
from .api_shapes import EarlierAnalysisSerializer, MatchAnalysisSerializer


class AnalysisRequestSerializer(serializers.Serializer):
    plies = serializers.IntegerField(required=False, min_value=0, max_value=3)


class MatchAnalysisView(APIView):
    """GET: the analysis (public, as the match is). POST: a director asks for one."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(responses={200: MatchAnalysisSerializer})
    def get(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match, pk=pk)
        analysis = selectors.analysis_of(match)
        if analysis is None:
            raise NotFound("This match has not been analysed yet.")
        return Response(selectors.as_dict(analysis))

    @extend_schema(request=AnalysisRequestSerializer, responses={202: job_answer()})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("club"), pk=pk)
        body = AnalysisRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        job, _ = services.request_analysis(
            user=request.user, match=match, plies=body.validated_data.get("plies")
        )
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class EarlierAnalysesView(APIView):
    """GET: the match's earlier analyses that re-analyses replaced, latest replaced
    first (public, as the analysis is); ``?decisions=true`` adds every stored decision."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("decisions", bool, OpenApiParameter.QUERY, required=False)],
        responses={200: EarlierAnalysisSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("player1", "player2"), pk=pk)
        full = request.query_params.get("decisions", "").lower() in ("1", "true", "yes")
        return Response(
            selectors.earlier_as_dicts(
                match, selectors.earlier_analyses(match), with_decisions=full
            )
        )


class ClubAnalysisSettingsSerializer(serializers.Serializer):
    automatic = serializers.BooleanField(required=False)
    plies = serializers.IntegerField(required=False, min_value=0, max_value=3)
    min_decisions = serializers.IntegerField(required=False, min_value=0, max_value=100_000)


class ClubAnalysisSettingsView(APIView):
    """``/api/v1/clubs/{slug}/analysis-settings/``: GET (public), PATCH (directors)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @staticmethod
    def _answer(row: Any) -> dict[str, Any]:
        return {"automatic": row.automatic, "plies": row.plies, "min_decisions": row.min_decisions}

    @extend_schema(responses={200: ClubAnalysisSettingsSerializer})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        return Response(self._answer(services.settings_for(club)))

    @extend_schema(
        request=ClubAnalysisSettingsSerializer, responses={200: ClubAnalysisSettingsSerializer}
    )
    def patch(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        body = ClubAnalysisSettingsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        row = services.update_settings(user=request.user, club=club, **body.validated_data)
        return Response(self._answer(row))
