"""Anonymous first: every write refuses an anonymous caller before it reads the body.

Issue #25 item 7: ``POST .../late-penalty/`` and ``POST``/``DELETE
/api/v1/push-subscriptions/`` validated the body first, so an anonymous caller with a
bad body heard 400 (a hint about what the door wants) where every other write said
401. This test walks the OpenAPI schema and sends every write operation (POST, PUT,
PATCH, DELETE) anonymously, at the world's real objects, with a body no serializer
accepts (a JSON array): the answer must be 401 ``not_authenticated``, written nothing.

The doors that are anonymous by design are listed in ``ANONYMOUS_DOORS`` with their
reason and their own expected answer: there the credential travels in the request
itself, so it is read first.
"""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from .matrix import WRITE_METHODS, schema_operations
from .world import build_world, path_params

pytestmark = pytest.mark.django_db

INVALID_BODY = json.dumps(["not", "an", "object"])

ANONYMOUS_DOORS: dict[tuple[str, str], tuple[int, str]] = {
    ("POST", "/api/v1/auth/token/"): (
        401,
        "token creation: the credential is the Basic user and password (none here: 401)",
    ),
    ("POST", "/api/v1/variants/{key}/plays/"): (
        400,
        "the legal plays of a position: a public computation that writes nothing, open to "
        "board apps without an account, so a malformed body is simply a 400",
    ),
    ("POST", "/api/v1/tournaments/{slug}/entries/{entry_id}/check-in/"): (
        400,
        "a player's check-in link: the credential is the body's token, so the body is "
        "read first (no token and not signed in: 401; a malformed body: 400)",
    ),
}
"""Writes whose credential is in the request itself, with the answer an invalid body
without it gets and why. Score-link doors (``X-Score-Link``) are not here: without the
header they are ordinary writes and answer 401 before the body."""


def _url(template: str, params: dict[str, object]) -> str:
    return template.format(**{k: params[k] for k in params if "{" + k + "}" in template})


def _writes() -> list[tuple[str, str]]:
    return sorted(op for op in schema_operations() if op[0] in WRITE_METHODS)


def test_the_schema_has_the_writes_this_test_walks():
    writes = _writes()
    assert len(writes) > 60  # the walk is over the whole API, not an empty schema
    for door in ANONYMOUS_DOORS:
        assert door in writes, f"{door} is listed as anonymous but is not in the schema"


def test_every_write_refuses_an_anonymous_caller_before_reading_the_body():
    world = build_world()
    client = APIClient()
    wrong: list[str] = []
    for method, template in _writes():
        url = _url(template, path_params(template, world))
        response = client.generic(method, url, INVALID_BODY, content_type="application/json")
        expected, _why = ANONYMOUS_DOORS.get((method, template), (401, ""))
        code = response.json().get("code") if response.content else None
        if response.status_code != expected or (expected == 401 and code != "not_authenticated"):
            wrong.append(f"{method} {template}: {response.status_code} {code}")
    assert not wrong, "anonymous writes not refused first:\n" + "\n".join(wrong)
