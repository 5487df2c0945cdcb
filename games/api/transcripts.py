"""Transcript import and download.

* ``POST /api/v1/matches/import/`` (multipart): ``files`` (one or more ``.mat``),
  ``club`` (slug), ``check`` (dry run), ``lenient``, ``money``. The club's directors
  only. A small upload (at most ``SYNC_MAX_FILES`` files and ``SYNC_MAX_BYTES`` in
  all) is answered at once: 201 when a match was created, 200 otherwise (a dry run,
  duplicates), 400 ``transcript_refused`` when every file was refused; each file's
  outcome is in ``files``. A larger upload runs as a ``matches.import`` job: 202 with the
  job, whose progress counts files. More than ``MAX_UPLOAD_BYTES`` is refused with 413.
* ``POST /api/v1/matches/{id}/transcript/``: attach a transcript to an entered match
  (it must agree with the recorded games).
* ``GET /api/v1/matches/{id}/transcript.mat``: the stored transcript of an imported
  match; for a match entered game by game, a score-sheet transcript (score lines,
  cube values as ``Doubles``/``Takes``, results; no moves, which were never entered);
  404 when there is nothing to export (no games, or a final score only).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from core import access
from core.api_jobs import job_accepted_response, job_answer
from core.errors import N_
from core.idempotency import idempotent
from core.jobs import start_job
from games.models import Club, Match
from games.rules.errors import BoxcarsError, NotAllowed, RuleViolation
from games.services import transcripts as transcript_services
from games.services.actors import actor_for_user
from games.services.transcripts import score_sheet_transcript
from games.transcript_jobs import KIND, import_params, summarise

from .import_shapes import TranscriptsImportedSerializer

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
SYNC_MAX_FILES = 3
SYNC_MAX_BYTES = 200 * 1024


class UploadTooLarge(BoxcarsError):
    status_code = 413


class MatchImportSerializer(serializers.Serializer):
    club = serializers.SlugField()
    check = serializers.BooleanField(default=False, help_text="Dry run: report, write nothing.")
    lenient = serializers.BooleanField(
        default=False, help_text="Import files with rule errors too, reporting the errors."
    )
    money = serializers.BooleanField(
        default=False,
        help_text="Money play (e.g. Galaxy coin games): import as unlimited sessions. "
        "A '0 point match' always is.",
    )
    files = serializers.ListField(child=serializers.FileField(), allow_empty=False)


def _files(request: Request) -> list[Any]:
    uploads = request.FILES.getlist("files")
    if not uploads:
        raise RuleViolation(
            "files_required", N_("Attach one or more .mat files as 'files'."), "files"
        )
    total = sum(upload.size for upload in uploads)
    if total > MAX_UPLOAD_BYTES:
        raise UploadTooLarge(
            "upload_too_large",
            N_(
                "The upload is %(total)s bytes; at most %(MAX_UPLOAD_BYTES)s bytes (5 "
                "MB) per request: send the files in several requests.",
                total=total,
                MAX_UPLOAD_BYTES=MAX_UPLOAD_BYTES,
            ),
            "files",
        )
    return uploads


class MatchImportView(APIView):
    """Import a night's .mat transcripts into a club (directors only)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "import"

    @extend_schema(
        request=MatchImportSerializer,
        responses={
            200: TranscriptsImportedSerializer,
            201: TranscriptsImportedSerializer,
            202: job_answer(),
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        uploads = _files(request)
        data = {key: request.data.get(key) for key in ("club", "check", "lenient", "money")}
        params = MatchImportSerializer(
            data={**{k: v for k, v in data.items() if v is not None}, "files": uploads}
        )
        params.is_valid(raise_exception=True)
        options = params.validated_data
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise RuleViolation(
                "club_not_found", N_("There is no club %(club)r.", club=options["club"]), "club"
            )
        if not access.is_director(request.user, club):
            raise NotAllowed("directors_only", N_("Only the club's directors import transcripts."))
        files = [
            (upload.name, transcript_services.decode_transcript(upload.read()))
            for upload in uploads
        ]
        money = True if options["money"] else None
        total = sum(upload.size for upload in uploads)
        if len(files) > SYNC_MAX_FILES or total > SYNC_MAX_BYTES:
            job, _ = start_job(
                kind=KIND,
                params=import_params(
                    files=files, check=options["check"], lenient=options["lenient"], money=money
                ),
                club=club,
                created_by=request.user,
            )
            return job_accepted_response(job)
        outcomes = transcript_services.import_transcripts(
            actor=actor_for_user(request.user),
            club=club,
            files=files,
            money=money,
            lenient=options["lenient"],
            check=options["check"],
        )
        body = summarise(outcomes)
        if any(o.status == transcript_services.IMPORTED for o in outcomes):
            return Response(body, status=201)
        if all(o.status == transcript_services.REFUSED for o in outcomes):
            refused = outcomes[0].errors[0] if outcomes[0].errors else {}
            detail = (
                f"{len(outcomes)} file(s) refused; first: {refused.get('code')}: "
                f"{refused.get('message')}"
            )
            return Response(
                {"code": "transcript_refused", "detail": detail, "field": "files", **body},
                status=400,
            )
        return Response(body, status=200)


class MatchTranscriptView(APIView):
    """Download a match's transcript as a .mat file (public, as the match is)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "text/plain"): str})
    def get(self, request: Request, pk: int) -> HttpResponse:
        match = get_object_or_404(Match.objects.select_related("player1", "player2"), pk=pk)
        if match.transcript:  # imported, or attached to an entered match
            text: str | None = match.transcript
        else:
            text = score_sheet_transcript(match)
            if text is None:
                raise NotFound("This match has no games to export (a final score only, or none).")
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.mat"'
        return response


class TranscriptUploadSerializer(serializers.Serializer):
    file = serializers.FileField(required=False)
    text = serializers.CharField(required=False, trim_whitespace=False)


class MatchAttachTranscriptView(APIView):
    """``POST /api/v1/matches/{id}/transcript/``: attach a ``.mat`` to an entered match.

    A director sends the file (multipart ``file``) or its text (``text``). It must replay
    and agree with the recorded games (players, length, every game's winner and points);
    otherwise 400 names what disagrees and nothing is written. On success the analysis
    starts when the club analyses automatically.
    """

    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(
        request=TranscriptUploadSerializer,
        responses={
            200: inline_serializer(
                "TranscriptAttached",
                {
                    "match": serializers.IntegerField(),
                    "transcript_hash": serializers.CharField(),
                },
            )
        },
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("club"), pk=pk)
        actor = actor_for_user(request.user)
        transcript_services.require_may_attach(actor=actor, match=match)
        body = TranscriptUploadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        upload = body.validated_data.get("file")
        if upload is not None:
            text, name = transcript_services.decode_transcript(upload.read()), upload.name
        elif body.validated_data.get("text"):
            text, name = body.validated_data["text"], f"match-{pk}.mat"
        else:
            raise RuleViolation("transcript_required", N_("Send a .mat file or its text."), "file")
        attached = transcript_services.attach_transcript(
            actor=actor, match=match, text=text, name=name
        )
        return Response(
            {"match": attached.pk, "transcript_hash": attached.transcript_hash},
            status=status.HTTP_200_OK,
        )
