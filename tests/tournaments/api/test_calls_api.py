"""The calls API: check-in, drop no-shows, call a round, late penalty, push subscriptions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Game
from games.services import clubs as club_services
from tests.factories import confirm_address
from tournaments.models import Entry, Pairing, PairingStatus, PushSubscription, RoundCall
from tournaments.services import check_in
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_director(client_for, director):
    return client_for(director)


def first_ready(event) -> Pairing:
    return (
        Pairing.objects.filter(tournament=event, status=PairingStatus.READY)
        .exclude(match=None)
        .select_related("entry1__player", "entry2__player", "match")
        .order_by("slot")
        .first()
    )


def test_call_round_answers_201_and_one_email_per_player(
    make_event, as_director, django_capture_on_commit_callbacks
):
    event = make_event(4)
    for entry in Entry.objects.filter(tournament=event).select_related("player"):
        entry.player.email = f"{entry.player.slug}@example.org"
        entry.player.save()
        confirm_address(event.club, entry.player.email)
    url = f"/api/v1/tournaments/{event.slug}/rounds/1/call/"
    with django_capture_on_commit_callbacks(execute=True):
        response = as_director.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="call-1")
    assert response.status_code == 201, response.json()
    (call,) = response.json()
    assert (call["stage"], call["number"], call["automatic"]) == ("main", 1, False)
    assert call["notify_job"] is not None
    assert len(mail.outbox) == 4

    with django_capture_on_commit_callbacks(execute=True):
        replay = as_director.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="call-1")
    assert replay.status_code == 201 and replay.json() == response.json()
    again = as_director.post(url, {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "round_already_called"
    assert len(mail.outbox) == 4


def test_call_round_refusals(make_event, as_director, client_for, alice_user, api_client):
    event = make_event(4)
    url = f"/api/v1/tournaments/{event.slug}/rounds/1/call/"
    assert api_client.post(url, {}, format="json").status_code == 401
    assert client_for(alice_user).post(url, {}, format="json").status_code == 403
    bad_stage = as_director.post(url, {"stage": "nowhere"}, format="json")
    assert bad_stage.status_code == 400 and bad_stage.json()["field"] == "stage"
    later = as_director.post(f"/api/v1/tournaments/{event.slug}/rounds/3/call/", {}, format="json")
    assert later.status_code == 409 and later.json()["code"] == "round_not_ready"
    assert not RoundCall.objects.exists()


def test_check_in_by_link_token_without_an_account(make_event, api_client, actor):
    event = make_event(2, start=False)
    event_services.configure_tournament(actor=actor, tournament_id=event.pk, check_in_required=True)
    entry = Entry.objects.filter(tournament=event).first()
    url = f"/api/v1/tournaments/{event.slug}/entries/{entry.pk}/check-in/"
    assert api_client.post(url, {}, format="json").status_code == 401
    forged = api_client.post(url, {"token": "nope"}, format="json")
    assert forged.status_code == 403 and forged.json()["code"] == "check_in_link_invalid"
    ok = api_client.post(url, {"token": check_in.check_in_token(entry)}, format="json")
    assert ok.status_code == 200 and ok.json()["checked_in_at"] is not None


def test_drop_no_shows_then_the_waitlist_moves_up(make_event, as_director, actor):
    event = make_event(2, start=False)
    event_services.configure_tournament(
        actor=actor, tournament_id=event.pk, check_in_required=True, capacity=2
    )
    waiting_player = club_services.create_player(display_name="Waiting", clubs=[event.club])
    response = as_director.post(
        f"/api/v1/tournaments/{event.slug}/entries/", {"player": waiting_player.pk}, format="json"
    )
    assert response.json()["status"] == "waitlisted" and response.json()["waitlist_position"] == 1
    present, absent = Entry.objects.filter(tournament=event, status="active").order_by("pk")
    waiting = Entry.objects.get(player=waiting_player)
    for entry in (present, waiting):
        as_director.post(
            f"/api/v1/tournaments/{event.slug}/entries/{entry.pk}/check-in/", {}, format="json"
        )
    dropped = as_director.post(
        f"/api/v1/tournaments/{event.slug}/drop-no-shows/", {}, format="json"
    )
    assert dropped.status_code == 200
    assert [e["id"] for e in dropped.json()] == [absent.pk]
    assert Entry.objects.get(pk=waiting.pk).status == "active"


def test_late_penalty_api(make_event, as_director, actor):
    event = make_event(2, match_lengths={"default": 7})
    pairing = first_ready(event)
    url = f"/api/v1/tournaments/{event.slug}/matches/{pairing.match_id}/late-penalty/"
    not_called = as_director.post(url, {"late_entry": pairing.entry1_id}, format="json")
    assert not_called.status_code == 409 and not_called.json()["code"] == "round_not_called"
    as_director.post(f"/api/v1/tournaments/{event.slug}/rounds/1/call/", {}, format="json")
    RoundCall.objects.update(called_at=timezone.now() - timedelta(minutes=6))

    response = as_director.post(url, {"late_entry": pairing.entry1_id}, format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["points"], body["match_lost"], body["minutes_late"]) == (1, False, 6)
    assert body["awarded_to"] == pairing.entry2.player_id
    assert sorted(body["score"]) == [0, 1]
    assert Game.objects.filter(match_id=pairing.match_id, ending="late_penalty").count() == 1
    stranger = as_director.post(url, {"late_entry": 999999}, format="json")
    assert stranger.status_code == 400 and stranger.json()["field"] == "late_entry"


def test_push_subscriptions_belong_to_an_account(client_for, alice_user, api_client):
    body = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
        "keys": {"p256dh": "BPk", "auth": "xyz"},
    }
    assert api_client.post("/api/v1/push-subscriptions/", body, format="json").status_code == 401
    alice = client_for(alice_user)
    assert alice.post("/api/v1/push-subscriptions/", body, format="json").status_code == 201
    assert alice.post("/api/v1/push-subscriptions/", body, format="json").status_code == 201
    assert PushSubscription.objects.get().user == alice_user
    no_keys = alice.post(
        "/api/v1/push-subscriptions/", {"endpoint": body["endpoint"]}, format="json"
    )
    assert no_keys.status_code == 400
    gone = alice.delete(
        "/api/v1/push-subscriptions/", {"endpoint": body["endpoint"]}, format="json"
    )
    assert gone.status_code == 204 and not PushSubscription.objects.exists()
