"""``Idempotency-Key``: a retried POST returns the first response and writes nothing twice.

The key is *claimed before the work*, as the IETF Idempotency-Key draft and Stripe do:
the request's transaction first inserts a row under the unique constraint on
(scope, key), then runs the handler, then writes the answer into that row and
commits both together. A concurrent retry of the same request blocks on the unique
index until the first one ends; if it committed, the retry finds the stored answer
and replays it (same status, body, ``ETag`` and ``Location``); if it rolled back, the
retry's own insert succeeds and it does the work as a fresh request. So twenty copies
of one request sent at once get one answer, never a mix of 201s and rule refusals
from copies that ran against the state the first one left behind.

Every completed answer below 500 is kept, refusals included: a retry of the same
request gets the same answer, not a second chance against a changed state. A 5xx is
never kept (the transaction rolls back with the claim), so a retry after a database
failure does the work. The same key with a different method, path or body is a
client error (422), because it cannot mean the same request.

A key belongs to its caller: the authenticated user, or for a phone without an
account, the score link's match and player. Anonymous callers cannot write, so their
requests are passed through without a claim. On SQLite the claim insert is the first
write of the transaction, so writers queue on the database lock the same way.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from games import score_links
from games.models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEPT_HEADERS = ("ETag", "Location", "WWW-Authenticate")
MAX_KEY_LENGTH = 255
PENDING = 0
"""The status of a claim whose request is still running (never visible once committed)."""


def _scope(request: Request) -> str | None:
    """Whose key this is: the user, else the score link's match and player, else nobody."""
    if request.user and request.user.is_authenticated:
        return f"user:{request.user.pk}"
    token = score_links.token_of(request)
    link = score_links.read_token(token) if token else None
    if link is not None:
        return f"link:{link[0]}:{link[1]}"
    return None


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256()
    assert request.method is not None  # None only for an HttpRequest built by hand
    digest.update(request.method.encode())
    digest.update(request.path.encode())
    digest.update(request.body)
    return digest.hexdigest()


def _error(code: str, detail: str, status: int) -> Response:
    return Response({"code": code, "detail": detail, "field": HEADER}, status=status)


def _replay(record: IdempotentRequest, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        return _error(
            "idempotency_key_reused", "This Idempotency-Key was used for a different request.", 422
        )
    if record.status_code == PENDING:  # defensive: a claim is committed with its answer
        return _error(
            "idempotency_request_in_progress",
            "A request with this Idempotency-Key is still being processed; retry shortly.",
            409,
        )
    response = Response(record.body, status=record.status_code)
    for name, value in record.headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


def _claim(scope: str, key: str, fingerprint: str) -> IdempotentRequest | None:
    """Insert the claim row in the current transaction; None if the key is already taken.

    While another transaction holds an uncommitted claim on the same key, the insert
    waits for it (PostgreSQL's unique index; SQLite's write lock), so None means that
    a finished request's answer is there to read.
    """
    try:
        with transaction.atomic():
            return IdempotentRequest.objects.create(
                scope=scope, key=key, fingerprint=fingerprint, status_code=PENDING, body=None
            )
    except IntegrityError:
        return None


def _run(
    view: Callable[..., Response], self: Any, request: Request, *args: Any, **kwargs: Any
) -> Response:
    """The handler's answer, its errors rendered as DRF would, its writes undone on error."""
    try:
        with transaction.atomic():
            return view(self, request, *args, **kwargs)
    except Exception as exc:
        # Rendered by DRF's handler (re-raised if it has no answer), inside the claim's
        # transaction, so a refusal is stored with the claim like any other answer.
        return self.handle_exception(exc)


def idempotent(view: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF handler so that its POST honours ``Idempotency-Key``."""

    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key or request.method in SAFE_METHODS:
            return view(self, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            return _error("idempotency_key_too_long", f"At most {MAX_KEY_LENGTH} characters.", 400)
        scope = _scope(request)
        if scope is None:
            return view(self, request, *args, **kwargs)
        fingerprint = _fingerprint(request)
        for _attempt in range(2):  # a second pass only if the row vanished (a purge)
            existing = IdempotentRequest.objects.filter(scope=scope, key=key).first()
            if existing is not None:
                return _replay(existing, fingerprint)
            with transaction.atomic():
                claim = _claim(scope, key, fingerprint)
                if claim is None:
                    continue  # a twin finished first: read and replay its answer
                response = _run(view, self, request, *args, **kwargs)
                if response.status_code >= 500:
                    transaction.set_rollback(True)  # drop the claim: a retry does the work
                    return response
                claim.status_code = response.status_code
                claim.body = getattr(response, "data", None)
                claim.headers = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
                claim.save(update_fields=["status_code", "body", "headers"])
                return response
        raise IntegrityError(f"Idempotency-Key {key!r} could be neither claimed nor read.")

    return wrapper
