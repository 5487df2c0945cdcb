"""The OpenAPI schema as code generators read it (issue #30): valid, one body type per
operation, every error declared with the one ``Error`` body, the headers declared, and
the token's prefix spelled out. The generated client itself runs in
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
    "club_archives_create",
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
    validate_spec(spec)  # raises on the first error (it found three before: blank defaults)


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


def test_the_api_still_takes_a_form_body(client_for, director):
    """The schema describes JSON only; a client posting a form is not turned away."""
    response = client_for(director).post(
        "/api/v1/clubs/", {"name": "Form Club"}, format="multipart"
    )
    assert response.status_code == 201 and response.json()["slug"] == "form-club"


FREE_FORM = {
    # where (a component's property, a component, or an operation's own inline answer)
    "Job.params": "A job's parameters depend on its kind (a draw's, an import's...).",
    "Job.result": "A job's result depends on its kind; each kind documents its own.",
    "FieldErrors": (
        "A refused body's wrong fields by name, nested as the body nests: the keys are "
        "the body's own (reached from a job's error)."
    ),
    "FieldChange.before": "An audited field's value: any JSON value the field holds.",
    "FieldChange.after": "An audited field's value: any JSON value the field holds.",
    "FederationExport.summary": (
        "Not typed yet: what the file holds differs by federation (WBGF checks, ABT "
        "awards, UKBGF matches, the bundle's files)."
    ),
    "Club.rated_variants": "Not typed yet: a JSON column (the variants the club rates).",
    **{
        f"Tournament.{name}": "Not typed yet: a JSON column of the event's configuration."
        for name in (
            "match_lengths",
            "feed_orders",
            "last_chance_from",
            "tie_breaks",
            "consolation_from",
            "clock_rounds",
            "prize_order",
        )
    },
    "EarlierAnalysis.decision_rows": (
        "The decision rows as stored when a re-analysis replaced them: their keys are the "
        "decision table's columns of that time."
    ),
}
"""Where a success answer is still free-form, and why. It only shrinks: a new free-form
answer fails ``test_no_success_answer_is_free_form_but_the_listed``, and so does an
entry here that is typed now (remove it)."""

SCHEMA_KEYS = {"type", "$ref", "properties", "items", "allOf", "oneOf", "anyOf", "enum"}


def free_form_spots(spec, node, where, seen):
    """Where ``node`` (reached at ``where``) leaves a shape open: an object without
    properties whose other properties may be anything, or a schema of anything."""
    if not isinstance(node, dict):
        return set()
    if not SCHEMA_KEYS & set(node) and "additionalProperties" not in node:
        return {where}  # a schema of anything
    spots = set()
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            spots |= free_form_spots(spec, spec["components"]["schemas"][name], name, seen)
        return spots
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in node.get(key, []):
            spots |= free_form_spots(spec, branch, where, seen)
    if "items" in node:
        spots |= free_form_spots(spec, node["items"], where, seen)
    extra = node.get("additionalProperties")
    if node.get("type") == "object" and "properties" not in node and extra in (None, True, {}):
        spots.add(where)
    elif isinstance(extra, dict) and extra:
        spots |= free_form_spots(spec, extra, where, seen)
    for name, prop in node.get("properties", {}).items():
        # a component's property is named with it; an inline answer by its operation
        inside = f"{where}.{name}" if where[:1].isupper() and "." not in where else where
        spots |= free_form_spots(spec, prop, inside, seen)
    return spots


def test_no_success_answer_is_free_form_but_the_listed(spec):
    """Issue #30: no ``additionalProperties`` answer where the shape is known."""
    found: dict[str, set[str]] = {}
    for _, _, operation in operations(spec):
        for code, response in operation["responses"].items():
            schema = response.get("content", {}).get("application/json", {}).get("schema")
            if code.startswith("2") and schema is not None:
                for spot in free_form_spots(spec, schema, operation["operationId"], set()):
                    found.setdefault(spot, set()).add(operation["operationId"])
    unexplained = {spot: sorted(ops) for spot, ops in found.items() if spot not in FREE_FORM}
    assert not unexplained, f"free-form answers (type them, or list why not): {unexplained}"
    assert not set(FREE_FORM) - set(found), "typed now: remove from FREE_FORM"
