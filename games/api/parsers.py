"""The API's JSON parser: bounded in size and depth, so a hostile body is a 4xx.

Python's ``json`` recurses once per nesting level: a body nested a few thousand
levels deep raises ``RecursionError`` (not ``ValueError``), which DRF's parser lets
through as a 500. Real bodies nest a handful of levels, so anything deeper than
``MAX_JSON_DEPTH`` is refused before it is parsed, and the parser also honours
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (DRF reads the stream itself, past Django's check).
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.errors import N_
from games.rules.errors import BoxcarsError
from games.rules.limits import MAX_JSON_DEPTH

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class BodyTooLarge(BoxcarsError):
    """The request body is larger than the server accepts."""

    status_code = 413


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (strings ignored)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def too_large(size: int) -> BodyTooLarge:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return BodyTooLarge(
        "body_too_large",
        N_(
            "The request body is %(size)s bytes; the API accepts at most %(limit)s bytes.",
            size=size,
            limit=limit,
        ),
        None,
    )


class BoundedJSONParser(JSONParser):
    """``JSONParser`` that refuses bodies over the size limit or nested too deeply."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1 if limit is not None else -1)
        if limit is not None and len(raw) > limit:
            raise too_large(len(raw))
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if json_depth(text) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON parse error - the body nests deeper than {MAX_JSON_DEPTH}.")
        try:
            return json.loads(text, parse_constant=self._no_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None

    @staticmethod
    def _no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")
