"""``Idempotency-Key``: a retried POST returns the first response and writes nothing twice.

The key is stored in the same transaction as the write it protects, under a unique
constraint on (scope, key). A concurrent retry of the same request waits on that
constraint, then finds the stored response. The same key with a different body is a
client error (422), because it cannot mean the same request.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEPT_HEADERS = ("ETag", "Location")


def _scope(request: Request) -> str:
    if request.user and request.user.is_authenticated:
        return f"user:{request.user.pk}"
    link = getattr(request, "score_link", None)
    if link is not None:
        return f"link:{link[0]}:{link[1]}"
    return "anonymous"


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode())
    digest.update(request.path.encode())
    digest.update(request.body)
    return digest.hexdigest()


def _replay(record: IdempotentRequest, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        return Response(
            {
                "code": "idempotency_key_reused",
                "detail": "This Idempotency-Key was used for a different request.",
                "field": HEADER,
            },
            status=422,
        )
    response = Response(record.body, status=record.status_code)
    for name, value in record.headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


def idempotent(view: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF handler so that its POST honours ``Idempotency-Key``."""

    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key:
            return view(self, request, *args, **kwargs)
        if len(key) > 255:
            return Response(
                {
                    "code": "idempotency_key_too_long",
                    "detail": "At most 255 characters.",
                    "field": HEADER,
                },
                status=400,
            )
        scope, fingerprint = _scope(request), _fingerprint(request)
        existing = IdempotentRequest.objects.filter(scope=scope, key=key).first()
        if existing is not None:
            return _replay(existing, fingerprint)
        try:
            with transaction.atomic():
                response = view(self, request, *args, **kwargs)
                if response.status_code < 500:
                    IdempotentRequest.objects.create(
                        scope=scope,
                        key=key,
                        fingerprint=fingerprint,
                        status_code=response.status_code,
                        body=response.data,
                        headers={h: response[h] for h in KEPT_HEADERS if response.has_header(h)},
                    )
        except IntegrityError:
            # A concurrent twin committed first; its write stands, ours rolled back.
            existing = IdempotentRequest.objects.filter(scope=scope, key=key).first()
            if existing is None:
                raise
            return _replay(existing, fingerprint)
        return response

    return wrapper
