"""The OpenAPI schema's view inspector: what a code generator needs, decided in one place.

drf-spectacular describes each view from its serializers; what it cannot see from them
is decided here, once for every operation, so the schema and the behaviour cannot drift
apart view by view (issue #30: a client generated from the schema must work as is):

- **One body type.** A request body is described in the media type of the view's first
  parser: JSON for every API view, ``multipart/form-data`` for the uploads (transcripts,
  a results file). The API still *accepts* the other types DRF parses (a client that
  posts a form keeps working), but a generator offered three types a body
  ``X | X | X`` and sends multipart with every field twice.
- **Lists are paginated only where they are.** Only a viewset's ``list`` action pages
  its answer; a ``many=True`` answer of another action (``POST .../seed/``) is a plain
  array, not a ``Paginated...List``.
- **``Idempotency-Key``** is declared where the handler reads it:
  :func:`core.idempotency.idempotent` marks the handler and the schema reads that mark
  (issue #25), and such an operation's answers (refusals included: they are stored
  too) may carry ``Idempotent-Replayed``. Where a score link may stand in for an
  account (``X-Score-Link``), the ``scoreLink`` scheme is declared beside the token.
- **Errors.** Every operation declares the error answers it can give, each with the one
  error body, the ``Error`` component (``code``, ``detail``, ``field``, and ``errors``
  when several fields are wrong): 400 for a write or a read with query parameters, 401
  and 403 (a public view may still refuse a read inside), 404 where the path names
  an object, 409 for a write (the state moved on), 412 with ``If-Match``, 413 with a
  body, 422 with ``Idempotency-Key``, 429 (with ``Retry-After``) where the view throttles,
  503 (with ``Retry-After``) everywhere: the database may be away for a moment.
- **Response headers.** ``ETag`` on the answers of an operation that honours
  ``If-Match`` or ``If-None-Match`` (which adds the 304), and on a read or create of an
  object that carries its ``version`` under a path whose writes honour ``If-Match``
  (:func:`etags_of_versioned_objects`, which sees the whole document); ``Location`` on a
  202 (the job to poll); a view declares the rest (``core.api_headers.ETAG``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework.request import Request

from core import api_headers, idempotency

ERROR_SCHEMA = "Error"
FIELD_ERRORS_SCHEMA = "FieldErrors"
LINE_ERROR_SCHEMA = "LineError"

ERROR_COMPONENTS: dict[str, dict[str, Any]] = {
    FIELD_ERRORS_SCHEMA: {
        "type": "object",
        "description": (
            "A refused body's every wrong field with its messages, as DRF words them: "
            '{"name": ["This field is required."], "members": {"1": {"player": [...]}}}. '
            "A nested serializer nests; keys are field names, or list positions."
        ),
        "additionalProperties": {},
    },
    LINE_ERROR_SCHEMA: {
        "type": "object",
        "description": "One refused line of an uploaded file.",
        "properties": {"line": {"type": "integer"}, "message": {"type": "string"}},
        "required": ["line", "message"],
    },
    ERROR_SCHEMA: {
        "type": "object",
        "description": (
            "Every error of the API, whatever raised it: ``code`` is stable (switch on "
            "it), ``detail`` is for people, ``field`` names the first wrong field "
            "(``members[1].player`` for a nested one; null when no single field is). "
            "When several fields are wrong, ``errors`` lists them all (``FieldErrors``); "
            "a refused file lists its lines (``LineError``)."
        ),
        "properties": {
            "code": {"type": "string"},
            "detail": {"type": "string"},
            "field": {"type": "string", "nullable": True},
            "errors": {
                "oneOf": [
                    {"$ref": f"#/components/schemas/{FIELD_ERRORS_SCHEMA}"},
                    {
                        "type": "array",
                        "description": (
                            "A refused file's lines (``LineError``), a refused list "
                            "body's field errors item by item (``FieldErrors``), or "
                            "messages about the whole body."
                        ),
                        "items": {
                            "anyOf": [
                                {"$ref": f"#/components/schemas/{LINE_ERROR_SCHEMA}"},
                                {"$ref": f"#/components/schemas/{FIELD_ERRORS_SCHEMA}"},
                                {"type": "string"},
                            ]
                        },
                    },
                ]
            },
        },
        "required": ["code", "detail", "field"],
    },
}

ERROR_WORDS = {
    "400": "Bad input: the error names the field and the rule.",
    "401": "No account (or no valid token, session or score link).",
    "403": "The account may not do this.",
    "404": "No such object.",
    "409": "The state moved on (a game already recorded, a closed match...).",
    "412": "If-Match is stale or malformed: read again, then retry.",
    "413": "The body (or an upload) is larger than the server accepts.",
    "422": "This Idempotency-Key was used with another request.",
    "429": "Too many requests: wait Retry-After seconds.",
    "503": "The database is away for a moment; nothing was written: retry (same key).",
}

HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {
        "schema": {"type": "string"},
        "description": 'The object\'s version, e.g. "3": send it back in If-Match.',
    },
    "Location": {"schema": {"type": "string"}, "description": "Where the job (or object) is."},
    idempotency.REPLAYED_HEADER: {
        "schema": {"type": "string", "enum": ["true"]},
        "description": "This answer is the stored answer to an earlier request with the key.",
    },
    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."},
}

SCORE_LINK = "X-Score-Link"
SCORE_LINK_SCHEME = "scoreLink"
SCORE_LINK_DEF = {
    "type": "apiKey",
    "in": "header",
    "name": SCORE_LINK,
    "description": (
        "A player's private score link (the token of the link a director hands out), "
        "for a phone without an account: it acts on its own match only. With "
        "openapi-python-client: AuthenticatedClient(base_url=..., token=link, "
        'auth_header_name="X-Score-Link", prefix="").'
    ),
}

WRITES = ("POST", "PUT", "PATCH", "DELETE")
IF_NONE_MATCH = "If-None-Match"


class BoxcarsAutoSchema(AutoSchema):
    """drf-spectacular's inspector, made for code generators (the module docstring)."""

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self.method in WRITES and idempotency.honours_key(self._handler()):
            names = {getattr(p, "name", None) for p in parameters}
            if idempotency.HEADER not in names:
                parameters.append(api_headers.IDEMPOTENCY_KEY)
        return parameters

    def get_auth(self) -> list[Any]:
        """The usual schemes, plus ``scoreLink`` where the operation takes a score link,
        and no scheme at all (``{}``) for a read the view's permissions let anyone make
        (drf-spectacular only knows DRF's own permission classes)."""
        auths: list[Any] = list(super().get_auth())
        if {} not in auths and self._anyone_may_read():
            auths.append({})
        names = {getattr(p, "name", None) for p in self.get_override_parameters()}
        if SCORE_LINK in names:
            self._component(ResolvedComponent.SECURITY_SCHEMA, SCORE_LINK_SCHEME, SCORE_LINK_DEF)
            auths.insert(len([a for a in auths if a]), {SCORE_LINK_SCHEME: []})
        return auths

    def map_parsers(self) -> list[Any]:
        """The first parser's media type only: one body type per operation."""
        parsers = self.view.get_parsers()
        return [parsers[0].media_type] if parsers else []

    def _get_paginator(self) -> Any:
        if getattr(self.view, "action", "list") not in ("list", None):
            return None  # another action's many=True answer is a plain array
        return super()._get_paginator()  # type: ignore[no-untyped-call]

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        for name, schema in ERROR_COMPONENTS.items():
            self._component(ResolvedComponent.SCHEMA, name, schema)
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        responses: dict[str, Any] = operation["responses"]
        if IF_NONE_MATCH in headers:
            responses.setdefault("304", {"description": "Not modified since that ETag."})
        for code in self._error_codes(operation, headers):
            responses.setdefault(code, self._error_response(code))
        for code, response in responses.items():
            self._declare_headers(code, response, headers)
        return operation

    # -- what each operation declares ------------------------------------------------------

    def _error_codes(self, operation: dict[str, Any], headers: set[str]) -> list[str]:
        write = self.method in WRITES
        params = operation.get("parameters", [])
        # 401 and 403 everywhere: besides the writes, a public view may still refuse a
        # read inside (an audit trail, a drop map, a job are for some accounts only)
        codes = ["401", "403", "503"]
        if write or any(p["in"] == "query" for p in params):
            codes.append("400")
        if any(p["in"] == "path" for p in params):
            codes.append("404")
        if write:
            codes.append("409")
        if "If-Match" in headers:
            codes.append("412")
        if "requestBody" in operation:
            codes.append("413")
        if idempotency.HEADER in headers:
            codes.append("422")
        if self._throttled():
            codes.append("429")
        return sorted(codes)

    def _error_response(self, code: str) -> dict[str, Any]:
        return {
            "description": ERROR_WORDS[code],
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}}
            },
        }

    def _declare_headers(self, code: str, response: dict[str, Any], headers: set[str]) -> None:
        declared = response.get("headers", {})
        sent = [name for name in declared if name in HEADERS]  # a view's own (ETag...)
        success = code.startswith("2") or code == "304"
        if success and headers & {"If-Match", IF_NONE_MATCH}:
            sent.append("ETag")
        if code == "202":
            sent.append("Location")
        if idempotency.HEADER in headers and code < "500" and code != "304":
            sent.append(idempotency.REPLAYED_HEADER)
        if code in ("429", "503"):
            sent.append("Retry-After")
        if sent:
            declared = response.setdefault("headers", {})
            for name in sent:
                declared[name] = self._component(ResolvedComponent.HEADER, name)

    def _component(
        self, kind: str, name: str, schema: dict[str, Any] | None = None
    ) -> dict[str, str]:
        """Register a shared component (once) and answer its ``$ref``."""
        component = ResolvedComponent(  # type: ignore[no-untyped-call]
            name=name, type=kind, schema=HEADERS[name] if schema is None else schema, object=name
        )
        self.registry.register_on_missing(component)
        ref: dict[str, str] = component.ref
        return ref

    def _anyone_may_read(self) -> bool:
        if self.method not in ("GET", "HEAD"):
            return False
        bare = HttpRequest()
        bare.method = self.method
        visitor = Request(bare)  # no authenticators: an anonymous visitor
        try:
            return all(p.has_permission(visitor, self.view) for p in self.view.get_permissions())
        except Exception:  # a permission that needs a real request: say it may not
            return False

    def _throttled(self) -> bool:
        try:
            return bool(self.view.get_throttles())
        except AttributeError:  # a throttle that needs a real request: say it may
            return True

    def _handler(self) -> Any:
        action = getattr(self.view, "action", None)
        if action:
            return getattr(self.view, action, None)
        return getattr(self.view, self.method.lower(), None)


def defaults_that_validate(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A postprocessing hook: every ``default`` in the schema is a value its schema accepts.

    DRF fills a field's default in when the field is omitted, without validating it, so
    drf-spectacular may describe ``default: ''`` on a string that refuses a blank one
    (``minLength: 1``), or inside one branch of a ``oneOf`` that only the other branch
    allows (an e-mail field that may be blank: ``format: email`` or ``maxLength: 0``).
    Both make the document invalid, and a generated client sends the default as if the
    caller had chosen it. So a ``oneOf`` branch's default moves up to the field (where the
    blank branch allows it), and a blank default a string refuses is left out: omitting
    the field still means what it meant.
    """
    for component in result.get("components", {}).get("schemas", {}).values():
        for prop in component.get("properties", {}).values():
            for branch in prop.get("oneOf", []):
                if "default" in branch:
                    prop.setdefault("default", branch.pop("default"))
            if prop.get("default") == "" and prop.get("minLength", 0) > 0:
                del prop["default"]
    return result


def etags_of_versioned_objects(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A postprocessing hook: ``ETag`` on the answers that carry a versioned object.

    A read or a create of a match or a tournament answers the object with its
    ``version``, sent as the ``ETag`` the next write's ``If-Match`` names. One operation
    cannot tell that alone (the odds carry the ``version`` they were computed from, and
    send no ETag), so this looks at the whole document: a 2xx JSON body whose schema has
    a ``version``, under a path where some write (there or below) honours ``If-Match``.
    """
    schemas = result.get("components", {}).get("schemas", {})
    versioned_paths = [
        path
        for path, item in result["paths"].items()
        if any(
            p.get("name") == "If-Match" for op in item.values() for p in op.get("parameters", [])
        )
    ]
    for path, item in result["paths"].items():
        prefix = path.rstrip("/")
        if not any(v.startswith(f"{prefix}/") for v in versioned_paths):
            continue
        for method, operation in item.items():
            if method not in ("get", "post"):
                continue
            for code, response in operation["responses"].items():
                body = response.get("content", {}).get("application/json", {}).get("schema", {})
                name = body.get("$ref", "").rsplit("/", 1)[-1]
                if code.startswith("2") and "version" in schemas.get(name, {}).get(
                    "properties", {}
                ):
                    headers = response.setdefault("headers", {})
                    headers.setdefault("ETag", {"$ref": "#/components/headers/ETag"})
    return result
