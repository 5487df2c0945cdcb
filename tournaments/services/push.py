"""Web-push subscriptions: a player's phone agrees to be told when a round is called.

The browser's ``PushManager.subscribe()`` hands out an endpoint and two keys; the
player's page posts them here (``static/js/push-subscribe.js``). The endpoint must be
a known push service's URL (``tournaments.push_endpoints``: https, a host of
``WEB_PUSH_ALLOWED_HOSTS``, public addresses only), else 400 naming ``endpoint``:
the worker POSTs there, so a URL a user typed must never be one.

An endpoint belongs to the account that first stored it: the same account subscribing
it again (a new key) replaces the keys; another account is refused with 409
``push_endpoint_taken``, which names nobody (the browser then asks its push service for
a fresh endpoint), so nobody can take over someone's device or learn whose it is. A
signed-in user removes only their own.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from core.actors import Actor
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from tournaments import push_endpoints
from tournaments.models import PushSubscription


def _require_account(actor: Actor) -> None:
    if actor.user is None or actor.via_score_link:
        raise NotAllowed("account_required", _("Sign in to get notifications on this device."))


def endpoint_refusal(endpoint: str) -> str:
    """Why the server may not push to ``endpoint`` ('' when it may), resolved now."""
    return push_endpoints.refusal(endpoint, allowed_hosts=settings.WEB_PUSH_ALLOWED_HOSTS)


@transaction.atomic
def subscribe_push(*, actor: Actor, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Store the device's subscription (or its new keys, when it is already this account's)."""
    _require_account(actor)
    assert actor.user is not None  # _require_account refused an anonymous actor
    refused = endpoint_refusal(endpoint)
    if refused:
        raise RuleViolation("push_endpoint_not_allowed", refused, field="endpoint")
    subscription, created = PushSubscription.objects.select_for_update().get_or_create(
        endpoint=endpoint, defaults={"user": actor.user, "p256dh": p256dh, "auth": auth}
    )
    if created:
        return subscription
    if subscription.user_id != actor.user.pk:
        raise ConflictError(
            "push_endpoint_taken",
            _("This device is subscribed by another account; subscribe it afresh."),
            field="endpoint",
        )
    subscription.p256dh, subscription.auth = p256dh, auth
    subscription.save(update_fields=["p256dh", "auth"])
    return subscription


@transaction.atomic
def unsubscribe_push(*, actor: Actor, endpoint: str) -> int:
    """Forget the device (only the account's own); returns how many were removed."""
    _require_account(actor)
    deleted, _rows = PushSubscription.objects.filter(endpoint=endpoint, user=actor.user).delete()
    return deleted
