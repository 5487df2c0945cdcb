"""The archive file: its name and version, its size bounds, reading and writing bytes.

An archive is one JSON object (``docs/club-archive.md``), written UTF-8 and, as
downloaded, gzip-compressed or not: an import takes either (a gzip file is told by its
first two bytes). What is read is bounded twice: the upload itself
(:data:`MAX_UPLOAD_BYTES`, as the project bounds every upload) and what it inflates to
(:data:`MAX_JSON_BYTES`, so a small gzip cannot expand into a huge one).
"""

from __future__ import annotations

import gzip
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


def inflate(data: bytes) -> bytes:
    """Plain JSON bytes from ``data`` (gzip or not), bounded by :data:`MAX_JSON_BYTES`."""
    if data[:2] != b"\x1f\x8b":
        return data
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, MAX_JSON_BYTES + 1)
    except zlib.error as exc:
        raise ArchiveError(
            "archive_corrupt",
            N_("The file is not a readable gzip file (%(error)s).", error=str(exc)),
            "file",
        ) from exc
    if len(out) > MAX_JSON_BYTES:
        raise ArchiveTooLarge(
            "archive_too_large",
            N_(
                "The file inflates to more than %(limit)s bytes; an archive is at most that.",
                limit=MAX_JSON_BYTES,
            ),
            "file",
        )
    if not inflater.eof:
        raise ArchiveError(
            "archive_truncated", N_("The gzip file is cut short: download it again."), "file"
        )
    return out


def read(data: bytes) -> dict[str, Any]:
    """The archive in ``data``, checked for its format and version (not yet its rows)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ArchiveTooLarge(
            "archive_too_large",
            N_(
                "The file is %(size)s bytes; an import takes at most %(limit)s bytes "
                "(compress it with gzip).",
                size=len(data),
                limit=MAX_UPLOAD_BYTES,
            ),
            "file",
        )
    if not data:
        raise ArchiveError("archive_empty", N_("The file is empty."), "file")
    text = inflate(data)
    try:
        archive = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ArchiveError(
            "archive_corrupt", N_("The file is not UTF-8 text: not an archive."), "file"
        ) from exc
    except json.JSONDecodeError as exc:
        raise ArchiveError(
            "archive_corrupt",
            N_(
                "The file is not valid JSON (line %(line)s, column %(column)s: %(error)s); "
                "it may be cut short.",
                line=exc.lineno,
                column=exc.colno,
                error=exc.msg,
            ),
            "file",
        ) from exc
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ArchiveError(
            "archive_format",
            N_(
                'The file is not a Boxcars club archive (no "format": "%(format)s").', format=FORMAT
            ),
            "file",
        )
    version = archive.get("version")
    if version != VERSION:
        raise ArchiveError(
            "archive_version",
            N_(
                "The archive is of format version %(version)s; this site reads version "
                "%(supported)s only.",
                version=version,
                supported=VERSION,
            ),
            "version",
        )
    return archive
