"""An entry's private check-in link: a signed token naming the event and the entry.

It stores nothing, so the dashboard's reads (``selectors_calls``) make the links and
the check-in service and page read them back, without the reads importing a service.
"""

from __future__ import annotations

from django.core import signing

from tournaments.models import Entry

CHECK_IN_SALT = "boxcars.check-in"
#: A check-in link lasts as long as an event's registration reasonably does.
CHECK_IN_MAX_AGE = 60 * 60 * 24 * 60


def check_in_token(entry: Entry) -> str:
    """The entry's private check-in link token (signed; stores nothing)."""
    return signing.dumps({"e": entry.pk, "t": entry.tournament_id}, salt=CHECK_IN_SALT)


def read_check_in_token(token: str) -> tuple[int, int] | None:
    """(tournament id, entry id) of a valid token; None for a forged or expired one."""
    try:
        data = signing.loads(token, salt=CHECK_IN_SALT, max_age=CHECK_IN_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or "e" not in data or "t" not in data:
        return None
    return int(data["t"]), int(data["e"])
