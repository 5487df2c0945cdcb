"""The request headers of a versioned write, described once for the OpenAPI schema.

Every app's writes read the same two headers through ``core`` (``If-Match``:
:func:`core.locking.expected_version`; ``Idempotency-Key``: :func:`core.idempotency.idempotent`),
so the schema's description of them lives beside those readers rather than in a copy
per app. An app adds its own headers after them (the match API: a private score link).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

from core import idempotency

IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False)
IDEMPOTENCY_KEY = OpenApiParameter(idempotency.HEADER, str, OpenApiParameter.HEADER, required=False)

IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the answer you hold: 304 (no body) while it is still current.",
)
"""A versioned read's header (the bracket, the standings)."""

ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=True,
    description='The object\'s version, e.g. "3": send it back in If-Match.',
)
"""The answer's ``ETag``, for a read or a create the schema cannot tell sends it (a
write with ``If-Match`` and a versioned object's answer declare it without help:
``core.api_schema``)."""

LOCATION = OpenApiParameter(
    "Location", str, OpenApiParameter.HEADER, response=[201], description="The new object."
)
"""A create's ``Location`` (a 202's job declares its own: ``core.api_schema``)."""

WRITE_PARAMS = [IF_MATCH, IDEMPOTENCY_KEY]
"""A versioned write's headers, in this order (views slice it: ``[:1]`` is ``If-Match``
alone, ``[1:]`` ``Idempotency-Key`` alone)."""
