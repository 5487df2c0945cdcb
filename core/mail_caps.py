"""How much mail a club and a person may have the server send: caps per hour and per day.

Issue #37, item 3: an invitation, a player's account email, a federation send or a
score-link sheet makes the server mail an address the sender typed, so without a cap
one account could have it mail strangers by the hundred (and make their accounts).
Every such door's service calls :func:`spend` once per action, after its access check
and before it writes or sends: the action counts against its club and against the
person acting (``actor.user``), each per clock hour and per day, and once either budget
is spent the action is refused with 429 ``mail_cap_reached``, ``Retry-After`` (the API)
and the words (the pages) saying when it opens again. A printed sign-in code counts too:
it makes an account, as an invitation does.

The caps are settings (``MAIL_CAP_CLUB_PER_HOUR`` ... ``MAIL_CAP_USER_PER_DAY``; 0 turns
one off; docs/operations.md). They are counted in Django's cache, which is Redis in
production, so they hold across every web process and worker, and are atomic there
(``add`` then ``incr``). The database would hold them through a Redis restart too, but
at the price of a row lock on a shared counter in each sending transaction; a cap that
forgets its counts after a restart costs at most one more window's mail, so the cache
is enough. Like the rate limits, the cap fails open while Redis is unreachable (the
settings' ``IGNORE_EXCEPTIONS``): mail is not refused for an outage of the counter.
An action that is refused later (a director invited twice) has still spent its count.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

from core.errors import N_, BoxcarsError

HOUR = 60 * 60
DAY = 24 * HOUR


class MailCapReached(BoxcarsError):
    """The club or the person has had the server send all the mail a window allows."""

    status_code = 429

    def __init__(self, code: str, message: str, retry_after: int) -> None:
        super().__init__(code, message, None)
        self.retry_after = retry_after


def _caps() -> list[tuple[str, str, int, int]]:
    """(who, window name, window seconds, cap) for every cap in force."""
    return [
        ("club", "hour", HOUR, settings.MAIL_CAP_CLUB_PER_HOUR),
        ("club", "day", DAY, settings.MAIL_CAP_CLUB_PER_DAY),
        ("user", "hour", HOUR, settings.MAIL_CAP_USER_PER_HOUR),
        ("user", "day", DAY, settings.MAIL_CAP_USER_PER_DAY),
    ]


def spend(*, actor: Any, club: Any, count: int = 1) -> None:
    """Count ``count`` mail actions against ``club`` and ``actor``'s account, or refuse.

    Each counter is incremented first and every increment is taken back when any cap is
    exceeded, so two processes racing at the edge cannot both slip past a cap.
    """
    user = getattr(actor, "user", None)
    idents = {"club": getattr(club, "pk", None), "user": getattr(user, "pk", None)}
    now = time.time()
    spent: list[str] = []
    refusal: tuple[str, int] | None = None
    for who, window, seconds, cap in _caps():
        ident = idents[who]
        if not cap or ident is None:
            continue
        key = f"mail-cap:{who}:{ident}:{window}:{int(now // seconds)}"
        cache.add(key, 0, timeout=seconds + 60)
        try:
            total = cache.incr(key, count) if cache.get(key) is not None else None
        except ValueError:  # the key expired between the two calls: count it as unreachable
            total = None
        if total is None:  # the cache is unreachable: fail open
            continue
        spent.append(key)
        if total > cap and refusal is None:
            refusal = (who, int(seconds - now % seconds) + 1)
    if refusal is None:
        return
    for key in spent:
        try:  # noqa: SIM105 (the except names why)
            cache.decr(key, count)
        except ValueError:  # expired meanwhile: nothing left to take back
            pass
    who, wait = refusal
    minutes = max(1, round(wait / 60))
    if who == "club":
        message = N_(
            "This club has sent all the mail the server allows for now (invitations, "
            "account emails, sign-in codes and sends). Try again in %(minutes)s minutes.",
            minutes=minutes,
        )
    else:
        message = N_(
            "You have sent all the mail the server allows for now (invitations, account "
            "emails, sign-in codes and sends). Try again in %(minutes)s minutes.",
            minutes=minutes,
        )
    raise MailCapReached("mail_cap_reached", message, retry_after=wait)
