"""Fuzz the whole API from its OpenAPI schema (schemathesis), in-process.

For every operation of ``/api/schema/``, schemathesis generates requests (valid ones
and, for the negative phase, ones the schema forbids) and sends them to the WSGI
application as an anonymous client and as the club's director (an API token). Each
answer must:

* never be a 5xx;
* conform to the schema: a documented status's body matches its schema, with the
  documented content type;
* if it is a 4xx, carry the project's error shape (``core/api_errors.py``):
  ``{"code": str, "detail": str, "field": str | null}``.

The generators never send what JSON can carry but no field can hold (a lone surrogate,
``1e400``, ``NaN``) nor header bytes that are not UTF-8: a third test
(:func:`test_hostile_bytes_in_every_operation`) sends those to every operation
explicitly (issue #37, item 6).

Two phases per operation:

* **boundary** (schemathesis's coverage phase; as the director, since an anonymous
  write stops at 401 before any value is read): every declared bound at and past its
  edge (``maximum``, ``maximum + 1``, ``maxLength + 1``, a missing required field, a
  wrong type, ...), positive and negative, each case sent once as generated and once
  aimed at the world's real objects; at most ``FUZZ_COVERAGE`` cases per operation
  (default 150);
* **random** (hypothesis, as both clients): ``FUZZ_EXAMPLES`` generated cases per
  operation (default 25), valid and invalid.

Every request runs in a savepoint that is rolled back, so the club world stays the
same for each case. CI runs this on PostgreSQL (``DATABASE_URL``): numbers beyond a
column and NUL characters only fail there, SQLite stores both happily.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from tests.factories import token_for
from tests.security.world import build_world, path_params

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
#: The operations are fuzzed in this many parts (every operation in exactly one), so
#: parallel test processes (pytest-xdist) share the work instead of one taking it all.
PARTS = 6
COVERAGE = int(os.environ.get("FUZZ_COVERAGE", "150"))
LOCMEM = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "api-fuzz",
    }
}

pytestmark = pytest.mark.django_db


def error_shape_problem(status: int, body: bytes, content_type: str) -> str | None:
    """Why a 4xx body is not the documented error shape (None when it is)."""
    if not 400 <= status < 500:
        return None
    if "json" not in content_type:
        return f"{status} answered {content_type!r}, not JSON"
    try:
        data = json.loads(body)
    except ValueError:
        return f"{status} answered a body that is not JSON"
    if not isinstance(data, dict):
        return f"{status} answered {type(data).__name__}, not an object"
    missing = {"code", "detail", "field"} - set(data)
    if missing:
        return f"{status} body lacks {sorted(missing)}: {data!r}"[:300]
    if not isinstance(data["code"], str) or not isinstance(data["detail"], str):
        return f"{status} code/detail are not strings: {data!r}"[:300]
    if data["field"] is not None and not isinstance(data["field"], str):
        return f"{status} field is neither a string nor null: {data!r}"[:300]
    return None


def _strategy(operation: Any, world: Any) -> st.SearchStrategy:
    """Cases with generated path parameters, and cases aimed at the world's real objects
    (so bodies and queries reach the views) with valid and with invalid data."""
    real = path_params(operation.path, world)
    aimed = {name: real[name] for name in _path_names(operation) if name in real}
    strategies = [operation.as_strategy()]
    if aimed:
        strategies.append(operation.as_strategy(path_parameters=aimed))
    with contextlib.suppress(Exception):  # an operation may have nothing to negate
        strategies.append(
            operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=aimed or None)
        )
    return st.one_of(strategies)


def _boundary_cases(schema: Any, operation: Any, world: Any) -> Iterator[Any]:
    """Schemathesis's coverage phase: each bound at and past its edge, valid and invalid.

    A case that varies a body, query or header value is sent a second time aimed at the
    world's real objects, so the value reaches the view and the database, not a 404.
    """
    real = path_params(operation.path, world)
    aimed = {name: real[name] for name in _path_names(operation) if name in real}
    generated = schema.iter_coverage_cases(
        operation,
        generation_modes=list(GenerationMode),
        generation_config=schema.config.generation_for(operation=operation, phase="coverage"),
    )
    for case in itertools.islice(generated, COVERAGE):
        data = case._meta.phase.data if case._meta is not None else None
        about_path = getattr(data, "parameter_location", None) == ParameterLocation.PATH
        yield case
        if aimed and not about_path:
            case.path_parameters = {**(case.path_parameters or {}), **aimed}
            yield case


def _path_names(operation: Any) -> list[str]:
    return re.findall(r"\{(\w+)\}", operation.path)


def _operations(schema: Any) -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]


@pytest.fixture
def api_world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from rest_framework.throttling import SimpleRateThrottle

    # Like Django's test client: a request's end must not close the test's connection
    # (inside the test transaction, Django would close it as unusable).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    previous = SimpleRateThrottle.THROTTLE_RATES
    # the fuzzer is one very busy client: lift every scope's limit
    SimpleRateThrottle.THROTTLE_RATES = {scope: "100000/min" for scope in previous}
    with override_settings(CACHES=LOCMEM):
        world = build_world()
        token = token_for(world.users["director"])[1]
        yield world, token
    SimpleRateThrottle.THROTTLE_RATES = previous
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_the_parts_cover_every_operation_once():
    schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
    everything = [f"{o.method} {o.path}" for o in _operations(schema)]
    parts = [f"{o.method} {o.path}" for p in range(PARTS) for o in _operations(schema)[p::PARTS]]
    assert len(everything) > 50 and sorted(parts) == sorted(everything)


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("who", ["anonymous", "director"])
def test_fuzz_every_operation(api_world, who, part, capsys):
    world, token = api_world
    app = WSGIHandler()
    schema = schemathesis.openapi.from_wsgi("/api/schema/", app)
    headers = {"Authorization": f"Token {token}"} if who == "director" else {}
    statuses: Counter[int] = Counter()
    problems: list[str] = []
    operations = _operations(schema)[part::PARTS]

    def send(case: Any) -> None:
        with transaction.atomic():
            response = case.call(headers=headers)
            transaction.set_rollback(True)
        statuses[response.status_code] += 1
        label = f"{case.method} {case.formatted_path}"
        for check in (
            not_a_server_error,
            content_type_conformance,
            response_schema_conformance,
        ):
            try:
                case.validate_response(response, checks=[check], headers=headers)
            except (Exception, BaseExceptionGroup) as failure:  # every failure, collected
                problems.append(f"{label}: {check.__name__}: {str(failure)[:400]}")
        shape = error_shape_problem(
            response.status_code,
            response.content,
            response.headers.get("content-type", [""])[0]
            if isinstance(response.headers.get("content-type"), list)
            else response.headers.get("content-type", ""),
        )
        if shape:
            problems.append(f"{label}: error shape: {shape}")

    if who == "director":  # anonymous writes stop at 401 before any value is read
        for operation in operations:
            for case in _boundary_cases(schema, operation, world):
                send(case)

    for operation in operations:
        strategy = _strategy(operation, world)

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=strategy)
        def run(case: Any) -> None:
            send(case)

        run()

    with capsys.disabled():
        print(
            f"\nAPI fuzz as {who}, part {part + 1} of {PARTS}: {len(operations)} operations, "
            f"{sum(statuses.values())} requests, statuses {dict(sorted(statuses.items()))}"
        )
    unique = sorted(set(problems))
    assert not unique, f"{len(unique)} problems:\n" + "\n".join(unique[:40])


#: What no field can hold (issue #37, item 6), as raw JSON: a lone surrogate, numbers
#: beyond a float and JSON's missing constants. The generators never send these.
HOSTILE_VALUES = ['"\\ud800"', '"a\\udfffb"', "1e400", "-1e400", "NaN", "Infinity"]
#: Authorization headers whose bytes are not UTF-8 (as WSGI hands them over: Latin-1).
HOSTILE_AUTHORIZATION = [b"Token \xff\xfe", b"Token \xc3\x28" + b"0" * 62, b"\x80\x81"]


def _body_properties(schema: dict[str, Any], operation: dict[str, Any]) -> list[str]:
    """The top-level properties of an operation's JSON body (its ``$ref`` resolved)."""
    content = operation.get("requestBody", {}).get("content", {})
    body = content.get("application/json", {}).get("schema")
    if body is None:
        return []
    while "$ref" in body:
        body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    return sorted(body.get("properties", {})) or ["value"]


def test_hostile_bytes_in_every_operation(api_world, client):
    """Every operation with a JSON body gets each of :data:`HOSTILE_VALUES` in each of
    its body's properties, and every operation :data:`HOSTILE_AUTHORIZATION`, as the
    director with the world's real path parameters: never a 5xx, every 4xx in the error
    shape, and each hostile value that reaches a body is a 400 naming its property."""
    world, token = api_world
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    problems: list[str] = []
    named = sent = 0

    def send(method: str, path: str, label: str, **extra: Any) -> Any:
        with transaction.atomic():
            response = getattr(client, method)(path, **extra)
            transaction.set_rollback(True)
        if response.status_code >= 500:
            problems.append(f"{label}: {response.status_code}")
        if response.streaming:  # a CSV export or a live stream: a 2xx, nothing to shape
            # closed unread as Django's test client closes a response: without the
            # request_finished hook, which would close the test's own connection (it is
            # inside the test's transaction, so "obsolete")
            request_finished.disconnect(close_old_connections)
            try:
                response.close()
            finally:
                request_finished.connect(close_old_connections)
            return response
        shape = error_shape_problem(
            response.status_code, response.content, response.get("Content-Type", "")
        )
        if shape:
            problems.append(f"{label}: {shape}")
        return response

    for template, item in schema["paths"].items():
        real = path_params(template, world)

        def filled(m: re.Match[str], real: dict = real) -> str:
            return str(real.get(m.group(1), 1))

        path = re.sub(r"\{(\w+)\}", filled, template)
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            for raw in HOSTILE_AUTHORIZATION:
                response = send(
                    method,
                    path,
                    f"{method.upper()} {template} Authorization {raw!r}",
                    HTTP_AUTHORIZATION=raw.decode("latin-1"),
                )
                if raw.startswith(b"Token ") and response.status_code not in (401, 403):
                    problems.append(f"{method} {template}: {raw!r} gave {response.status_code}")
            for prop in _body_properties(schema, operation):
                for value in HOSTILE_VALUES:
                    label = f"{method.upper()} {template} {prop}={value}"
                    response = send(
                        method,
                        path,
                        label,
                        data='{"%s": %s}' % (prop, value),  # noqa: UP031 (raw JSON text)
                        content_type="application/json",
                        HTTP_AUTHORIZATION=f"Token {token}",
                    )
                    sent += 1
                    if response.status_code == 400:
                        field = response.json()["field"]
                        if field != prop:
                            problems.append(f"{label}: 400 naming {field!r}")
                        named += 1
    unique = sorted(set(problems))
    assert not unique, f"{len(unique)} problems:\n" + "\n".join(unique[:40])
    assert sent > 300 and named > sent // 2, (sent, named)  # most reach the parser


def test_error_shape_check_catches_a_bare_drf_error():
    assert error_shape_problem(400, b'{"name": ["This field is required."]}', "application/json")
    assert error_shape_problem(404, b"<h1>Not Found</h1>", "text/html")
    assert (
        error_shape_problem(
            400, b'{"code": "required", "detail": "x", "field": "name"}', "application/json"
        )
        is None
    )
    assert error_shape_problem(200, b"[]", "application/json") is None
