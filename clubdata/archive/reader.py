"""Reading an archive as data: streamed, bounded, and spooled section by section.

Issue 37: ``json.loads`` of a file that inflated to 99 MB took 34 s and 700 MB per
30 MB inside a web request, and 5,000 levels of nesting ended in ``RecursionError``.
Here the file is read as a stream of JSON events (``ijson`` over its C parser) from
the gzip stream inflated a chunk at a time, so memory is bounded by the largest row,
not the file:

- every row of every section is written, as soon as it is read, to a temporary file
  of its section (:class:`Spool`), which the import then reads back in creation
  order (the file holds its sections in alphabetical order, the import needs
  ``players`` first);
- nesting deeper than :data:`~.format.MAX_DEPTH` and more rows than
  :data:`~.format.MAX_ROWS` are refused where they occur;
- text that is not Unicode (a lone surrogate ``\\ud800``, which the C parser would
  silently turn into ``?``) is refused naming the field: :class:`SurrogateGuard`
  replaces each lone surrogate escape with the non-character U+FFFF on the way in,
  and any text holding U+FFFF is refused.

Every refusal is an :class:`~.format.ArchiveError` naming the place in the file: the
job fails on its first attempt (a bad file does not get better when read again).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any

import ijson

from core.errors import N_

from .format import (
    FORMAT,
    MAX_DEPTH,
    MAX_ROWS,
    VERSION,
    ArchiveError,
    ArchiveTooLarge,
    json_stream,
    not_an_archive,
)
from .sections import BY_NAME, SECTIONS

Progress = Callable[[int, int, str], None]

HEADER = ("format", "version", "exported_at", "club", "counts")
"""The archive's keys that are not sections."""

PROGRESS_EVERY = 10_000
"""Rows read between two progress reports."""

NOT_TEXT = "\uffff"
_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LOW = re.compile(rb"\\u[dD][c-fC-F][0-9a-fA-F]{2}")


class SurrogateGuard:
    """A binary stream's JSON with each lone surrogate escape (``\\ud800`` not followed
    by its low half, or a low half alone) replaced by ``\\uffff``, the same length.

    An escape is only one when an even number of backslashes precedes it; an escape
    cut by a chunk's end is held back until the next chunk completes it."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.carry = b""
        self.tail_run = 0  # backslashes ending what was passed on (their parity matters)
        self.done = False

    def read(self, size: int = -1) -> bytes:
        if size == 0:
            return b""  # ijson asks read(0) what type the stream gives
        while not self.done:
            chunk = self.raw.read(size if size and size > 0 else 64 * 1024)
            final = not chunk
            self.done = final
            out = self._scan(self.carry + chunk, final)
            if out or final:
                return out
        return b""

    def _scan(self, buf: bytes, final: bool) -> bytes:
        data = bytearray(buf)
        skip = 0
        wait: int | None = None
        for match in _ESCAPE.finditer(buf):
            i = match.start()
            if i < skip:
                continue  # the low half of a pair just passed
            j = i
            while j > 0 and buf[j - 1] == 0x5C:
                j -= 1
            if (i - j + (self.tail_run if j == 0 else 0)) % 2:
                continue  # an escaped backslash, then "u...": text, not an escape
            if buf[i + 3] in b"89abAB":  # a high half (D800-DBFF): its low half must follow
                if not final and i + 12 > len(buf):
                    wait = i  # the next chunk tells
                    break
                if _LOW.match(buf, i + 6):
                    skip = i + 12
                    continue
            data[i : i + 6] = b"\\uffff"
        cut = len(buf)
        if not final:  # an escape cut short at the end: hold it back from its backslash
            tail = buf.find(b"\\", max(skip, len(buf) - 5))
            cut = tail if tail >= 0 else cut
            cut = cut if wait is None else min(cut, wait)
        out = bytes(data[:cut])
        self.carry = bytes(data[cut:])
        run = len(out) - len(out.rstrip(b"\\"))
        self.tail_run = run + (self.tail_run if run == len(out) else 0)
        return out


class Spool:
    """The archive's header and, per section, its rows in temporary files (one JSON
    line per row), read back in order by :meth:`rows`."""

    def __init__(self) -> None:
        self.header: dict[str, Any] = {}
        self.seen: set[str] = set()
        self.sizes: dict[str, int] = {}
        self._files: dict[str, IO[bytes]] = {}

    def add(self, name: str, row: Any) -> None:
        spool = self._files.get(name)
        if spool is None:
            spool = self._files[name] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close)
        spool.write(json.dumps(row, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        spool.write(b"\n")
        self.sizes[name] = self.sizes.get(name, 0) + 1

    def size(self, name: str) -> int:
        return self.sizes.get(name, 0)

    def rows(self, name: str) -> Iterator[Any]:
        spool = self._files.get(name)
        if spool is None:
            return
        spool.seek(0)
        for line in spool:
            yield json.loads(line)

    def close(self) -> None:
        for spool in self._files.values():
            spool.close()
        self._files.clear()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _refuse(code: str, message: str, place: str) -> ArchiveError:
    return ArchiveError(code, message, place)


class _Reader:
    """One pass over the events of one file, filling a :class:`Spool`."""

    def __init__(self, spool: Spool, progress: Progress | None = None) -> None:
        self.spool = spool
        self.rows = 0
        self.place = "file"
        self.progress = progress

    def text(self, value: str, place: str) -> str:
        if NOT_TEXT in value:
            raise _refuse(
                "archive_value",
                N_(
                    "%(place)s holds text that is not Unicode (a lone surrogate such as "
                    "\\ud800, or U+FFFF): not a name anyone can read.",
                    place=place,
                ),
                place,
            )
        return value

    def value(
        self, event: str, first: Any, events: Iterator[tuple[str, Any]], place: str, depth: int
    ) -> Any:
        """One JSON value whose first event is ``event``, built without recursion."""
        if event == "string":
            return self.text(first, place)
        if event not in ("start_map", "start_array"):
            return first
        root: Any = {} if event == "start_map" else []
        stack: list[Any] = [root]
        keys: list[Any] = [None]
        for event, value in events:
            if event == "map_key":
                keys[-1] = self.text(value, self.where(place, keys))
                continue
            if event in ("end_map", "end_array"):
                stack.pop()
                keys.pop()
                if not stack:
                    return root
                continue
            if event in ("start_map", "start_array"):
                if depth + len(stack) >= MAX_DEPTH:
                    where = self.where(place, keys)
                    raise _refuse(
                        "archive_too_deep",
                        N_(
                            "%(place)s is nested deeper than %(limit)s levels: no archive "
                            "is, so this file is not one.",
                            place=where,
                            limit=MAX_DEPTH,
                        ),
                        where,
                    )
                value = {} if event == "start_map" else []
            elif event == "string":
                self.text(value, self.where(place, keys))
            top = stack[-1]
            if type(top) is dict:
                top[keys[-1]] = value
            else:
                top.append(value)
            if event in ("start_map", "start_array"):
                stack.append(value)
                keys.append(None)
        raise _refuse("archive_corrupt", N_("The file is cut short."), place)

    @staticmethod
    def where(place: str, keys: list[Any]) -> str:
        return f"{place}.{keys[0]}" if keys and isinstance(keys[0], str) else place

    def read(self, events: Iterator[tuple[str, Any]]) -> None:
        event, _ = next(events, ("", None))
        if event != "start_map":
            raise not_an_archive()
        for event, key in events:
            if event == "end_map":
                break
            self.text(key, "file")
            if key in self.spool.seen:
                raise _refuse(
                    "archive_field",
                    N_('The archive holds "%(name)s" twice.', name=key[:80]),
                    key[:80],
                )
            self.spool.seen.add(key)
            section = BY_NAME.get(key)
            event, first = next(events)
            if section is not None and not section.single:
                self.section(key, event, events)
            elif key in HEADER or section is not None:
                value = self.value(event, first, events, key, 1)
                if section is not None:
                    if value is not None:
                        self.count(key)
                        self.spool.add(key, value)
                else:
                    self.header(key, value)
            else:
                raise _refuse(
                    "archive_field",
                    N_(
                        'The archive holds "%(name)s", which this format version does not know.',
                        name=key[:80],
                    ),
                    key[:80],
                )
        for _extra in events:
            raise _refuse("archive_corrupt", N_("The file holds more after the archive."), "file")

    def header(self, key: str, value: Any) -> None:
        if key == "format" and value != FORMAT:
            raise not_an_archive()
        if key == "version" and (value != VERSION or isinstance(value, bool)):
            raise version_error(value)
        self.spool.header[key] = value

    def section(self, name: str, event: str, events: Iterator[tuple[str, Any]]) -> None:
        if event != "start_array":
            raise _refuse(
                "archive_invalid",
                N_('The section "%(section)s" is not a list.', section=name),
                name,
            )
        for index, (event, first) in enumerate(events):
            if event == "end_array":
                return
            self.place = f"{name}[{index}]"
            self.count(self.place)
            self.spool.add(name, self.value(event, first, events, self.place, 2))

    def count(self, place: str) -> None:
        self.rows += 1
        if self.progress is not None and not self.rows % PROGRESS_EVERY:
            self.progress(0, 1, f"reading the file: {self.rows} rows")
        if self.rows > MAX_ROWS:
            raise ArchiveTooLarge(
                "archive_too_large",
                N_(
                    "%(place)s: the file holds more than %(limit)s rows; an archive holds at "
                    "most that.",
                    place=place,
                    limit=MAX_ROWS,
                ),
                place,
            )


def version_error(version: Any) -> ArchiveError:
    return _refuse(
        "archive_version",
        N_(
            "The archive is of format version %(version)s; this site reads version "
            "%(supported)s only.",
            version=str(version)[:20],
            supported=VERSION,
        ),
        "version",
    )


def read_archive(data: Any, progress: Progress | None = None) -> Spool:
    """The archive in the binary stream ``data`` (gzip or not), streamed into a
    :class:`Spool` (the caller closes it), its format, version and sections checked
    (not yet its rows: :mod:`.restore` checks them); ``progress`` hears how many rows
    were read, every :data:`PROGRESS_EVERY` (reading 99 MB takes minutes)."""
    spool = Spool()
    reader = _Reader(spool, progress)
    try:
        events = ijson.basic_parse(SurrogateGuard(json_stream(data)), use_float=True)
        reader.read(iter(events))
    except ArchiveError:
        spool.close()
        raise
    except (UnicodeDecodeError, ijson.JSONError, ijson.IncompleteJSONError, StopIteration) as exc:
        spool.close()
        raise _unreadable(exc, reader.place) from exc
    try:
        check_complete(spool)
    except ArchiveError:
        spool.close()
        raise
    return spool


def _unreadable(exc: Exception, place: str) -> ArchiveError:
    """The parser's complaint in words: its first line (the C parser's own message
    quotes the bytes around the fault, which may be anything)."""
    said = exc.args[0] if exc.args else ""
    if isinstance(said, bytes):
        said = said.decode("utf-8", "replace")
    problem = str(said).splitlines()[0][:120] if said else "premature end"
    if isinstance(exc, UnicodeDecodeError) or "UTF8" in problem:
        return _refuse(
            "archive_corrupt",
            N_("The file is not UTF-8 text (near %(place)s): not an archive.", place=place),
            "file",
        )
    return _refuse(
        "archive_corrupt",
        N_(
            "The file is not valid JSON (near %(place)s: %(error)s); it may be cut short.",
            place=place,
            error=problem,
        ),
        "file",
    )


def check_complete(spool: Spool) -> None:
    """The header's format and version, and every section with as many rows as the
    archive's ``counts`` says."""
    header = spool.header
    if header.get("format") != FORMAT:
        raise not_an_archive()
    if "version" not in header:
        raise version_error(None)
    counts = header.get("counts")
    if not isinstance(counts, dict):
        raise _refuse(
            "archive_incomplete", N_('The archive has no "counts" of its sections.'), "counts"
        )
    for section in SECTIONS:
        if section.name not in spool.seen:
            raise _refuse(
                "archive_incomplete",
                N_('The archive has no section "%(section)s".', section=section.name),
                section.name,
            )
        declared = counts.get(section.name)
        if declared != spool.size(section.name):
            raise _refuse(
                "archive_incomplete",
                N_(
                    'The section "%(section)s" holds %(found)s rows; the archive says '
                    "%(declared)s.",
                    section=section.name,
                    found=spool.size(section.name),
                    declared=str(declared)[:20],
                ),
                section.name,
            )
