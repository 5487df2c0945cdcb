"""Exporting and importing a club archive: the use cases the page and the API share.

An export is a job (``clubdata.export``, progress by section) that keeps the file in a
:class:`~clubdata.models.ClubExport` for the club's directors to download. An import
reads the file at once (so a file of another format or version, or not JSON at all,
is refused on the spot) and then runs as a job (``clubdata.import``) that creates the
club in one transaction and reports what it created; the upload travels in the job's
hidden ``content`` parameter, compressed, as transcript uploads do.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.urls import reverse

from core import access
from core.errors import N_, BoxcarsError, NotAllowed, RuleViolation
from core.jobs import Progress, start_job
from core.models import Job
from games.models import Club
from games.rules import limits

from .archive import format as archive_format
from .archive.export import build_archive
from .archive.restore import restore_archive
from .models import ClubExport

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
    """Check the file's format and version now, then import it as a new club in a job.

    Any signed-in user may import (as anyone may found a club) and directs the club.
    """
    if not getattr(user, "is_authenticated", False):
        raise NotAllowed("sign_in_required", N_("Sign in to import a club."))
    archive = archive_format.read(data)
    chosen = slug or str((archive.get("club") or {}).get("slug") or "")
    _check_slug(chosen)
    job, _ = start_job(
        kind=IMPORT,
        created_by=user,
        params={
            "slug": chosen,
            "name": name,
            "file_bytes": len(data),
            "content": base64.b64encode(archive_format.compress(data)).decode("ascii"),
        },
    )
    return job


def import_job(job: Job, progress: Progress) -> dict[str, Any]:
    """Create the club from the file, all or nothing; the result counts what was made."""
    data = archive_format.inflate(base64.b64decode(job.params["content"]))
    archive = archive_format.read(data)
    restored = restore_archive(
        archive,
        director=job.created_by,
        slug=job.params.get("slug") or None,
        name=job.params.get("name") or None,
        progress=progress,
    )
    result = restored.as_dict()
    result["url"] = restored.club.get_absolute_url()
    return result
