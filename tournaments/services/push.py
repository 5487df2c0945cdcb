"""Web-push subscriptions: a player's phone agrees to be told when a round is called.

The browser's ``PushManager.subscribe()`` hands out an endpoint and two keys; the
player's page posts them here (``static/js/push-sw.js`` and the button on the player's
page). An endpoint belongs to one account: subscribing it again (the same phone, a new
key) replaces the keys, and a signed-in user may only remove their own.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.actors import Actor
from games.rules.errors import NotAllowed
from tournaments.models import PushSubscription


def _require_account(actor: Actor) -> None:
    if actor.user is None or actor.via_score_link:
        raise NotAllowed("account_required", _("Sign in to get notifications on this device."))


@transaction.atomic
def subscribe_push(*, actor: Actor, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Store (or move to this account, with new keys) the device's subscription."""
    _require_account(actor)
    subscription, _created = PushSubscription.objects.select_for_update().update_or_create(
        endpoint=endpoint, defaults={"user": actor.user, "p256dh": p256dh, "auth": auth}
    )
    return subscription


@transaction.atomic
def unsubscribe_push(*, actor: Actor, endpoint: str) -> int:
    """Forget the device (only the account's own); returns how many were removed."""
    _require_account(actor)
    deleted, _rows = PushSubscription.objects.filter(endpoint=endpoint, user=actor.user).delete()
    return deleted
