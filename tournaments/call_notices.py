"""Telling each player of a called round where to sit: email and web push.

Run by the notifying job of a call (``tournaments.job_kinds.NOTIFY_CALL``), after the call
committed. For every match of the round that is ready to play, each player whose
address its owner confirmed for the club (``games.selectors_addresses``) gets one
email (Django's email framework: the console backend unless ``EMAIL_URL`` names an SMTP
server, or ``EMAIL_BACKEND`` an API provider through django-anymail) with their table,
opponent, match length and private score link, and, if they allowed it on their
phone and the site has VAPID keys, one web push (only to a push service's endpoint,
checked again before each send, never following a redirect:
``tournaments.push_endpoints``). Both are written in the player's own language, else
the club's (``games.languages.speaking_to``; docs/languages.md).

Exactly once per player, channel and call, even when the job is run again (a worker
died, the sweep retried it): each notice is a :class:`CallNotice` row, written and
locked in its own transaction before the message goes out and stamped ``sent_at``
before that transaction commits, so a second run finds it sent and skips it. A mail
server that refuses leaves the notice unsent with its error (the dashboard shows it);
the job goes on with the other players.
"""

from __future__ import annotations

import json
import logging
import smtplib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from core import mail
from games import score_links
from games.languages import speaking_to
from games.models import Match, Player
from games.selectors_addresses import mailable
from tournaments.models import CallNotice, Pairing, PairingStatus, PushSubscription, RoundCall
from tournaments.push_endpoints import push_session
from tournaments.services.push import endpoint_refusal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Seat:
    """What one player is told: where, against whom, how long, and their link."""

    call: RoundCall
    match: Match
    player: Player
    opponent: Player
    link: str

    @property
    def context(self) -> dict[str, Any]:
        tournament = self.call.round.stage.tournament
        return {
            "tournament": tournament,
            "round_name": _("%(stage)s, round %(number)s")
            % {"stage": self.call.round.stage, "number": self.call.round.number},
            "player": self.player,
            "opponent": self.opponent,
            "table": self.match.table,
            "length": self.match.length,
            "link": self.link,
        }


def seats_of(
    call: RoundCall, *, site_url: str | None = None, match_id: int | None = None
) -> list[Seat]:
    """Every player of the call's round who has a match ready, with their link; with
    ``match_id``, the two of that match only (a match called when made, after its
    round: ``tournaments.services.calls.call_late_matches``)."""
    base = (site_url or settings.SITE_URL).rstrip("/")
    pairings = (
        Pairing.objects.filter(round=call.round, status=PairingStatus.READY, match__isnull=False)
        .select_related("match__player1", "match__player2")
        .order_by("slot")
    )
    if match_id is not None:
        pairings = pairings.filter(match_id=match_id)
    seats = []
    for pairing in pairings:
        match = pairing.match
        assert match is not None  # match__isnull=False
        for player, opponent in ((match.player1, match.player2), (match.player2, match.player1)):
            token = score_links.make_token(match, player)
            link = base + reverse("score-link", kwargs={"token": token})
            seats.append(Seat(call, match, player, opponent, link))
    return seats


def _message(seat: Seat) -> EmailMultiAlternatives:
    """The email, subject included, in the player's language (else the club's)."""
    with speaking_to(seat.player, seat.call.round.stage.tournament.club):
        return _email(seat)


def _email(seat: Seat) -> EmailMultiAlternatives:
    context = seat.context
    subject = mail.subject(
        _("%(event)s: %(round)s, you play %(opponent)s")
        % {
            "event": context["tournament"].name,
            "round": context["round_name"],
            "opponent": seat.opponent.display_name,
        }
    )
    body = render_to_string("tournaments/email/round_called.txt", context)
    html = render_to_string("tournaments/email/round_called.html", context)
    message = EmailMultiAlternatives(subject=subject, body=body, to=[seat.player.email])
    message.attach_alternative(html, "text/html")
    return message


def _push_payload(seat: Seat) -> str:
    """The push's title and text in the player's language (else the club's)."""
    with speaking_to(seat.player, seat.call.round.stage.tournament.club):
        return _push_text(seat)


def _push_text(seat: Seat) -> str:
    context = seat.context
    table = context["table"]
    where = _("table %s") % table if table is not None else _("your table")
    return json.dumps(
        {
            "title": _("%(round)s is called") % {"round": context["round_name"]},
            "body": _("%(where)s: you play %(opponent)s, %(length)s points")
            % {"where": where, "opponent": seat.opponent.display_name, "length": seat.match.length},
            "url": seat.link,
        }
    )


def push_configured() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _send_push(seat: Seat) -> str:
    """Push to every subscription of the player's account; '' when at least one
    device took it, else the errors (or that no device is left)."""
    from pywebpush import WebPushException, webpush

    user_id = seat.player.user_id
    errors: list[str] = []
    delivered = 0
    if user_id is None:  # no account, no device
        return "no device"
    session = push_session()
    for sub in PushSubscription.objects.filter(user_id=user_id):
        refused = endpoint_refusal(sub.endpoint)  # checked again: DNS may have changed
        if refused:
            errors.append(f"endpoint refused: {refused}"[:100])
            continue
        try:
            webpush(
                subscription_info={
                    "endpoint": sub.endpoint,
                    "keys": {"p256dh": sub.p256dh, "auth": sub.auth},
                },
                data=_push_payload(seat),
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": f"mailto:{settings.VAPID_CLAIMS_EMAIL}"},
                timeout=10,
                requests_session=session,  # never follows a redirect
            )
            delivered += 1
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):  # the browser dropped the subscription
                sub.delete()
            else:
                errors.append(str(error)[:100])
    if delivered:
        return ""
    return "; ".join(errors) or "no device"


def _deliver(seat: Seat, channel: str) -> str | None:
    """Send one notice unless sent before; returns None (skipped), '' (sent) or an error."""
    with transaction.atomic():
        notice, _created = CallNotice.objects.select_for_update().get_or_create(
            call=seat.call, match=seat.match, player=seat.player, channel=channel
        )
        if notice.sent_at is not None:
            return None
        if channel == CallNotice.Channel.EMAIL:
            try:
                _message(seat).send()
                error = ""
            except (smtplib.SMTPException, OSError) as failure:
                log.warning("call notice to %s not emailed: %s", seat.player, failure)
                error = str(failure)[:300] or type(failure).__name__
        else:
            error = _send_push(seat)
        notice.error = error
        if not error:
            notice.sent_at = timezone.now()
        notice.save(update_fields=["error", "sent_at"])
        return error


def send_call_notices(*, call_id: int, match_id: int | None = None) -> dict[str, int]:
    """Email (and push) every player of the call (with ``match_id``: of that match of
    the round only); counts of what was sent, skipped (sent before) and failed, and
    how many players have no address or one its owner has not confirmed for the club
    (``games.selectors_addresses``: no email notice is written for them; a push to the
    devices the person subscribed on their own account still goes)."""
    call = (
        RoundCall.objects.select_related("round__stage__tournament__club")
        .filter(pk=call_id)
        .first()
    )
    counts = {
        "sent": 0,
        "skipped": 0,
        "failed": 0,
        "no_address": 0,
        "unconfirmed": 0,
        "pushed": 0,
    }
    if call is None:
        return counts
    push = push_configured()
    pushable = set()
    if push:
        pushable = set(PushSubscription.objects.values_list("user_id", flat=True).distinct())
    seats = seats_of(call, match_id=match_id)
    confirmed = mailable(call.round.stage.tournament.club, [seat.player for seat in seats])
    for seat in seats:
        if seat.player.email and seat.player.pk in confirmed:
            outcome = _deliver(seat, CallNotice.Channel.EMAIL)
            key = "skipped" if outcome is None else ("sent" if outcome == "" else "failed")
            counts[key] += 1
        elif seat.player.email:
            counts["unconfirmed"] += 1
        else:
            counts["no_address"] += 1
        pushed = push and seat.player.user_id in pushable
        if pushed and _deliver(seat, CallNotice.Channel.PUSH) == "":
            counts["pushed"] += 1
    return counts
