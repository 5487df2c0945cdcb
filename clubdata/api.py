"""The club archive and the spreadsheets in the API (``docs/club-archive.md``).

``POST /api/v1/clubs/{slug}/archive/`` starts an export (202, a job);
``GET /api/v1/club-archives/{job}/`` downloads what it wrote;
``POST /api/v1/club-archives/`` imports a file as a new club (202, a job);
``GET /api/v1/clubs/{slug}/matches.csv`` and ``.../rating-history.csv``.
Thin: each parses, calls one service or writer, and renders.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from core.api_jobs import job_accepted_response, job_answer
from core.idempotency import idempotent
from games.models import Club

from . import services, spreadsheets, uploads


class ArchiveImportSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="The archive: JSON, or JSON compressed with gzip.")
    slug = serializers.SlugField(
        required=False,
        allow_blank=True,
        help_text="The new club's slug; empty: the slug in the file.",
    )
    name = serializers.CharField(
        required=False, allow_blank=True, help_text="The new club's name; empty: the file's."
    )


class ClubExportView(APIView):
    """Start writing the club's archive (its directors); poll the job, then download."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={202: job_answer()})
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        return job_accepted_response(services.start_export(user=request.user, club=club))


class ClubExportFileView(APIView):
    """The archive an export job wrote: its JSON, gzip-compressed (``.json.gz``).

    Sent as ``application/octet-stream`` (the bytes of the ``.json.gz`` file the
    Content-Disposition names): the media type generated clients read as a file; the
    page's download says ``application/gzip``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    def get(self, request: Request, job_id: int) -> HttpResponse:
        name, data = services.export_file(user=request.user, job_id=job_id)
        response = HttpResponse(data, content_type="application/octet-stream")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class ClubImportView(APIView):
    """Import an archive as a new club, directed by the caller (202 at once, a job that
    reads the file: ``clubdata.services``)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "import"

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        uploads.bound(request)  # before authentication's CSRF check reads the body
        return super().initialize_request(request, *args, **kwargs)

    @extend_schema(request=ArchiveImportSerializer, responses={202: job_answer()})
    @idempotent
    def post(self, request: Request) -> Response:
        data = uploads.upload_bytes(request._request, request.FILES.get("file"))
        options = ArchiveImportSerializer(
            data={k: request.data.get(k) or "" for k in ("slug", "name")}, partial=True
        )
        options.is_valid(raise_exception=True)
        job = services.start_import(
            user=request.user,
            data=data,
            slug=options.validated_data.get("slug", ""),
            name=options.validated_data.get("name", ""),
        )
        return job_accepted_response(job)


def csv_response(rows: Any, name: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(rows, content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class ClubMatchesCsvView(APIView):
    """Every match of the club as CSV (public, as the club's matches are)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="clubs_matches_csv", responses={(200, "text/csv"): OpenApiTypes.STR}
    )
    def get(self, request: Request, slug: str) -> StreamingHttpResponse:
        club = get_object_or_404(Club, slug=slug)
        return csv_response(spreadsheets.matches_csv(club), f"{club.slug}-matches.csv")


class ClubRatingHistoryCsvView(APIView):
    """Every change of the club's rating list as CSV (public, as the list is)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="clubs_rating_history_csv",
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request, slug: str) -> StreamingHttpResponse:
        club = get_object_or_404(Club, slug=slug)
        return csv_response(
            spreadsheets.rating_history_csv(club), f"{club.slug}-rating-history.csv"
        )
