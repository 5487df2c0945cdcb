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
