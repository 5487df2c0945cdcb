"""One error shape for the whole API: ``{"code": ..., "detail": ..., "field": ...}``.

Domain errors (``core.errors.BoxcarsError``) carry their own code and status;
DRF's validation errors are flattened to the first field in error, with every field's
messages kept under ``errors`` so a client can show them all.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.errors import BoxcarsError, Text


def translated(message: str) -> str:
    """The message in the active language: an ``N_`` text's template, filled in after.

    A message not in the catalog (or a plain string) stays as written, in English.
    """
    if isinstance(message, Text):
        return str(message)
    return gettext(message) if message else message


def _first_error(detail: Any, prefix: str = "") -> tuple[str | None, str, str]:
    """Walk a nested ValidationError detail to its first leaf: (field, code, message)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
                # a list serializer's errors, keyed by index (DRF 3.16+)
                return _first_error(value, f"{prefix}[{key}]" if prefix else str(key))
            name = key if key != "non_field_errors" else ""
            path = f"{prefix}.{name}" if prefix and name else (name or prefix)
            return _first_error(value, path)
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, dict | list):
                return _first_error(value, f"{prefix}[{index}]" if prefix else str(index))
            return _first_error(value, prefix)
    code = getattr(detail, "code", "invalid") or "invalid"
    return (prefix or None, str(code), str(detail))


def body_too_large() -> dict[str, Any]:
    """The 413 body for a request larger than the server accepts."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return {
        "code": "body_too_large",
        "detail": gettext("The request body is larger than the %(limit)s bytes the API accepts.")
        % {"limit": limit},
        "field": None,
    }


def boxcars_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map every error to the documented body; let DRF set headers (WWW-Authenticate...)."""
    if isinstance(exc, BoxcarsError):
        answer = Response(
            {**exc.as_dict(), "detail": translated(exc.message)}, status=exc.status_code
        )
        retry_after = getattr(exc, "retry_after", None)
        if retry_after:  # a cap (core.mail_caps): when to come back
            answer["Retry-After"] = str(retry_after)
        return answer
    if isinstance(exc, RequestDataTooBig | TooManyFieldsSent):
        # Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE when a view reads it.
        return Response(body_too_large(), status=413)
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is unreachable (a restart, a failover): nothing was written,
        # and the client may safely retry, with the same Idempotency-Key.
        unavailable = Response(
            {
                "code": "database_unavailable",
                "detail": gettext(
                    "The database is unavailable for a moment; nothing was recorded. "
                    "Try again shortly."
                ),
                "field": None,
            },
            status=503,
        )
        unavailable["Retry-After"] = "5"
        return unavailable
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, code, message = _first_error(exc.detail)
        response.data = {"code": code, "detail": message, "field": field, "errors": exc.detail}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    detail = getattr(exc, "detail", str(exc))
    code = detail.code if hasattr(detail, "code") else getattr(exc, "default_code", "error")
    response.data = {"code": str(code), "detail": str(detail), "field": None}
    return response
