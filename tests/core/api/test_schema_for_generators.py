"""The OpenAPI schema as code generators read it (issue #30): valid, one body type per
operation, every error declared with the one ``Error`` body, the headers declared, the
token's prefix spelled out, and every success answer typed (no free-form object where
the shape is known; docs/api.md, "Every answer is typed"). The generated client itself runs in
``test_generated_client.py`` (PostgreSQL)."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate as validate_spec

pytestmark = pytest.mark.django_db

ERROR = {"$ref": "#/components/schemas/Error"}
UPLOADS = {
    "matches_import_create",
    "matches_transcript_create",
    "clubs_results_import_create",
    "club_archives_create",  # a club archive, .json or .json.gz (docs/club-archive.md)
}


@pytest.fixture(scope="module")
def spec(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        answer = APIClient().get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    return answer.json()


def operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            yield path, method.upper(), operation


def test_the_schema_is_valid_openapi(spec):
    # validate_spec raises on the first error (it found three before: blank defaults)
    validate_spec(spec)
    assert spec["openapi"].startswith("3.") and spec["paths"]


def test_every_body_has_one_media_type_json_but_for_the_uploads(spec):
    for _, _, operation in operations(spec):
        body = operation.get("requestBody")
        if body is None:
            continue
        expected = (
            "multipart/form-data" if operation["operationId"] in UPLOADS else "application/json"
        )
        assert list(body["content"]) == [expected], operation["operationId"]


def test_every_operation_declares_its_errors_with_the_error_body(spec):
    for path, method, operation in operations(spec):
        responses = operation["responses"]
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        expected = {"503"}
        if method != "GET":
            expected |= {"400", "401", "403", "409"}
        if "{" in path:
            expected.add("404")
        if "If-Match" in headers:
            expected.add("412")
        if "Idempotency-Key" in headers:
            expected.add("422")
        assert expected <= set(responses), (operation["operationId"], expected - set(responses))
        for code, response in responses.items():
            if code >= "400":
                assert response["content"]["application/json"]["schema"] == ERROR
        assert "Retry-After" in responses["503"]["headers"]


def test_the_error_component_has_the_list_form(spec):
    error = spec["components"]["schemas"]["Error"]
    assert error["required"] == ["code", "detail", "field"]
    assert error["properties"]["field"]["nullable"] is True
    forms = error["properties"]["errors"]["oneOf"]
    assert {"$ref": "#/components/schemas/FieldErrors"} in forms


def test_idempotent_writes_declare_the_replay_header_and_versioned_ones_the_etag(spec):
    for _, _, operation in operations(spec):
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        for code, response in operation["responses"].items():
            sent = set(response.get("headers", {}))
            if "Idempotency-Key" in headers and code < "500":
                assert "Idempotent-Replayed" in sent, (operation["operationId"], code)
            if "If-Match" in headers and code.startswith("2"):
                assert "ETag" in sent, (operation["operationId"], code)
            if code == "202":
                assert "Location" in sent, operation["operationId"]


def test_tournament_writes_declare_if_match_and_reads_if_none_match(spec):
    paths = spec["paths"]
    for path in ("/api/v1/tournaments/{slug}/start/", "/api/v1/tournaments/{slug}/finish/"):
        names = [p["name"] for p in paths[path]["post"]["parameters"]]
        assert "If-Match" in names and "Idempotency-Key" in names
    for path in ("/api/v1/tournaments/{slug}/bracket/", "/api/v1/tournaments/{slug}/standings/"):
        read = paths[path]["get"]
        assert "If-None-Match" in [p["name"] for p in read["parameters"]]
        assert "ETag" in read["responses"]["304"]["headers"]


def test_seed_answers_a_plain_list_and_the_reads_are_typed(spec):
    paths = spec["paths"]
    seed = paths["/api/v1/tournaments/{slug}/seed/"]["post"]["responses"]["200"]
    schema = seed["content"]["application/json"]["schema"]
    assert schema == {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}}
    for path, name in [
        ("/api/v1/tournaments/{slug}/bracket/", "Bracket"),
        ("/api/v1/tournaments/{slug}/standings/", "Standings"),
        ("/api/v1/tournaments/{slug}/odds/", "Odds"),
    ]:
        ok = paths[path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": f"#/components/schemas/{name}"}


def test_the_token_scheme_says_token_and_the_login_takes_basic_only(spec):
    schemes = spec["components"]["securitySchemes"]
    token = schemes["knoxApiToken"]
    assert (token["type"], token["in"], token["name"]) == ("apiKey", "header", "Authorization")
    assert "Authorization: Token <key>" in token["description"]
    assert schemes["scoreLink"]["name"] == "X-Score-Link"
    login = spec["paths"]["/api/v1/auth/token/"]["post"]
    assert login["security"] == [{"basicAuth": []}]
    others = [op for _, _, op in operations(spec) if op["operationId"] != "auth_token_create"]
    assert all({"basicAuth": []} not in op.get("security", []) for op in others)


# Where no shape is named, each with why (docs/api.md, "Every answer is typed").
# Anything else free-form in a success answer fails the test below.
SHAPELESS = {
    # an audit entry's before and after are the changed field's value, of any type
    "FieldChange.before",
    "FieldChange.after",
    # a refused body's errors (a failed job's ``error``), keyed by the body's field names
    # and nested as the body is: DRF's own error shape
    "FieldErrors",
}
COMPOSED = ("allOf", "oneOf", "anyOf")


def free_form(schema):
    """An object with no named properties whose values may be anything (no
    ``additionalProperties``, or ``true``, or ``{}``), or a value of no type at all (a
    JSON column described as "anything"). A map whose values are typed is not."""
    if "properties" in schema or "$ref" in schema or "enum" in schema:
        return False
    if any(key in schema for key in COMPOSED):
        return False
    if "type" not in schema:
        return True
    values = schema.get("additionalProperties")
    return schema["type"] == "object" and values in (None, True, {})


def free_forms(spec, schema, where, seen=frozenset()):
    """Every free-form place under ``schema`` (``$ref`` followed once per walk), named
    ``Component.field[]{}`` (``[]`` an array's items, ``{}`` a map's values)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            component = spec["components"]["schemas"][name]
            yield from free_forms(spec, component, name, seen | {name})
        return
    if free_form(schema):
        yield where
    for name, field in schema.get("properties", {}).items():
        yield from free_forms(spec, field, f"{where}.{name}", seen)
    if isinstance(schema.get("items"), dict):
        yield from free_forms(spec, schema["items"], f"{where}[]", seen)
    values = schema.get("additionalProperties")
    if isinstance(values, dict) and values:  # a typed map's values ({}: the map is free-form)
        yield from free_forms(spec, values, f"{where}{{}}", seen)
    for key in COMPOSED:
        for branch in schema.get(key, []):
            yield from free_forms(spec, branch, where, seen)


def test_every_success_answer_is_typed(spec):
    """No free-form object in a 2xx answer where the shape is known (issue #30): a
    generated client gets a model, not a dict, for every JSON column the API answers."""
    found: dict[str, str] = {}
    for path, method, operation in operations(spec):
        for code, response in operation["responses"].items():
            if not code.startswith("2"):
                continue
            for media in response.get("content", {}).values():
                for where in free_forms(spec, media.get("schema", {}), f"{method} {path}"):
                    found.setdefault(where, operation["operationId"])
    offenders = {where: op for where, op in found.items() if where not in SHAPELESS}
    assert offenders == {}
    assert set(found) == SHAPELESS  # a shapeless place that got a shape leaves the list


def test_a_job_is_one_of_its_kinds_each_with_typed_params_and_result(spec):
    """``Job`` is a union told apart by ``kind``: a generated client reads a paired
    round's or an export's ``params`` and ``result`` as models (``core.api_jobs``), and
    every door that answers a job says so."""
    from core.api_jobs import job_shapes
    from core.queues import job_queues

    schemas = spec["components"]["schemas"]
    job = schemas["Job"]
    mapping = job["discriminator"]["mapping"]
    assert job["discriminator"]["propertyName"] == "kind"
    assert set(mapping) == set(job_shapes()) == set(job_queues())  # every kind there is
    assert [branch["$ref"] for branch in job["oneOf"]] == list(mapping.values())
    for kind, ref in mapping.items():
        component = schemas[ref.rsplit("/", 1)[-1]]
        kind_enum = schemas[component["properties"]["kind"]["allOf"][0]["$ref"].rsplit("/")[-1]]
        assert kind_enum["enum"] == [kind]
        params, result = (component["properties"][name] for name in ("params", "result"))
        if job_shapes()[kind].params is None:  # a kind without parameters: always {}
            assert params["type"] == "object" and params["properties"] == {}
        else:
            assert "$ref" in params["allOf"][0] and "nullable" not in params
        assert "$ref" in result["allOf"][0] and result["nullable"] is True
    answering = {
        operation["operationId"]
        for _, _, operation in operations(spec)
        for code, response in operation["responses"].items()
        if code.startswith("2")
        and response.get("content", {}).get("application/json", {}).get("schema")
        == {"$ref": "#/components/schemas/Job"}
    }
    assert answering == {
        "club_archives_create",
        "clubs_archive_create",
        "clubs_ratings_recompute_create",
        "jobs_retrieve",
        "matches_analysis_create",
        "matches_import_create",
        "tournaments_drop_map_retrieve",
        "tournaments_redraw_create",
        "tournaments_rounds_next_create",
    }


def test_every_json_request_body_is_typed(spec):
    """The bodies too: an event's options, a club's rated variants, a chouette's opening
    rolls are described as their answers are (the checks behind them unchanged)."""
    found: dict[str, str] = {}
    for path, method, operation in operations(spec):
        media = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if media is not None:
            for where in free_forms(spec, media["schema"], f"{method} {path}"):
                found.setdefault(where, operation["operationId"])
    assert found == {}


def test_the_free_form_check_sees_what_it_must():
    """The walker itself: a free-form object, an untyped value, a nested one behind a
    ``$ref`` and a list; a typed map and an object with properties pass."""
    spec = {
        "components": {
            "schemas": {
                "Inner": {"type": "object", "properties": {"rows": {"type": "array", "items": {}}}},
            }
        }
    }
    body = {
        "type": "object",
        "properties": {
            "loose": {"type": "object", "additionalProperties": {}},
            "any": {"readOnly": True},
            "open": {"type": "object", "additionalProperties": True},
            "inner": {"$ref": "#/components/schemas/Inner"},
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "deep": {
                "type": "object",
                "additionalProperties": {"type": "object", "additionalProperties": {}},
            },
            "ok": {"type": "object", "properties": {"n": {"type": "integer"}}},
        },
    }
    assert sorted(free_forms(spec, body, "Body")) == [
        "Body.any",
        "Body.deep{}",
        "Body.loose",
        "Body.open",
        "Inner.rows[]",
    ]


def test_the_api_still_takes_a_form_body(client_for, director):
    """The schema describes JSON only; a client posting a form is not turned away."""
    response = client_for(director).post(
        "/api/v1/clubs/", {"name": "Form Club"}, format="multipart"
    )
    assert response.status_code == 201 and response.json()["slug"] == "form-club"
