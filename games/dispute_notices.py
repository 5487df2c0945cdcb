"""Telling a club's directors that a match is disputed (the ``match.disputed`` event).

The dispute service writes the event to the outbox in its transaction; this handler
runs after the commit (a Celery task, retried by the sweep), emails the club's
directors who have an address (Django's email framework; the console backend unless
``EMAIL_BACKEND`` says otherwise) and stamps the dispute ``directors_notified_at``, so
the dashboard can list open disputes and whether the directors were told. Handling an
event twice sends nothing the second time.
"""

from __future__ import annotations

from typing import Any

from django.core.mail import send_mail
from django.utils import timezone

from core.events import on_event
from games import events
from games.models import Dispute


@on_event(events.MATCH_DISPUTED)
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
    addresses = sorted(set(match.club.directors.exclude(email="").values_list("email", flat=True)))
    if addresses:
        send_mail(
            subject=f"[{match.club.name}] Match {match.pk} is disputed",
            message=(
                f"{dispute.raised_by} disputes the score entered for {match.player1} v "
                f"{match.player2} (match {match.pk}).\n\nReason: {dispute.reason}\n\n"
                f"A director of the club resolves it on the match's page, /matches/{match.pk}/.\n"
            ),
            from_email=None,  # DEFAULT_FROM_EMAIL
            recipient_list=addresses,
        )
    dispute.directors_notified_at = timezone.now()
    dispute.save(update_fields=["directors_notified_at"])
