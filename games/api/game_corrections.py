"""A director's correction of one game of a match: ``PATCH`` replaces some of its
fields (merged with the stored game by the service, under the match's lock),
``DELETE`` removes it (later games renumbered and re-derived)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from core.actors import Actor
from core.errors import N_
from games.models import Game, Match
from games.rules.errors import RuleViolation
from games.selectors import matches_queryset
from games.services import match_corrections
from games.services.actors import actor_for_user

from .inputs import require_object
from .match_inputs import GameInputSerializer
from .match_render import match_detail
from .match_serializers import MatchDetailSerializer
from .match_views import MATCH_WRITE_PARAMS, expected_match_version


class GameCorrectionView(viewsets.ViewSet):
    """``PATCH /api/v1/matches/{id}/games/{n}/``: a director corrects game n;
    ``DELETE`` voids it (later games renumbered and re-derived)."""

    permission_classes = [AllowAny]

    def _actor(self, request: Request) -> Actor:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        return actor_for_user(request.user)

    @extend_schema(
        request=GameInputSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS[:2],
    )
    def partial_update(self, request: Request, match_pk: str, number: str) -> Response:
        actor = self._actor(request)
        match = get_object_or_404(Match, pk=match_pk)
        get_object_or_404(Game, match=match, number=number)
        # only the fields sent are checked here; the service merges them with the stored
        # game under the match's lock (never with a copy read before it)
        data = GameInputSerializer(data=require_object(request.data), partial=True)
        data.is_valid(raise_exception=True)
        updated = match_corrections.correct_game(
            actor=actor,
            match_id=match.pk,
            number=int(number),
            game=data.to_game_changes(),
            expected_version=expected_match_version(request),
        )
        response = Response(match_detail(matches_queryset().get(pk=updated.pk)))
        response["ETag"] = updated.etag
        return response

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS[:1]
    )
    def destroy(self, request: Request, match_pk: str, number: str) -> Response:
        try:
            n = int(number)
        except ValueError:
            raise RuleViolation(
                "number_invalid", N_("The game number is a whole number."), "number"
            ) from None
        updated = match_corrections.remove_game(
            actor=self._actor(request),
            match_id=int(match_pk),
            number=n,
            expected_version=expected_match_version(request),
        )
        response = Response(match_detail(matches_queryset().get(pk=updated.pk)))
        response["ETag"] = updated.etag
        return response
