"""Exporting and importing a club archive: the use cases the page and the API share.

An export is a job (``clubdata.export``, progress by section) that keeps the file in a
:class:`~clubdata.models.ClubExport` for the club's directors to download. An import
checks at once only what costs no parsing (the file's size, what it inflates to, a
whole gzip file, JSON that opens an object, a slug asked for) and keeps the upload
(:class:`~clubdata.models.ClubImportUpload`); the job (``clubdata.import``) reads it
as a stream (``archive.reader``) and creates the club in one transaction. Issue 37:
parsing inside the request let a 94 KB file that inflated to 99 MB hold a web worker
for 34 s until it was killed. A file that is wrong fails the job on its first attempt
with the reason and the place (an ``ArchiveError``, which is never retried).
"""

from __future__ import annotations

import base64
import hashlib
import io
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.urls import reverse

from core import access
from core.errors import N_, BoxcarsError, NotAllowed, RuleViolation
from core.jobs import Progress, start_job
from core.models import Job
from games.models import Club
from games.rules import limits

from .archive import format as archive_format
from .archive.export import build_archive
from .archive.reader import read_archive
from .archive.restore import restore_archive
from .models import ClubExport, ClubImportUpload

EXPORT = "clubdata.export"
IMPORT = "clubdata.import"
KEEP_EXPORTS = 3
"""Exports kept per club: older files are deleted when a new one is written."""


def _require_director(user: Any, club: Club) -> None:
    if not access.is_director(user, club):
        raise NotAllowed(
            "directors_only", N_("Only the club's directors export or download its data.")
        )


def start_export(*, user: Any, club: Club) -> Job:
    """Start writing the club's archive; the job's result names the download."""
    _require_director(user, club)
    job, _ = start_job(kind=EXPORT, club=club, created_by=user)
    return job


def export_job(job: Job, progress: Progress) -> dict[str, Any]:
    """Write the archive and keep it (a run again after a lost worker writes it anew)."""
    club = Club.objects.filter(pk=job.club_id).first()  # type: ignore[misc]
    if club is None:
        raise RuleViolation("club_not_found", N_("The club no longer exists."), "club")
    archive = build_archive(club, progress)
    data = archive_format.to_bytes(archive)
    digest = hashlib.sha256(data).hexdigest()
    ClubExport.objects.filter(job=job).delete()
    ClubExport.objects.create(
        job=job,
        club=club,
        content=archive_format.compress(data),
        size=len(data),
        sha256=digest,
    )
    old = ClubExport.objects.filter(club=club).order_by("-created_at", "-id")[KEEP_EXPORTS:]
    ClubExport.objects.filter(pk__in=[e.pk for e in old]).delete()
    return {
        "counts": archive["counts"],
        "bytes": len(data),
        "sha256": digest,
        "download": reverse("clubdata-api-export-file", kwargs={"job_id": job.pk}),
    }


class ExportNotFound(BoxcarsError):
    """No archive kept for that job (404): it failed, runs, was replaced, or is not one."""

    status_code = 404


def export_file(*, user: Any, job_id: int) -> tuple[str, bytes]:
    """The file name and the bytes of a finished export the user may read: the JSON
    gzip-compressed, as kept (``{slug}-{date}.json.gz``), so that the file a director
    downloads is the file an import takes: a club of 20,000 matches is 46 MB of JSON
    but 1.5 MB compressed, well under the upload bound."""
    export = ClubExport.objects.select_related("club").filter(job_id=job_id).first()
    if export is None:
        raise ExportNotFound(
            "export_not_found",
            N_("No archive is kept for this job: it failed, is still running, or was replaced."),
            "job",
        )
    _require_director(user, export.club)
    return f"{export.club.slug}-{export.created_at:%Y-%m-%d}.json.gz", bytes(export.content)


def recent_exports(club: Club) -> list[Job]:
    """The club's latest export jobs, newest first, for the settings page."""
    return list(Job.objects.filter(club=club, kind=EXPORT).order_by("-created_at", "-id")[:5])


def recent_imports(user: Any) -> list[Job]:
    """The user's latest imports, newest first."""
    return list(Job.objects.filter(created_by=user, kind=IMPORT).order_by("-created_at", "-id")[:5])


def _check_slug(slug: str) -> None:
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise archive_format.ArchiveError(
            "slug_invalid", N_("A slug is letters, digits, hyphens and underscores."), "slug"
        ) from exc
    if len(slug) > limits.MAX_CLUB_SLUG:
        raise archive_format.ArchiveError(
            "slug_invalid",
            N_("A slug is at most %(limit)s characters.", limit=limits.MAX_CLUB_SLUG),
            "slug",
        )
    if Club.objects.filter(slug=slug).exists():
        raise archive_format.ArchiveError(
            "slug_taken",
            N_(
                "A club with the slug '%(slug)s' exists on this site: choose another slug "
                "for the imported club.",
                slug=slug,
            ),
            "slug",
        )


def start_import(*, user: Any, data: bytes, slug: str = "", name: str = "") -> Job:
    """Keep the file and start importing it as a new club (202 at once); what can be
    told without parsing it is refused now (see the module).

    Any signed-in user may import (as anyone may found a club) and directs the club.
    """
    if not getattr(user, "is_authenticated", False):
        raise NotAllowed("sign_in_required", N_("Sign in to import a club."))
    inflated = archive_format.check_upload(data)
    if slug:
        _check_slug(slug)  # the file's own slug is checked by the job, which reads it
    with transaction.atomic():
        upload = ClubImportUpload.objects.create(content=data, size=len(data))
        job, _ = start_job(
            kind=IMPORT,
            created_by=user,
            params={
                "slug": slug,
                "name": name,
                "file_bytes": len(data),
                "json_bytes": inflated,
                "upload": upload.pk,
            },
        )
    return job


def _uploaded(job: Job) -> bytes:
    """The file the job imports: its kept upload (or, for a job queued before uploads
    were kept apart, its ``content`` parameter)."""
    if "content" in job.params:
        return base64.b64decode(job.params["content"])
    upload = ClubImportUpload.objects.filter(pk=job.params.get("upload")).first()
    if upload is None:
        raise archive_format.ArchiveError(
            "archive_gone",
            N_("The uploaded file is no longer kept: upload it again."),
            "file",
        )
    return bytes(upload.content)


def import_job(job: Job, progress: Progress) -> dict[str, Any]:
    """Create the club from the file, all or nothing; the result counts what was made.

    The file is read as a stream into a spool (bounded memory); a refusal fails the job
    at once, and the kept upload goes with a refusal or a success (not with an
    unexpected error, which is retried)."""
    progress(0, 1, "reading the file")
    try:
        with read_archive(io.BytesIO(_uploaded(job)), progress) as spool:
            restored = restore_archive(
                spool,
                director=job.created_by,
                slug=job.params.get("slug") or None,
                name=job.params.get("name") or None,
                progress=progress,
            )
    except archive_format.ArchiveError:
        ClubImportUpload.objects.filter(pk=job.params.get("upload")).delete()
        raise
    ClubImportUpload.objects.filter(pk=job.params.get("upload")).delete()
    result = restored.as_dict()
    result["url"] = restored.club.get_absolute_url()
    return result
