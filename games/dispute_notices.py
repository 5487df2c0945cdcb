"""Telling a club's directors that a match is disputed (the ``match.disputed`` event).

The dispute service writes the event to the outbox in its transaction; this handler
runs after the commit (a Celery task, retried by the sweep), emails the club's
directors who have a confirmed address (Django's email framework; the console backend unless
``EMAIL_BACKEND`` says otherwise), each in their language (their player's, else the
club's: docs/languages.md), and stamps the dispute ``directors_notified_at``, so
the dashboard can list open disputes and whether the directors were told. Handling an
event twice sends nothing the second time. Registered by ``games/wiring.py``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db.models import F, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext

from core import mail
from games.languages import message_language
from games.models import Club, Dispute


def _by_language(directors: QuerySet[User], club: Club) -> dict[str, list[str]]:
    """The directors' addresses grouped by the language each reads: that of the player
    linked to their account, else the club's; one email per language."""
    groups: dict[str, list[str]] = {}
    for user in directors:
        player = getattr(user, "player", None)
        addresses = groups.setdefault(message_language(player, club), [])
        if user.email not in addresses:
            addresses.append(user.email)
    return dict(sorted(groups.items()))


def tell_directors(payload: dict[str, Any]) -> None:
    """Email the club's directors about dispute ``payload["dispute_id"]``, once."""
    dispute = (
        Dispute.objects.select_for_update()  # type: ignore[misc]  # pk=None: no row; the stubs refuse None
        .select_related("match__club", "match__player1", "match__player2", "raised_by")
        .filter(pk=payload.get("dispute_id"))
        .first()
    )
    if dispute is None or dispute.directors_notified_at is not None:
        return
    match = dispute.match
    club = match.club
    # only addresses their owners confirmed (games.services.addresses): a director
    # someone else typed in gets nothing until they follow the link sent to it
    directors = (
        club.directors.exclude(email="")
        .filter(address__confirmed_at__isnull=False, address__email=F("email"))
        .select_related("player")
        .order_by("email")
    )
    for language, addresses in _by_language(directors, club).items():
        with translation.override(language):
            send_mail(
                subject=mail.subject(
                    gettext("[%(club)s] Match %(match)s is disputed")
                    % {"club": club.name, "match": match.pk}
                ),
                message=gettext(
                    "%(raised_by)s disputes the score entered for %(player1)s v %(player2)s "
                    "(match %(match)s).\n\nReason: %(reason)s\n\nA director of the club "
                    "resolves it on the match's page, %(path)s.\n"
                )
                % {
                    "raised_by": dispute.raised_by,
                    "player1": match.player1,
                    "player2": match.player2,
                    "match": match.pk,
                    "reason": dispute.reason,
                    "path": f"/matches/{match.pk}/",
                },
                from_email=None,  # DEFAULT_FROM_EMAIL
                recipient_list=addresses,
            )
    dispute.directors_notified_at = timezone.now()
    dispute.save(update_fields=["directors_notified_at"])
