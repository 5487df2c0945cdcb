"""``Idempotency-Key``: a retried POST returns the first response and writes nothing twice.

The key is *claimed before the work*, as the IETF Idempotency-Key draft and Stripe do:
the request's transaction first inserts a row under the unique constraint on
(scope, key) (``ON CONFLICT DO NOTHING``: one statement, no savepoint), then runs the
handler, then writes the answer into that row and commits both together. A
concurrent retry of the same request blocks on the unique index until the first one
ends; if it committed, the retry finds the stored answer and replays it (same status,
body, ``ETag`` and ``Location``); if it rolled back, the retry's own insert succeeds
and it does the work as a fresh request. So twenty copies of one request sent at
once get one answer, never a mix of 201s and rule refusals from copies that ran
against the state the first one left behind.

Every completed answer below 500 is kept, refusals included: a retry of the same
request gets the same answer, not a second chance against a changed state. A refusal
rolls the work back with the claim (the whole request is one transaction, with no
savepoint to roll back to) and is then kept by claiming the key again with the answer
in it; if a waiting twin claimed the key in between, both answer with the twin's
answer. A 5xx is never kept (the transaction rolls back with the claim), so a retry
after a database failure does the work. The same key with a different method, path or body is a
client error (422), because it cannot mean the same request.

A key belongs to its caller: the authenticated user, or for a phone without an
account, the score link's match and player (``games`` registers that scope with
:func:`register_scope`, so ``core`` knows nothing of score links). Anonymous callers
cannot write, so their requests are passed through without a claim. On SQLite the claim
insert is the first write of the transaction, so writers queue on the database lock
the same way.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import QueryDict
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.history import history_in_bulk
from core.models import IdempotentRequest
from core.transactions import all_or_nothing

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEPT_HEADERS = ("ETag", "Location", "WWW-Authenticate")
MAX_KEY_LENGTH = 255
HONOURS = "honours_idempotency_key"
"""The attribute :func:`idempotent` sets on the handler it wraps: the schema
(``core.api_schema``) declares the header on exactly the operations that read it."""
PENDING = 0
"""The status of a claim whose request is still running (never visible once committed)."""


Scope = Callable[[Request], str | None]
"""Whose key a request's is, for a caller without an account (None: not this kind)."""

_scopes: dict[str, Scope] = {}


def register_scope(name: str, scope: Scope) -> None:
    """Register (or replace) a way of naming an anonymous caller; called from an
    app's ``wiring.py``."""
    _scopes[name] = scope


def _scope(request: Request) -> str | None:
    """Whose key this is: the user, else a registered scope (a score link), else nobody."""
    if request.user and request.user.is_authenticated:
        return f"user:{request.user.pk}"
    for scope in _scopes.values():
        found = scope(request)
        if found is not None:
            return found
    return None


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256()
    assert request.method is not None  # None only for an HttpRequest built by hand
    digest.update(request.method.encode())
    digest.update(request.path.encode())
    if request.content_type.startswith("multipart/form-data"):
        _multipart_fingerprint(request, digest)
    else:
        digest.update(request.body)
    return digest.hexdigest()


def _multipart_fingerprint(request: Request, digest: Any) -> None:
    """An upload's fields and files, not its bytes: a client encodes each try with a new
    random boundary, so the same upload retried must still be the same request."""
    data = request.data
    fields = data.lists() if isinstance(data, QueryDict) else ((k, [v]) for k, v in data.items())
    for name, values in sorted(fields):
        if name in request.FILES:
            continue
        for value in values:
            digest.update(f"\0{name}\0{value}".encode())
    for name, uploads in sorted(request.FILES.lists()):
        for upload in uploads:
            digest.update(f"\0{name}\0{upload.name}\0".encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)


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


def _claim(
    scope: str,
    key: str,
    fingerprint: str,
    *,
    status_code: int = PENDING,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> int | None:
    """Insert the claim row in the current transaction; its id, or None if the key is
    already taken.

    One statement (``INSERT ... ON CONFLICT DO NOTHING RETURNING id``): no lookup
    before it and no savepoint around it. While another transaction holds an
    uncommitted claim on the same key, the insert waits for it (PostgreSQL's unique
    index; SQLite's write lock), so None means that a finished request's answer is
    there to read.
    """
    row = IdempotentRequest(
        scope=scope,
        key=key,
        fingerprint=fingerprint,
        status_code=status_code,
        body=body,
        headers=headers or {},
    )
    opts = IdempotentRequest._meta
    fields = [f for f in opts.concrete_fields if not f.primary_key]
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    values = [f.get_db_prep_save(f.pre_save(row, add=True), connection) for f in fields]
    sql = (
        f"INSERT INTO {quote(opts.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) "
        f"ON CONFLICT ({quote('scope')}, {quote('key')}) DO NOTHING "
        f"RETURNING {quote(opts.pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        inserted = cursor.fetchone()
    return inserted[0] if inserted else None


def _answer(response: Response) -> dict[str, Any]:
    """What is kept of an answer: status, body and the headers a replay repeats."""
    return {
        "status_code": response.status_code,
        "body": getattr(response, "data", None),
        "headers": {h: response[h] for h in KEPT_HEADERS if response.has_header(h)},
    }


def idempotent(view: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF handler so that its POST honours ``Idempotency-Key``.

    The claim, the work and the answer are one :func:`core.transactions.all_or_nothing`
    transaction, so the services join it without savepoints. A refusal (an error the
    handler raises) undoes the work *and the claim*; the answer is then kept by a
    second, short transaction that claims the key with the answer in it. A twin that
    was waiting on the first claim may have done the work in between: then that
    second claim finds the twin's answer, and both requests answer with it.
    """

    @functools.wraps(view)
    def wrapper(self: APIView, request: Request, *args: Any, **kwargs: Any) -> Response:
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
            try:
                with all_or_nothing(), history_in_bulk() as history:
                    claim = _claim(scope, key, fingerprint)
                    if claim is None:  # a twin finished first: replay its answer
                        existing = IdempotentRequest.objects.filter(scope=scope, key=key).first()
                        if existing is None:
                            continue
                        return _replay(existing, fingerprint)
                    response = view(self, request, *args, **kwargs)
                    if response.status_code >= 500:
                        transaction.set_rollback(True)  # drop the claim: a retry does the work
                        return response
                    # the answer goes with the request's audit rows: one statement
                    history.also(IdempotentRequest, claim, **_answer(response))
                    return response
            except Exception as exc:
                # Rendered by DRF's handler (re-raised if it has no answer), after the
                # work and the claim were rolled back together.
                response = self.handle_exception(exc)
            if response.status_code >= 500:
                return response  # never kept: a retry does the work
            with transaction.atomic():
                if _claim(scope, key, fingerprint, **_answer(response)) is not None:
                    return response
                existing = IdempotentRequest.objects.filter(scope=scope, key=key).first()
                if existing is not None:
                    return _replay(existing, fingerprint)
        raise IntegrityError(f"Idempotency-Key {key!r} could be neither claimed nor read.")

    setattr(wrapper, HONOURS, True)
    return wrapper


def honours_key(handler: object) -> bool:
    """Whether a view handler reads ``Idempotency-Key`` (it is wrapped by :func:`idempotent`)."""
    return bool(getattr(handler, HONOURS, False))
