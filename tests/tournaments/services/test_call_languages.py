"""Round calls reach each player in their language, else their club's (docs/languages.md)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.utils import translation

from games.models import Player
from games.services import clubs as club_services
from tests.factories import confirm_address
from tournaments.call_notices import send_call_notices
from tournaments.models import Entry
from tournaments.services import calls

pytestmark = pytest.mark.django_db


def _emails(event):
    for entry in Entry.objects.filter(tournament=event).select_related("player"):
        entry.player.email = f"{entry.player.slug}@example.org"
        entry.player.save()
        confirm_address(event.club, entry.player.email)


def _called(event, actor, capture):
    with capture(execute=True):
        calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)
    return {m.to[0]: m for m in mail.outbox}


def test_a_player_with_language_da_gets_a_danish_round_call(
    make_event, actor, django_capture_on_commit_callbacks
):
    event = make_event(2)
    _emails(event)
    Player.objects.filter(display_name="P01").update(language="da")
    with translation.override("en"):  # the worker's own language does not matter
        by_address = _called(event, actor, django_capture_on_commit_callbacks)

    danish = by_address[Player.objects.get(display_name="P01").email]
    assert "du spiller mod P02" in danish.subject
    assert "Hej P01," in danish.body and "Held og lykke!" in danish.body
    assert isinstance(danish, EmailMultiAlternatives)
    assert "Held og lykke!" in str(danish.alternatives[0][0])
    english = by_address[Player.objects.get(display_name="P02").email]  # club: en
    assert "you play P01" in english.subject and "Good luck!" in english.body
    assert translation.get_language() == "en"  # nothing leaks out of the job


def test_a_player_without_a_language_in_a_german_club_gets_german(
    make_event, actor, club, django_capture_on_commit_callbacks
):
    club_services.update_club(club=club, language="de")
    event = make_event(2)
    _emails(event)
    by_address = _called(event, actor, django_capture_on_commit_callbacks)

    assert len(by_address) == 2
    for message in by_address.values():
        assert "du spielst gegen" in message.subject
        assert "Hallo P0" in message.body and "Viel Glück!" in message.body


def test_the_push_is_in_the_players_language(
    make_event, actor, club, settings, monkeypatch, make_user
):
    import pywebpush

    from tournaments.models import PushSubscription

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    club_services.update_club(club=club, language="de")
    event = make_event(2)
    player = Player.objects.get(display_name="P01")
    player.user = make_user("push-da")
    player.language = "da"
    player.save()
    PushSubscription.objects.create(
        user=player.user, endpoint="https://fcm.googleapis.com/fcm/send/da", p256dh="k", auth="a"
    )
    sent = []
    monkeypatch.setattr(pywebpush, "webpush", lambda data, **kwargs: sent.append(data))
    (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)

    assert send_call_notices(call_id=call.pk)["pushed"] == 1
    assert "er kaldt op" in sent[0] and "du spiller mod P02" in sent[0]
