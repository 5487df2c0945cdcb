"""The archive file: its name and version, its size bounds, reading and writing bytes.

An archive is one JSON object (``docs/club-archive.md``), written UTF-8 and, as
downloaded, gzip-compressed or not: an import takes either (a gzip file is told by its
first two bytes). What is read is bounded twice: the upload itself
(:data:`MAX_UPLOAD_BYTES`, as the project bounds every upload) and what it inflates to
(:data:`MAX_JSON_BYTES`, so a small gzip cannot expand into a huge one), both while
the bytes stream in, never holding the inflated file whole. The request checks only
these bounds (:func:`check_upload`); the job reads the rows (:mod:`.reader`).
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from typing import Any

from core.errors import N_, BoxcarsError

FORMAT = "boxcars-club-archive"
VERSION = 1

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
"""The largest file an import accepts (gzip-compressed or plain JSON), as transcripts."""
MAX_JSON_BYTES = 100 * 1024 * 1024
"""The largest JSON a compressed file may inflate to."""
MAX_DEPTH = 32
"""The deepest nesting read (an archive's deepest value, a chouette's JSON, is 6)."""
MAX_ROWS = 1_000_000
"""The most rows a file may hold, all sections together (a club of 20,000 matches has
160,000, and 100 MB of JSON holds about 350,000 rows of a real club)."""


class ArchiveError(BoxcarsError):
    """A file that is not an archive this site can import: nothing was written.

    ``field`` names the place in the file (``matches[12].player1``) or the form field
    (``file``, ``slug``)."""

    status_code = 400


class ArchiveTooLarge(ArchiveError):
    """A file over the bounds: 413, as every too-large upload."""

    status_code = 413


def to_bytes(archive: dict[str, Any]) -> bytes:
    """The archive as plain JSON bytes, keys in a fixed order (two exports of one club
    compare equal). Compact: with ``indent`` the json module leaves its C encoder, and
    writing a 60 MB archive took 31 s instead of a few (pretty-print it to read it)."""
    return json.dumps(archive, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode(
        "utf-8"
    )


def compress(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


class _Inflating:
    """A binary stream's bytes, inflated a chunk at a time if they are gzip (told by the
    first two bytes), refused past :data:`MAX_JSON_BYTES`: what is read is never held
    whole, so a small file that inflates to a huge one costs time, not memory."""

    CHUNK = 256 * 1024

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.pending = raw.read(2)
        self.inflater = (
            zlib.decompressobj(wbits=16 + zlib.MAX_WBITS) if self.pending == b"\x1f\x8b" else None
        )
        self.total = 0
        self.ended = False

    def read(self, size: int = -1) -> bytes:
        if size == 0:
            return b""  # ijson asks read(0) what type the stream gives
        size = size if size > 0 else self.CHUNK
        while not self.ended:
            out = self._next(size)
            if out:
                self.total += len(out)
                if self.total > MAX_JSON_BYTES:
                    raise too_large_inflated()
                return out
        return b""

    def _next(self, size: int) -> bytes:
        if self.inflater is None:
            data, self.pending = self.pending + self.raw.read(size), b""
            self.ended = not data
            return data
        try:
            if self.inflater.unconsumed_tail:
                return self.inflater.decompress(self.inflater.unconsumed_tail, size)
            if self.inflater.eof:
                self.ended = True
                return b""
            data, self.pending = self.pending + self.raw.read(self.CHUNK), b""
            if not data:
                raise ArchiveError(
                    "archive_truncated",
                    N_("The gzip file is cut short: download it again."),
                    "file",
                )
            return self.inflater.decompress(data, size)
        except zlib.error as exc:
            raise ArchiveError(
                "archive_corrupt",
                N_("The file is not a readable gzip file (%(error)s).", error=str(exc)),
                "file",
            ) from exc


def json_stream(raw: Any) -> Any:
    """The JSON bytes of the binary stream ``raw`` (gzip or not), inflated as read and
    bounded by :data:`MAX_JSON_BYTES` (``read(size)``, as ``ijson`` reads)."""
    return _Inflating(raw)


def too_large_upload(size: int) -> ArchiveTooLarge:
    return ArchiveTooLarge(
        "archive_too_large",
        N_(
            "The file is %(size)s bytes; an import takes at most %(limit)s bytes "
            "(compress it with gzip).",
            size=size,
            limit=MAX_UPLOAD_BYTES,
        ),
        "file",
    )


def too_large_inflated() -> ArchiveTooLarge:
    return ArchiveTooLarge(
        "archive_too_large",
        N_(
            "The file inflates to more than %(limit)s bytes; an archive is at most that.",
            limit=MAX_JSON_BYTES,
        ),
        "file",
    )


def check_upload(data: bytes) -> int:
    """What the request checks of an upload before it keeps it (the job reads it): not
    empty, within both bounds (inflated a chunk at a time, nothing kept), a whole gzip
    file, and JSON that opens an object. Returns the inflated size. Everything else
    about the file is the job's to read (``reader.read_archive``)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise too_large_upload(len(data))
    stream = json_stream(io.BytesIO(data))
    first = b""
    while True:
        chunk = stream.read()
        if not chunk:
            break
        if not first:
            first = chunk.lstrip(b" \t\r\n")[:1]
    if not first:
        raise ArchiveError("archive_empty", N_("The file is empty."), "file")
    if first != b"{":
        raise not_an_archive()
    return int(stream.total)


def not_an_archive() -> ArchiveError:
    return ArchiveError(
        "archive_format",
        N_('The file is not a Boxcars club archive (no "format": "%(format)s").', format=FORMAT),
        "file",
    )
