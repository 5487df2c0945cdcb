"""Holding a real answer to the OpenAPI schema that describes it, with every object closed.

``openapi_schema_validator`` checks a body against the schema's declared response; the
schema is first *closed*: every object schema that names its properties gets
``additionalProperties: false``, so a key the schema does not describe fails as surely
as a missing one (the generated client would drop it silently). Used by the
generated-client test and the typed-answers tests (``check_answer`` finds a test
client's answer's operation from its method and path).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from openapi_schema_validator import OAS30ReadValidator


def closed(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with every object schema that names its properties closed to others.

    A nullable reference (``allOf: [$ref], nullable: true``, drf-spectacular's way in
    OpenAPI 3.0) is spelled ``anyOf: [$ref, null]`` for the validator, which otherwise
    applies the referenced schema to a null (generators read it as ``X | None``).
    """
    result = copy.deepcopy(spec)

    def close(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            if node.get("nullable") and "allOf" in node:
                node["anyOf"] = [{"allOf": node.pop("allOf")}, {"enum": [None]}]
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(result["components"])
    return result


def check_body(closed_spec: dict[str, Any], declared: dict[str, Any], body: Any) -> None:
    """Validate ``body`` against a declared response of ``closed_spec`` (raises if not)."""
    schema = declared.get("content", {}).get("application/json", {}).get("schema")
    assert schema is not None, "the answer has a JSON body the schema does not declare"
    OAS30ReadValidator({**schema, "components": closed_spec["components"]}).validate(body)


def operation_for(spec: dict[str, Any], method: str, url: str) -> dict[str, Any]:
    """The operation of ``spec`` that serves ``method`` on ``url`` (a real path).

    Templates are tried as patterns (``{id}`` matches one path segment); where several
    match, the one with the fewest parameters is the one Django routed to.
    """
    path = url.split("?", 1)[0]
    candidates = []
    for template, item in spec["paths"].items():
        pattern = "[^/]+".join(re.escape(part) for part in re.split(r"\{[^}]+\}", template))
        if method in item and re.fullmatch(pattern, path):
            candidates.append((template.count("{"), template))
    assert candidates, f"the schema has no {method.upper()} {path}"
    operation: dict[str, Any] = spec["paths"][min(candidates)[1]][method]
    return operation


def check_answer(closed_spec: dict[str, Any], response: Any) -> Any:
    """Hold a test client's ``response`` to the schema: its status is declared for its
    operation and its JSON body validates (closed). Answers the body."""
    method = response.request["REQUEST_METHOD"].lower()
    operation = operation_for(closed_spec, method, response.request["PATH_INFO"])
    declared = operation["responses"].get(str(response.status_code))
    assert declared is not None, (operation["operationId"], response.status_code)
    body = response.json()
    check_body(closed_spec, declared, body)
    return body


_CLOSED: list[dict[str, Any]] = []


def closed_live_schema() -> dict[str, Any]:
    """The live schema (``/api/schema/``), closed, fetched once per test process:
    generating it takes long, and nothing a test does changes it."""
    if not _CLOSED:
        from rest_framework.test import APIClient

        answer = APIClient().get("/api/schema/", {"format": "json"})
        assert answer.status_code == 200
        _CLOSED.append(closed(answer.json()))
    return _CLOSED[0]
