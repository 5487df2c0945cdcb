"""Check-in on a phone, the dashboard's calls and late penalties, the score sheet."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.models import Entry, LatePenalty, Pairing, PairingStatus, RoundCall
from tournaments.services import calls, check_in
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def test_player_checks_in_from_the_link_on_a_phone(make_event, actor):
    event = make_event(2, start=False)
    event_services.configure_tournament(actor=actor, tournament_id=event.pk, check_in_required=True)
    entry = Entry.objects.filter(tournament=event).select_related("player").first()
    url = f"/tournaments/{event.slug}/check-in/{check_in.check_in_token(entry)}/"
    phone = Client()
    page = phone.get(url).content.decode()
    assert entry.player.display_name in page and "I am here: check in" in page
    response = phone.post(url, follow=True)
    assert "checked in" in response.content.decode()
    assert Entry.objects.get(pk=entry.pk).checked_in_at is not None
    assert phone.get(f"/tournaments/{event.slug}/check-in/not-a-token/").status_code == 404


def test_director_ticks_check_in_and_drops_no_shows(make_event, actor, browser):
    event = make_event(3, start=False)
    event_services.configure_tournament(actor=actor, tournament_id=event.pk, check_in_required=True)
    first, second, absent = Entry.objects.filter(tournament=event).order_by("pk")
    page = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert "Drop 3 no-shows" in page
    for entry in (first, second):
        browser.post(f"/tournaments/{event.slug}/director/calls/check-in/", {"entry": entry.pk})
    page = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert "Drop 1 no-show" in page
    drop = f"/tournaments/{event.slug}/director/calls/drop-no-shows/"
    # the button asks first, naming who would be dropped; nothing is dropped yet
    asked = browser.post(drop)
    assert asked.status_code == 200
    html = asked.content.decode()
    assert f"Drop 1 no-show from {event.name}?" in html
    assert absent.player.display_name in html and first.player.display_name not in html
    assert f'action="{drop}"' in html and 'name="confirm" value="1"' in html
    assert Entry.objects.get(pk=absent.pk).status == "active"
    done = browser.post(drop, {"confirm": "1"}, follow=True)
    assert Entry.objects.get(pk=absent.pk).status == "withdrawn"
    assert f"1 no-show(s) dropped: {absent.player.display_name}." in done.content.decode()
    # with no one left to drop there is nothing to ask: the dashboard says so
    again = browser.post(drop, follow=True).content.decode()
    assert "No no-show to drop" in again


def test_dashboard_calls_a_round_then_shows_minutes_and_applies_a_confirmed_penalty(
    make_event, browser
):
    event = make_event(2, match_lengths={"default": 7})
    pairing = Pairing.objects.select_related("entry1__player", "entry2__player").get(
        tournament=event, status=PairingStatus.READY
    )
    page = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert "Call Main, round 1" in page
    browser.post(f"/tournaments/{event.slug}/director/calls/call/", {"round": pairing.round_id})
    RoundCall.objects.update(called_at=timezone.now() - timedelta(minutes=7, seconds=3))
    page = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert "called 7 min ago" in page
    late = pairing.entry1.player.display_name
    assert f"{late} late · +1" in page

    penalty_url = f"/tournaments/{event.slug}/director/calls/penalty/"
    form = {"match": pairing.match_id, "late_entry": pairing.entry1_id}
    asking = browser.post(penalty_url, form).content.decode()
    assert "Apply the late penalty" in asking and "gets 1 penalty point" in asking
    assert f'action="{penalty_url}"' in asking  # the yes posts back to the calls action
    assert not LatePenalty.objects.exists()  # nothing until confirmed
    browser.post(penalty_url, {**form, "confirm": "1"})
    (penalty,) = LatePenalty.objects.all()
    assert penalty.points == 1 and penalty.awarded_to_id == pairing.entry2.player_id

    sheet = browser.get(f"/matches/{pairing.match_id}/").content.decode()
    assert "Late penalty" in sheet
    assert pairing.entry2.player.display_name in sheet


def test_call_button_absent_once_called(make_event, actor, browser):
    event = make_event(2)
    calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)
    page = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert "Call Main, round 1" not in page and "called" in page


def test_home_page_offers_check_in_and_push_when_configured(
    make_event, actor, alice, alice_user, settings
):
    event = make_event(0, start=False)
    event_services.configure_tournament(actor=actor, tournament_id=event.pk, check_in_required=True)
    from tournaments.services import entries as entry_services

    entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=alice.pk)
    phone = Client()
    phone.force_login(alice_user)
    settings.VAPID_PUBLIC_KEY = ""
    page = phone.get("/").content.decode()
    assert f"/tournaments/{event.slug}/check-in/" in page
    assert "push-subscribe" not in page
    settings.VAPID_PUBLIC_KEY = "BPublicKeyForTests"
    page = phone.get("/").content.decode()
    assert 'data-key="BPublicKeyForTests"' in page and "push-sw.js" in page


def test_round_names_follow_the_pages_language(make_event, browser, alice_user):
    """ "Main, round 1" is German on a German page: the dashboard's call button, the
    clock page's title line (which also names who plays before the clock starts)."""
    event = make_event(2, match_lengths={"default": 7})
    pairing = Pairing.objects.select_related("entry1__player", "entry2__player").get(
        tournament=event, status=PairingStatus.READY
    )
    page = browser.get(f"/tournaments/{event.slug}/director/", HTTP_ACCEPT_LANGUAGE="de")
    html = page.content.decode()
    assert "Hauptrunde, Runde 1" in html and ", round 1" not in html
    clock = browser.get(f"/matches/{pairing.match_id}/clock/", HTTP_ACCEPT_LANGUAGE="de")
    html = clock.content.decode()
    assert f"{event.name}, Runde 1" in html and ", round 1" not in html
    one, two = pairing.entry1.player.display_name, pairing.entry2.player.display_name
    assert f'<p class="clock-players">{one} gegen {two}</p>' in html  # "v" in German


def test_dropping_no_shows_names_who_moved_up_from_the_waitlist(make_event, actor, browser):
    """Two places, three players: the one who waits and checked in moves up when the
    no-show is dropped, and the page names both."""
    event = make_event(3, start=False)
    event_services.configure_tournament(
        actor=actor, tournament_id=event.pk, check_in_required=True, capacity=2
    )
    first, absent, waiting = Entry.objects.filter(tournament=event).order_by("pk")
    Entry.objects.filter(pk=waiting.pk).update(status="waitlisted", waitlist_position=1)
    for entry in (first, waiting):
        browser.post(f"/tournaments/{event.slug}/director/calls/check-in/", {"entry": entry.pk})
    drop = f"/tournaments/{event.slug}/director/calls/drop-no-shows/"
    page = browser.post(drop, {"confirm": "1"}, follow=True).content.decode()
    assert (
        f"1 no-show(s) dropped: {absent.player.display_name}. Moved up from the waitlist: "
        f"{waiting.player.display_name}." in page
    )
    assert Entry.objects.get(pk=waiting.pk).status == "active"


def test_a_waitlisted_player_checking_in_late_takes_a_free_place(make_event, actor, browser):
    """The no-show was dropped while the waitlisted player had not checked in: no one
    moved up, and the page says so; when they check in, they move up, and the tick's
    message says it."""
    event = make_event(3, start=False)
    event_services.configure_tournament(
        actor=actor, tournament_id=event.pk, check_in_required=True, capacity=2
    )
    first, _absent, waiting = Entry.objects.filter(tournament=event).order_by("pk")
    Entry.objects.filter(pk=waiting.pk).update(status="waitlisted", waitlist_position=1)
    url = f"/tournaments/{event.slug}/director/calls/"
    browser.post(f"{url}check-in/", {"entry": first.pk})
    page = browser.post(f"{url}drop-no-shows/", {"confirm": "1"}, follow=True).content.decode()
    assert "No one moved up: the waitlisted players have not checked in" in page
    assert Entry.objects.get(pk=waiting.pk).status == "waitlisted"
    page = browser.post(f"{url}check-in/", {"entry": waiting.pk}, follow=True).content.decode()
    name = waiting.player.display_name
    assert f"{name} is checked in and moves up from the waitlist." in page
    assert Entry.objects.get(pk=waiting.pk).status == "active"
