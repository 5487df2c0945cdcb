"""A club's exported archive, kept for its directors to download.

The database is the one store the web process and the workers share (as for uploaded
transcripts, ``games.transcript_jobs``), so the export job keeps the file here,
gzip-compressed; the newest few per club are kept (``services.KEEP_EXPORTS``).
"""

from __future__ import annotations

from django.db import models


class ClubExport(models.Model):
    """The archive one export job wrote: gzip-compressed JSON and its SHA-256."""

    job = models.OneToOneField("core.Job", on_delete=models.CASCADE, related_name="club_export")
    club = models.ForeignKey("games.Club", on_delete=models.CASCADE, related_name="exports")
    content = models.BinaryField()
    size = models.PositiveIntegerField(help_text="Bytes of the uncompressed JSON.")
    sha256 = models.CharField(max_length=64, help_text="Of the uncompressed JSON.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"export {self.pk} of club {self.club_id}"


class ClubImportUpload(models.Model):
    """An uploaded archive waiting for its import job (issue 37: the request keeps the
    file and answers at once; the job reads it). The bytes as sent (gzip or JSON, at
    most ``archive.format.MAX_UPLOAD_BYTES``), kept out of the job's ``params`` so that
    reading a job never drags the file along. Deleted when its import ends with the
    club made or the file refused; kept while a job may still retry."""

    content = models.BinaryField()
    size = models.PositiveIntegerField(help_text="Bytes as uploaded.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"archive upload {self.pk} ({self.size} bytes)"
