"""Capacity, waitlist, check-in and the clock policy (per event and per round) on the
create page and the event's settings page (tournaments.event_settings_form), through
Django's client: the settings reach the event and its rounds, the result is said in
words, and bad input comes back next to its field with nothing written."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Entry, Round, StageKind, Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

BASE = {"name": "Weekend Open", "format": "single_elimination", "length": "5", "action": "create"}


@pytest.fixture
def desk(director) -> Client:
    browser = Client()
    browser.force_login(director)
    return browser


def test_the_create_page_sets_capacity_check_in_and_clocks_per_round(desk, club, director):
    fields = {
        **BASE,
        "capacity": "8",
        "check_in_required": "on",
        "clock_policy": "allowed",
        "clock_from_stage": "main",
        "clock_from_round": "-2",
        "clock_from_policy": "required",
    }
    answer = desk.post(f"/tournaments/new/{club.slug}/", fields, follow=True)
    event = Tournament.objects.get(name="Weekend Open")
    assert (event.capacity, event.check_in_required, event.clock_policy) == (8, True, "allowed")
    assert event.clock_rounds == [{"stage": "main", "from": -2, "policy": "required"}]
    page = answer.content.decode()
    assert "Weekend Open is created (a draft): capacity 8 (a waitlist beyond it)" in page
    assert "clocks required from semi-finals" in page
    # eight players in: the rounds take the plan when drawn (semis and final required)
    actor = actor_for_user(director)
    for i in range(8):
        player = club_services.create_player(display_name=f"P{i}", clubs=[club])
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    Entry.objects.filter(tournament=event).update(checked_in_at=timezone.now())
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    policies = dict(
        Round.objects.filter(stage__tournament=event, stage__kind=StageKind.MAIN).values_list(
            "number", "clock_policy"
        )
    )
    assert policies == {1: "", 2: "required", 3: "required"}


def test_bad_settings_come_back_next_to_their_fields_with_nothing_written(desk, club):
    fields = {**BASE, "capacity": "1", "clock_from_stage": "main"}
    answer = desk.post(f"/tournaments/new/{club.slug}/", fields)
    assert answer.status_code == 400
    page = answer.content.decode()
    assert 'id="id_capacity-error"' in page
    assert "greater than or equal to 2" in page
    assert 'id="id_clock_from_round-error"' in page and "fill in all three or none" in page
    assert not Tournament.objects.filter(name="Weekend Open").exists()


def test_the_settings_page_changes_them_and_says_so(desk, club, director):
    desk.post(f"/tournaments/new/{club.slug}/", BASE)
    event = Tournament.objects.get(name="Weekend Open")
    url = f"/tournaments/{event.slug}/settings/"
    assert 'name="capacity"' in desk.get(url).content.decode()
    answer = desk.post(
        url, {"capacity": "64", "check_in_required": "on", "clock_policy": "required"}, follow=True
    )
    event.refresh_from_db()
    assert (event.capacity, event.check_in_required, event.clock_policy) == (64, True, "required")
    page = answer.content.decode()
    assert "Settings of Weekend Open saved: capacity 64 (a waitlist beyond it), check-in" in page


def test_capacity_is_refused_after_the_start_next_to_its_field(desk, club, make_event):
    event = make_event(4)
    url = f"/tournaments/{event.slug}/settings/"
    answer = desk.post(url, {"capacity": "8", "clock_policy": "allowed"})
    assert answer.status_code == 400
    assert "Nothing was saved." in answer.content.decode()
    event.refresh_from_db()
    assert event.capacity is None


def test_strangers_get_no_settings_page(club, make_user, make_event):
    event = make_event(2, start=False)
    browser = Client()
    browser.force_login(make_user("stranger"))
    assert browser.get(f"/tournaments/{event.slug}/settings/").status_code == 404


def test_the_api_takes_and_checks_a_clock_plan(club, client_for, director):
    url = "/api/v1/tournaments/"
    bad = client_for(director).post(
        url,
        {
            "club": club.slug,
            "name": "Bad",
            "format": "swiss",
            "swiss_rounds": 3,
            "clock_rounds": [{"stage": "main", "from": 0, "policy": "required"}],
        },
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["code"] == "clock_rounds_round", bad.json()
    assert bad.json()["field"] == "clock_rounds"
