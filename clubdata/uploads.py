"""An archive's upload, bounded while it streams in (issue 37).

Django writes an upload to memory or a temporary file *before* a view sees it, however
large it is; :class:`BoundedUploadHandler`, installed on the import's two doors before
the body is read, keeps at most :data:`~.archive.format.MAX_UPLOAD_BYTES` and drops
the rest as it arrives (reading on, so the client still gets its answer), so a
too-large file costs neither memory nor disk. What the file inflates to is bounded
next, as it is inflated (``archive.format.check_upload``).
"""

from __future__ import annotations

import io
from typing import Any

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest

from core.errors import N_, RuleViolation

from .archive import format as archive_format


class BoundedUploadHandler(FileUploadHandler):
    """Keeps an uploaded file in memory up to the bound; past it, drops the file and
    remembers how much had come (``refused``)."""

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.buffer = io.BytesIO()
        self.received = 0
        self.refused = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.buffer = io.BytesIO()
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self.received += len(raw_data)
        if self.received > archive_format.MAX_UPLOAD_BYTES:
            self.refused = self.received
            self.buffer = io.BytesIO()
            raise SkipFile
        self.buffer.write(raw_data)

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        self.buffer.seek(0)
        return InMemoryUploadedFile(
            file=self.buffer,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )


def bound(request: HttpRequest) -> None:
    """Bound this request's uploads (before anything reads its body)."""
    handler = BoundedUploadHandler(request)
    request.upload_handlers = [handler]
    request._archive_upload = handler  # type: ignore[attr-defined]


def upload_bytes(request: HttpRequest, upload: Any) -> bytes:
    """The uploaded file's bytes; refused (413) if it was over the bound."""
    handler = getattr(request, "_archive_upload", None)
    if handler is not None and handler.refused:
        raise archive_format.too_large_upload(handler.refused)
    if upload is None:
        raise RuleViolation("file_required", N_("Attach the archive as 'file'."), "file")
    if upload.size > archive_format.MAX_UPLOAD_BYTES:
        raise archive_format.too_large_upload(upload.size)
    return bytes(upload.read())
