"""The slugs no club may have: the words the URLconf routes under ``/clubs/``.

A club's page is ``/clubs/<slug>/``, and ``/clubs/new/`` is the page that creates one:
a club named "New" got the slug ``new`` and its page could never be reached (issue
#37, item 7). So every literal first segment under a ``clubs/`` route (pages and API
alike) is reserved, read from the URLconf itself so that a new route can never be
shadowed by a club created before it, plus a few words kept for what the site may
route one day (:data:`ALWAYS_RESERVED`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

#: Words reserved whatever the URLconf routes today.
ALWAYS_RESERVED = frozenset({"new", "admin", "api", "edit", "delete", "static", "media"})

_SEGMENT = re.compile(r"(?:^|/)clubs/([^/<>()\[\]?*+^$\\]+)/")


def _routes(patterns: Any, prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route


def reserved_slugs() -> frozenset[str]:
    """Every literal segment routed right after ``clubs/``, and :data:`ALWAYS_RESERVED`."""
    return _reserved_in(get_resolver())  # the resolver of the URLconf in force, cached


@functools.cache
def _reserved_in(resolver: URLResolver) -> frozenset[str]:
    found = {
        m.group(1) for route in _routes(resolver.url_patterns) for m in _SEGMENT.finditer(route)
    }
    return ALWAYS_RESERVED | found


def is_reserved(slug: str) -> bool:
    return slug.lower() in reserved_slugs()
