"""Push subscriptions name push services only, belong to their creator, and the sender
goes nowhere else (issue 25, item 3: a server-side request forgery through web push)."""

from __future__ import annotations

import pytest
import requests
from django.core import mail

from tournaments import push_endpoints
from tournaments.call_notices import send_call_notices
from tournaments.models import CallNotice, Entry, PushSubscription
from tournaments.services import calls

pytestmark = pytest.mark.django_db

URL = "/api/v1/push-subscriptions/"
KEYS = {"p256dh": "BPk", "auth": "xyz"}
FCM = "https://fcm.googleapis.com/fcm/send/device-1"


def subscribe(client, endpoint, keys=KEYS):
    return client.post(URL, {"endpoint": endpoint, "keys": keys}, format="json")


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1:6379/",
        "http://[::1]:5432/",
        "ftp://127.0.0.1/",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:10.0.0.1]/",
        "https://2130706433/",
        "http://fcm.googleapis.com/fcm/send/x",  # not https
        "https://fcm.googleapis.com:6379/fcm/send/x",  # not the https port
        "https://user@fcm.googleapis.com/fcm/send/x",  # user info
        "https://fcm.googleapis.com.evil.example/fcm/send/x",
        "https://evilfcm.googleapis.com/x",
        "https://push.apple.com/x",  # "*.push.apple.com" means its subdomains only
        "https://notify.windows.com.attacker.example/x",
        "https://example.org/push",
        "https://localhost/push",
    ],
)
def test_an_endpoint_that_is_not_a_push_service_is_refused(client_for, alice_user, endpoint):
    response = subscribe(client_for(alice_user), endpoint)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["field"] == "endpoint"
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        FCM,
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAA",
        "https://web.push.apple.com/QGmT0cZ",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
        "https://fcm.googleapis.com:443/fcm/send/x",
    ],
)
def test_the_browsers_push_services_are_accepted(client_for, alice_user, endpoint):
    response = subscribe(client_for(alice_user), endpoint)
    assert response.status_code == 201, response.json()
    assert PushSubscription.objects.get().endpoint == endpoint


@pytest.mark.parametrize(
    "addresses", [["10.0.0.5"], ["142.250.74.10", "127.0.0.1"], ["::ffff:169.254.169.254"], []]
)
def test_a_push_host_resolving_to_a_private_address_is_refused(
    client_for, alice_user, monkeypatch, addresses
):
    monkeypatch.setattr(push_endpoints, "resolver", lambda host: addresses)
    response = subscribe(client_for(alice_user), FCM)
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == (
        "push_endpoint_not_allowed",
        "endpoint",
    )
    assert not PushSubscription.objects.exists()


def test_the_allowed_hosts_are_a_setting(client_for, alice_user, settings):
    settings.WEB_PUSH_ALLOWED_HOSTS = ["*.push.example.net"]
    alice = client_for(alice_user)
    assert subscribe(alice, FCM).status_code == 400
    assert subscribe(alice, "https://eu.push.example.net/s/1").status_code == 201


def test_another_account_cannot_take_a_subscription_over(client_for, alice_user, bob_user):
    alice, bob = client_for(alice_user), client_for(bob_user)
    assert subscribe(alice, FCM).status_code == 201

    taken = subscribe(bob, FCM, keys={"p256dh": "BOB", "auth": "bob"})
    assert taken.status_code == 409
    assert (taken.json()["code"], taken.json()["field"]) == ("push_endpoint_taken", "endpoint")
    assert "alice" not in taken.content.decode().lower()
    kept = PushSubscription.objects.get()
    assert (kept.user, kept.p256dh, kept.auth) == (alice_user, "BPk", "xyz")

    assert bob.delete(URL, {"endpoint": FCM}, format="json").status_code == 204
    assert PushSubscription.objects.filter(user=alice_user).exists()  # not bob's to remove

    renewed = subscribe(alice, FCM, keys={"p256dh": "NEW", "auth": "new"})
    assert renewed.status_code == 201
    assert PushSubscription.objects.get().p256dh == "NEW"
    assert alice.delete(URL, {"endpoint": FCM}, format="json").status_code == 204
    assert not PushSubscription.objects.exists()


@pytest.fixture
def pushing_event(make_event, make_user, settings):
    """A called round's two players, each with an account (and VAPID keys set)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    event = make_event(2)
    users = []
    for number, entry in enumerate(Entry.objects.filter(tournament=event).select_related("player")):
        entry.player.user = make_user(f"pushed-{number}")
        entry.player.save()
        users.append(entry.player.user)
    return event, users


def test_the_sender_checks_stored_endpoints_again_and_never_posts_elsewhere(
    pushing_event, actor, monkeypatch
):
    """Rows stored before the check (or a host whose DNS changed since) are not sent to."""
    import pywebpush

    event, (one, two) = pushing_event
    PushSubscription.objects.create(
        user=one, endpoint="http://169.254.169.254/latest/meta-data/", p256dh="k", auth="a"
    )
    PushSubscription.objects.create(user=two, endpoint=FCM, p256dh="k", auth="a")
    monkeypatch.setattr(
        push_endpoints, "resolver", lambda host: ["10.1.2.3"] if host.startswith("fcm") else []
    )
    posted = []
    monkeypatch.setattr(pywebpush, "webpush", lambda subscription_info, **kw: posted.append(1))
    (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)

    counts = send_call_notices(call_id=call.pk)

    assert posted == [] and counts["pushed"] == 0
    errors = CallNotice.objects.filter(channel=CallNotice.Channel.PUSH).values_list(
        "error", flat=True
    )
    assert len(errors) == 2 and all(e.startswith("endpoint refused") for e in errors)


def test_the_sender_does_not_follow_a_redirect(pushing_event, actor, monkeypatch, settings):
    """The push service answering 307 to the metadata service: nothing follows it."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid
    from py_vapid.utils import b64urlencode

    vapid = Vapid()
    vapid.generate_keys()
    settings.VAPID_PRIVATE_KEY = b64urlencode(
        vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    )
    settings.VAPID_CLAIMS_EMAIL = "boxcars@example.org"
    device_key = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    event, (one, _two) = pushing_event
    PushSubscription.objects.create(
        user=one, endpoint=FCM, p256dh=b64urlencode(device_key), auth=b64urlencode(b"0" * 16)
    )
    sent = []

    def answer_307(adapter, request, **kwargs):
        sent.append(request.url)
        response = requests.Response()
        response.status_code, response.url, response.request = 307, request.url, request
        response.headers["Location"] = "http://169.254.169.254/latest/meta-data/"
        response.raw = None
        response._content = b""
        return response

    monkeypatch.setattr(requests.adapters.HTTPAdapter, "send", answer_307)
    (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)

    counts = send_call_notices(call_id=call.pk)

    assert sent == [FCM]
    assert counts["pushed"] == 0
    notice = CallNotice.objects.get(channel=CallNotice.Channel.PUSH, player__user=one)
    assert notice.sent_at is None and "307" in notice.error
    assert len(mail.outbox) == 0  # the players gave no address: only pushes were tried
