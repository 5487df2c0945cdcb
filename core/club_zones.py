"""A club's pages in the club's own time zone; everything is stored in UTC.

Each app registers, for the URL names of its club pages, how to find the club's zone
from the view's arguments (a club slug, an event slug, a match id...). The middleware
activates that zone for the request (``django.utils.timezone.activate``) so templates
show every datetime, through Django's localtime, as the club's wall clock; pages outside
any club and the API keep ``settings.TIME_ZONE`` (UTC by default) and the API answers
ISO 8601 with its offset either way.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

ZoneOf = Callable[[dict[str, Any]], str | None]

_ZONE_OF: dict[str, ZoneOf] = {}


def register_club_pages(view_names: Iterable[str], zone_of: ZoneOf) -> None:
    """Pages ``view_names`` (namespaced URL names) show times in ``zone_of(view_kwargs)``."""
    for name in view_names:
        _ZONE_OF[name] = zone_of


def default_time_zone() -> str:
    """The zone a new club starts with: the server's ``TIME_ZONE``."""
    return str(settings.TIME_ZONE)


NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})
"""Files of the zone database that are not zones: the machine's own zone (``localtime``,
whatever the server happens to be set to), the placeholder ``Factory`` and the POSIX
default rules; ``zoneinfo`` opens all three (issue #25)."""

AREAS = frozenset(
    {
        "Africa",
        "America",
        "Antarctica",
        "Arctic",
        "Asia",
        "Atlantic",
        "Australia",
        "Europe",
        "Indian",
        "Pacific",
        "Etc",
    }
)
"""The areas of canonical IANA names (``Area/Location``). The other names the database
holds (``GMT``, ``Zulu``, ``US/Eastern``, ``Japan``, ``Cuba``...) are backward-compatible
aliases kept for old data: a club chooses a canonical name, ``UTC`` included."""


@functools.cache
def canonical_time_zones() -> frozenset[str]:
    """The zones a club may choose: the zone database's canonical names, ``UTC`` too."""
    names = zoneinfo.available_timezones() - NOT_ZONES
    return frozenset(
        name for name in names if name == "UTC" or (name.partition("/")[0] in AREAS and "/" in name)
    )


def validate_time_zone(name: str) -> None:
    """A canonical IANA zone name that this machine's zone database knows
    (Europe/Copenhagen, UTC): not an alias, not ``localtime``, ``Factory`` or ``posixrules``."""
    if name not in canonical_time_zones():
        raise ValidationError(
            _("“%(name)s” is not a known time zone (an IANA name such as Europe/Copenhagen)."),
            code="invalid_time_zone",
            params={"name": name},
        )


def zone_for(view_name: str | None, view_kwargs: dict[str, Any]) -> zoneinfo.ZoneInfo | None:
    """The club's zone of a page, or None for a page of no club (or an unknown zone)."""
    zone_of = _ZONE_OF.get(view_name or "")
    name = zone_of(view_kwargs) if zone_of else None
    if not name:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class ClubTimeZoneMiddleware:
    """Activate the club's zone for its pages, and the default zone for every other."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        match = request.resolver_match
        zone = zone_for(match.view_name if match else None, view_kwargs)
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
