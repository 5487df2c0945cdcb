"""The API's JSON parser: bounded in size and depth, so a hostile body is a 4xx.

Python's ``json`` recurses once per nesting level: a body nested a few thousand
levels deep raises ``RecursionError`` (not ``ValueError``), which DRF's parser lets
through as a 500. Real bodies nest a handful of levels, so anything deeper than
``MAX_JSON_DEPTH`` is refused before it is parsed, and the parser also honours
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (DRF reads the stream itself, past Django's check).

JSON can also carry values no field of ours can hold (issue #37, item 6), and each
made a 500 somewhere downstream, in 44 operations: a lone surrogate (``"\\ud800"``) is
a Python ``str`` that cannot be encoded, so the error message echoing it, or the
database, fails; ``1e400`` parses to ``inf``, which an id lookup turns into
``OverflowError``. They are refused here, once for every operation, as a 400 that
names the field (``tags[0].label``): the parser is the one place every body passes.
``NaN`` and ``Infinity`` (not JSON at all) are refused the same way. A body is walked
only when its text could hold such a value (a ``\\uD8xx`` escape, a long exponent,
one of those words), so ordinary bodies cost one regular-expression scan.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.errors import N_
from games.rules.errors import BoxcarsError, RuleViolation
from games.rules.limits import MAX_JSON_DEPTH

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
#: Text that may parse to a value no field can hold (see the module): a surrogate
#: escape, an exponent of three digits or more, NaN or Infinity.
_SUSPECT = re.compile(r"\\u[dD][89a-fA-F]|[eE][+-]?\d{3}|NaN|Infinity")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _Constant(float):
    """What ``NaN``/``Infinity`` parse to, so the walk can name their field."""


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


def unrepresentable(value: Any, path: str = "") -> RuleViolation | None:
    """The error for the first value in ``value`` no field can hold, else None.

    A lone surrogate in a string (or a key), a float that is not finite (``1e400``,
    ``NaN``, ``Infinity``); the error's field is the value's path, as the API names
    fields (``player``, ``tags[0].label``).
    """
    if isinstance(value, str):
        if _LONE_SURROGATE.search(value):
            return RuleViolation(
                "lone_surrogate",
                N_(
                    "The text holds a lone surrogate code point (such as \\ud800), "
                    "which is not a character: send valid Unicode text."
                ),
                field=path or None,
            )
        return None
    if isinstance(value, float):
        if isinstance(value, _Constant) or not math.isfinite(value):
            return RuleViolation(
                "not_a_finite_number",
                N_("The number is too large, or not a number at all (NaN, Infinity)."),
                field=path or None,
            )
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            problem = unrepresentable(key, path) or unrepresentable(item, where)
            if problem is not None:
                return problem
    elif isinstance(value, list):
        for index, item in enumerate(value):
            problem = unrepresentable(item, f"{path}[{index}]" if path else str(index))
            if problem is not None:
                return problem
    return None


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
            data = json.loads(text, parse_constant=_Constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if _SUSPECT.search(text):
            problem = unrepresentable(data)
            if problem is not None:
                raise problem
        return data
