"""The club data pages: a director's export and spreadsheets, and the import page.

Thin over :mod:`clubdata.services` (the API's services too): a refusal is shown next
to the field it names (the file, the slug), in words.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from core import access
from core.errors import BoxcarsError
from core.models import JobStatus
from games.forms import show_error
from games.models import Club

from . import services, spreadsheets, uploads
from .api import csv_response
from .archive import format as archive_format
from .forms import ArchiveImportForm

RUNNING = (JobStatus.QUEUED, JobStatus.RUNNING)


def _directed(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not access.is_director(request.user, club):
        raise Http404
    return club


@login_required
def club_data(request: HttpRequest, slug: str) -> HttpResponse:
    """Export the club's archive (a job; the page shows its progress) and the CSVs."""
    club = _directed(request, slug)
    if request.method == "POST":
        services.start_export(user=request.user, club=club)
        messages.success(request, gettext("The export has started."))
        return redirect("clubdata-club", slug=club.slug)
    exports = services.recent_exports(club)
    context = {
        "club": club,
        "exports": exports,
        "refresh": any(job.status in RUNNING for job in exports),
    }
    return render(request, "clubdata/club_data.html", context)


@login_required
def export_download(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    club = _directed(request, slug)
    try:
        name, data = services.export_file(user=request.user, job_id=job_id)
    except BoxcarsError as error:
        raise Http404 from error
    if not name.startswith(club.slug):
        raise Http404
    response = HttpResponse(data, content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def matches_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return csv_response(spreadsheets.matches_csv(club), f"{club.slug}-matches.csv")


def rating_history_csv(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return csv_response(spreadsheets.rating_history_csv(club), f"{club.slug}-rating-history.csv")


@csrf_exempt  # checked inside, once the upload is bounded (Django's recipe)
def club_import(request: HttpRequest) -> HttpResponse:
    """Import an archive as a new club (a job); the page lists the user's imports.

    The upload is bounded before anything reads the body, so CSRF is checked after
    (``csrf_protect`` on :func:`_club_import`), not by the middleware."""
    uploads.bound(request)
    return _club_import(request)


@login_required
@csrf_protect
def _club_import(request: HttpRequest) -> HttpResponse:
    posted = request.method == "POST"
    form = ArchiveImportForm(request.POST if posted else None, request.FILES if posted else None)
    handler = getattr(request, "_archive_upload", None)
    if request.method == "POST" and handler is not None and handler.refused:
        form.is_valid()
        form.errors.pop("file", None)
        show_error(form, archive_format.too_large_upload(handler.refused))
    elif request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            services.start_import(
                user=request.user,
                data=uploads.upload_bytes(request, upload),
                slug=form.cleaned_data["slug"],
                name=form.cleaned_data["name"],
            )
        except BoxcarsError as error:
            if error.field not in form.fields:
                error.field = "file"
            show_error(form, error)
        else:
            messages.success(request, gettext("The import has started."))
            return redirect("clubdata-import")
    imports = services.recent_imports(request.user)
    context = {
        "form": form,
        "imports": imports,
        "refresh": any(job.status in RUNNING for job in imports),
    }
    return render(request, "clubdata/club_import.html", context, status=400 if form.errors else 200)
