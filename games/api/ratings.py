"""Ratings API: a club's list, a player's history, a match preview, a director's
recomputation (202 and a job) and the import of a club's past results.

Views parse the request, call one selector or service, and render.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from core.api_jobs import job_accepted_response, job_answer
from core.errors import N_
from core.idempotency import idempotent
from games import selectors_ratings as selectors
from games.models import Club, Player, RatingList
from games.models.ratings import SITE_INITIAL_RATING
from games.rules import limits
from games.rules.errors import RuleViolation
from games.services import ratings as rating_services

from .inputs import query_text, require_object
from .parsers import BoundedJSONParser
from .rating_shapes import (
    ClubRatingsPageSerializer,
    PlayerRatingHistorySerializer,
    PlayerRefSerializer,
    RatingChangeSerializer,
    RatingPreviewSerializer,
    RatingRowSerializer,
)
from .rating_shapes import (
    rounded as _r,
)
from .transcripts import MAX_UPLOAD_BYTES, UploadTooLarge


def _list_info(rating_list: RatingList | None, club: Club | None) -> dict[str, Any]:
    return {
        "club": club.slug if club else None,
        "variant": rating_list.variant if rating_list else "standard",
        "initial": club.rating_initial if club else SITE_INITIAL_RATING,
        "boost": club.rating_boost if club else "fibs",
        "recomputed_at": rating_list.recomputed_at if rating_list else None,
    }


def _club_param(request: Request) -> Club | None:
    slug = query_text(request, "club", max_length=limits.MAX_CLUB_SLUG)
    if not slug:
        return None
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise RuleViolation(
            "club_not_found", N_("There is no club '%(slug)s'.", slug=slug), field="club"
        )
    return club


def _variant_param(request: Request, club: Club) -> str:
    """``?variant=``: the English game's list by default, or a variant the club rates."""
    variant = query_text(request, "variant", max_length=20) or "standard"
    if variant != "standard" and variant not in selectors.variant_lists(club):
        raise RuleViolation(
            "variant_unrated",
            N_("%(club)s keeps no rating list of %(variant)s.", club=club.name, variant=variant),
            field="variant",
        )
    return variant


class ClubRatingsView(APIView):
    """``GET /api/v1/clubs/{slug}/ratings/?variant=``: the club's list (the English
    game's, or a variant's it rates), best first, paginated."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("variant", str, required=False)],
        responses={200: ClubRatingsPageSerializer},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        rating_list = selectors.find_list(club, _variant_param(request, club))
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(selectors.ranked_ratings(rating_list), request, self)
        rows = list(page or [])
        first_rank = paginator.page.start_index() if rows and paginator.page is not None else 1
        data = RatingRowSerializer(
            rows, many=True, context={"rows": rows, "first_rank": first_rank}
        ).data
        response = paginator.get_paginated_response(data)
        response.data["list"] = _list_info(rating_list, club)
        return response


class PlayerRatingsView(APIView):
    """``GET /api/v1/players/{id}/ratings/?club=SLUG``: the player's rating history on
    the club's list (the site list without ``club``)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("club", str, required=False)],
        responses={200: PlayerRatingHistorySerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        club = _club_param(request)
        rating_list = selectors.find_list(club)
        history = list(selectors.player_history(rating_list, player))
        current = history[-1] if history else None
        initial = club.rating_initial if club else SITE_INITIAL_RATING
        return Response(
            {
                "player": PlayerRefSerializer(player).data,
                "list": _list_info(rating_list, club),
                "rating": _r(current.rating_after if current else initial),
                "experience": current.experience_after if current else 0,
                "matches_played": len(history),
                "history": RatingChangeSerializer(history, many=True).data,
            }
        )


class PreviewQuerySerializer(serializers.Serializer):
    club = serializers.SlugField(max_length=limits.MAX_CLUB_SLUG, required=False)
    player_a = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)
    player_b = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)
    length = serializers.IntegerField(min_value=1, max_value=limits.MAX_MATCH_LENGTH)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["player_a"] == data["player_b"]:
            raise serializers.ValidationError({"player_b": "A match needs two different players."})
        return data


class RatingPreviewView(APIView):
    """``GET /api/v1/ratings/preview/?club=&player_a=&player_b=&length=``: each
    player's chance and what each outcome would do to both ratings."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[PreviewQuerySerializer], responses={200: RatingPreviewSerializer})
    def get(self, request: Request) -> Response:
        query = PreviewQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        club = _club_param(request)
        players = {
            p.pk: p for p in Player.objects.filter(pk__in=[data["player_a"], data["player_b"]])
        }
        for field in ("player_a", "player_b"):
            if data[field] not in players:
                raise RuleViolation(
                    "player_not_found",
                    N_("There is no player %(value)s.", value=data[field]),
                    field,
                )
        rating_list = selectors.find_list(club)
        initial = float(club.rating_initial if club else SITE_INITIAL_RATING)
        policy = club.rating_boost if club else "fibs"
        a, b = players[data["player_a"]], players[data["player_b"]]
        p = selectors.preview(
            a=selectors.standing_of(rating_list, a, initial),
            b=selectors.standing_of(rating_list, b, initial),
            length=data["length"],
            policy=policy,
        )

        def side(player: Player, standing: selectors.Standing, chance: float) -> dict:
            return {
                **PlayerRefSerializer(player).data,
                "rating": _r(standing.rating),
                "experience": standing.experience,
                "win_probability": round(chance, 4),
            }

        def outcome(change: Any, winner: selectors.Standing, loser: selectors.Standing) -> dict:
            return {
                "winner_change": _r(change.winner_delta),
                "loser_change": _r(change.loser_delta),
                "winner_after": _r(winner.rating + change.winner_delta),
                "loser_after": _r(loser.rating + change.loser_delta),
            }

        return Response(
            {
                "list": _list_info(rating_list, club),
                "length": data["length"],
                "player_a": side(a, p.a, p.p_a),
                "player_b": side(b, p.b, p.p_b),
                "if_a_wins": outcome(p.if_a_wins, p.a, p.b),
                "if_b_wins": outcome(p.if_b_wins, p.b, p.a),
            }
        )


class ClubRatingsRecomputeView(APIView):
    """``POST /api/v1/clubs/{slug}/ratings/recompute/``: directors; 202 and the job."""

    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={202: job_answer()})
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        club = get_object_or_404(Club, slug=slug)
        job, _ = rating_services.request_recompute(user=request.user, club=club)
        return job_accepted_response(job)


class ClubResultsImportView(APIView):
    """``POST /api/v1/clubs/{slug}/results/import/``: directors upload a club's past
    results (``file``: CSV or a Markdown table; or ``text``). Every unreadable row is
    reported with its line number and nothing of the file is written."""

    permission_classes = [AllowAny]
    parser_classes = [MultiPartParser, FormParser, BoundedJSONParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "import"

    @extend_schema(
        request=inline_serializer(
            "ResultsImport",
            {
                "file": serializers.FileField(required=False),
                "text": serializers.CharField(required=False),
            },
        ),
        responses={
            201: inline_serializer(
                "ResultsImported",
                {
                    "matches": serializers.IntegerField(),
                    "players_created": serializers.IntegerField(),
                    "first_date": serializers.CharField(help_text="The first match's date."),
                    "last_date": serializers.CharField(help_text="The last match's date."),
                },
            )
        },
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        club = get_object_or_404(Club, slug=slug)
        upload = request.FILES.get("file")
        if upload is not None:
            if upload.size > MAX_UPLOAD_BYTES:
                raise UploadTooLarge(
                    "upload_too_large",
                    N_(
                        "The file is %(size)s bytes; at most %(MAX_UPLOAD_BYTES)s bytes (5 MB).",
                        size=upload.size,
                        MAX_UPLOAD_BYTES=MAX_UPLOAD_BYTES,
                    ),
                    "file",
                )
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise RuleViolation(
                    "file_not_utf8", N_("The file must be UTF-8 text (CSV or Markdown)."), "file"
                ) from None
        else:
            text = require_object(request.data).get("text") or ""
            if not isinstance(text, str):
                raise RuleViolation(
                    "text_not_text", N_("text is the results file's content, a string."), "text"
                )
        if not text.strip():
            raise RuleViolation(
                "file_required", N_("Upload a results file (CSV or a Markdown table)."), "file"
            )
        report = rating_services.import_results(user=request.user, club=club, text=text)
        return Response(report.as_dict(), status=status.HTTP_201_CREATED)
