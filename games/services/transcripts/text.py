"""A transcript's text: normalised, hashed, decoded from an upload, replayed without
writing anything. No database: what import, export and attach share."""

from __future__ import annotations

import hashlib

from games.rules.replay import ReplayResult, check_text


def normalise_transcript(text: str) -> str:
    """The text that is hashed: no BOM, ``\\n`` line ends, no trailing blanks or lines."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip("\n") + "\n"


def transcript_hash(text: str) -> str:
    """SHA-256 (hex) of the normalised transcript: how a second import is recognised."""
    return hashlib.sha256(normalise_transcript(text).encode("utf-8")).hexdigest()


def decode_transcript(data: bytes) -> str:
    """Uploaded bytes as text: UTF-8 (with or without BOM), else Latin-1 (old Jellyfish)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def check_transcript(*, text: str, name: str, money: bool | None = None) -> ReplayResult:
    """Parse and replay a transcript without writing anything."""
    return check_text(text, name, money=money)
