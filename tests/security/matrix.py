"""Machinery of the permission matrix: every endpoint, every role, one outcome each.

Endpoints come from two places so that a new one cannot slip past: the URL resolver
(every page and API route, whatever its view) and the OpenAPI schema that
drf-spectacular generates (every documented operation). Each endpoint is sent by each
role inside a savepoint that is rolled back, so every cell starts from the same world,
and a fingerprint of the database taken before and after tells whether the request
wrote anything: a refused request must write nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from tests.factories import token_for

from .world import ROLES, World

Endpoint = tuple[str, str]  # (METHOD, "/path/{param}/")
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
DENIED = {401, 403, 404, 405}
PASSWORD = "pw-for-tests-1"
HTTP_METHODS = ("get", "post", "put", "patch", "delete")

_NAMED = re.compile(r"\(\?P<(\w+)>[^)]*\)|<(?:\w+:)?(\w+)>")


def template_of(route: str) -> str:
    """'api/v1/^matches/(?P<pk>[^/.]+)/games/$' -> '/api/v1/matches/{pk}/games/'."""
    route = route.replace("^", "").replace("$", "")
    route = _NAMED.sub(lambda m: "{" + (m.group(1) or m.group(2)) + "}", route)
    return "/" + route


def shape(template: str) -> str:
    """A template with its parameter names erased: the schema says {id}, routes {pk}."""
    return re.sub(r"\{[^}]*\}", "{}", template)


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern


def _methods_of(callback: Any) -> set[str] | None:
    """The HTTP methods a view answers, when the view says so; None for plain functions."""
    actions = getattr(callback, "actions", None)
    if actions:  # a DRF viewset bound to {method: action} (it adds "head" itself)
        return {method.upper() for method in actions if method in HTTP_METHODS}
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view_class is not None:
        return {name.upper() for name in HTTP_METHODS if hasattr(view_class, name)}
    return None


def url_endpoints() -> tuple[set[Endpoint], set[str]]:
    """(endpoints with known methods, templates of function views whose methods the
    expectations must name). The admin site is left to its own test; format-suffix
    aliases (``.json``) are the same views as their plain routes."""
    endpoints: set[Endpoint] = set()
    function_views: set[str] = set()
    for route, pattern in _walk(get_resolver().url_patterns):
        if route.startswith("admin/") or "format" in route:
            continue
        template = template_of(route)
        methods = _methods_of(pattern.callback)
        if methods is None:
            function_views.add(template)
        else:
            endpoints.update((method, template) for method in methods)
    return endpoints, function_views


@functools.cache
def schema_operations() -> frozenset[Endpoint]:
    """Every operation of the OpenAPI document served at /api/schema/."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return frozenset(
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in HTTP_METHODS
    )


# --- sending one cell ---------------------------------------------------------------------


@functools.cache
def _fingerprint_sql() -> str:
    """One query: the row count of every table of the service, the sum of the version
    columns, and the text of the editable club, player and room fields."""
    parts = []
    for label in ("core", "games", "tournaments", "chouette", "money", "analysis", "auth", "knox"):
        for model in apps.get_app_config(label).get_models():
            parts.append(f'(SELECT COUNT(*) FROM "{model._meta.db_table}")')
    for label in ("games.Match", "tournaments.Tournament", "chouette.Session", "money.EventMoney"):
        table = apps.get_model(label)._meta.db_table
        parts.append(f'(SELECT SUM("version") FROM "{table}")')
    club = apps.get_model("games.Club")._meta.db_table
    player = apps.get_model("games.Player")._meta.db_table
    parts.append(
        f'(SELECT SUM(LENGTH("name") + LENGTH("description") + "rating_initial") FROM "{club}")'
    )
    parts.append(f'(SELECT SUM(LENGTH("display_name")) FROM "{player}")')
    room = apps.get_model("tournaments.Room")._meta.db_table
    parts.append(f'(SELECT SUM(LENGTH("name") + COALESCE("tables", 0)) FROM "{room}")')
    return "SELECT " + ", ".join(parts)


def fingerprint() -> tuple:
    """Any write a request makes changes at least one number of this tuple: a row
    added or removed anywhere, a version bumped, a club or player renamed."""
    with connection.cursor() as cursor:
        cursor.execute(_fingerprint_sql())
        return tuple(cursor.fetchone())


@dataclass(frozen=True)
class Outcome:
    status: int
    wrote: bool
    code: str | None = None  # the API error's ``code``, when the answer carries one


class Clients:
    """One client per role. API calls carry the role's API token (as integrators call);
    pages use a signed-in session; the foreign score link rides in its header."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.tokens: dict[str, str] = {}
        self.sessions: dict[str, str] = {}
        for role in ROLES:
            user = world.users[role]
            if user is not None:
                client = APIClient()
                client.force_login(user)
                self.sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
                self.tokens[role] = token_for(user)[1]

    def headers(self, role: str, path: str) -> dict[str, str]:
        headers: dict[str, str] = {}
        if role == "other_link":
            headers["HTTP_X_SCORE_LINK"] = self.world.other_link
        if path.startswith("/api/") and role in self.tokens:
            headers["HTTP_AUTHORIZATION"] = f"Token {self.tokens[role]}"
        return headers

    def api(self, role: str) -> APIClient:
        return APIClient()

    def page(self, role: str) -> APIClient:
        """A fresh browser signed in as the role: a cell that logs out spoils no other."""
        client = APIClient()
        if role in self.sessions:
            client.cookies[settings.SESSION_COOKIE_NAME] = self.sessions[role]
        return client


Body = dict[str, Any] | Callable[[World], Any] | None


def send(
    clients: Clients,
    role: str,
    method: str,
    path: str,
    body: Any = None,
    fmt: str | None = "json",
    extra_headers: dict[str, str] | None = None,
) -> Outcome:
    """Send one request as ``role`` in a rolled-back savepoint; what came back and
    whether anything was written."""
    is_api = path.startswith("/api/")
    client = clients.api(role) if is_api else clients.page(role)
    headers = {**clients.headers(role, path), **(extra_headers or {})}
    with transaction.atomic():
        before = fingerprint()
        call = getattr(client, method.lower())
        if method == "GET":
            response = call(path, body or {}, **headers)
        elif fmt == "multipart":
            response = call(path, body or {}, format="multipart", **headers)
        elif is_api:
            response = call(path, body if body is not None else {}, format=fmt, **headers)
        else:
            response = call(path, body or {}, **headers)
        after = fingerprint()
        transaction.set_rollback(True)
    return Outcome(response.status_code, before != after, _error_code(response))


def _error_code(response: Any) -> str | None:
    if not response.get("Content-Type", "").startswith("application/json"):
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None
