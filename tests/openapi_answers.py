"""Holding a real answer to the OpenAPI schema that describes it, with every object closed.

``openapi_schema_validator`` checks a body against the schema's declared response; the
schema is first *closed*: every object schema that names its properties gets
``additionalProperties: false``, so a key the schema does not describe fails as surely
as a missing one (the generated client would drop it silently). Used by the
generated-client test and the typed-reads tests.
"""

from __future__ import annotations

import copy
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
