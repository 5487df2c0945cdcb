"""A round's own clock policy, set by a director: service, API and dashboard page."""

from __future__ import annotations

import pytest
from django.test import Client

from core.errors import NotAllowed, RuleViolation, StaleVersionError
from games.services.actors import actor_for_user
from tournaments.models import Round, Tournament
from tournaments.services import round_clocks

pytestmark = pytest.mark.django_db


def _policies(event) -> dict[int, str]:
    rows = Round.objects.filter(stage__tournament=event).order_by("number")
    return dict(rows.values_list("number", "clock_policy"))


def test_a_director_sets_one_rounds_policy_and_clears_it(make_event, actor):
    event = make_event(4, clock_policy="none")
    version = Tournament.objects.get(pk=event.pk).version
    (round_,) = round_clocks.set_round_clock_policy(
        actor=actor, tournament_id=event.pk, round_number=2, policy="required"
    )
    assert round_.clock_policy == "required"
    assert _policies(event) == {1: "", 2: "required"}
    assert Tournament.objects.get(pk=event.pk).version == version + 1
    round_clocks.set_round_clock_policy(
        actor=actor, tournament_id=event.pk, round_number=2, policy=""
    )
    assert _policies(event) == {1: "", 2: ""}


def test_unknown_policy_missing_round_and_stale_version_write_nothing(make_event, actor):
    event = make_event(4)
    with pytest.raises(RuleViolation) as error:
        round_clocks.set_round_clock_policy(
            actor=actor, tournament_id=event.pk, round_number=1, policy="sometimes"
        )
    assert (error.value.code, error.value.field) == ("clock_policy_unknown", "clock_policy")
    assert "required, allowed, none" in error.value.message
    with pytest.raises(RuleViolation) as error:
        round_clocks.set_round_clock_policy(
            actor=actor, tournament_id=event.pk, round_number=9, policy="none"
        )
    assert error.value.code == "round_not_found"
    with pytest.raises(StaleVersionError):
        round_clocks.set_round_clock_policy(
            actor=actor, tournament_id=event.pk, round_number=1, policy="none", expected_version=0
        )
    assert set(_policies(event).values()) == {""}


def test_only_the_clubs_directors_set_it(make_event, alice, alice_user):
    event = make_event(4)
    with pytest.raises(NotAllowed):
        round_clocks.set_round_clock_policy(
            actor=actor_for_user(alice_user), tournament_id=event.pk, round_number=1, policy="none"
        )
    assert set(_policies(event).values()) == {""}


def test_the_api_sets_it_with_if_match(make_event, client_for, director, alice_user, api_client):
    event = make_event(4, clock_policy="allowed")
    url = f"/api/v1/tournaments/{event.slug}/rounds/1/"
    etag = client_for(director).get(f"/api/v1/tournaments/{event.slug}/")["ETag"]
    response = client_for(director).patch(
        url, {"clock_policy": "none"}, format="json", HTTP_IF_MATCH=etag
    )
    assert response.status_code == 200, response.content
    (row,) = response.json()
    assert (row["number"], row["clock_policy"], row["effective_clock_policy"]) == (
        1,
        "none",
        "none",
    )
    assert response["ETag"] != etag
    stale = client_for(director).patch(
        url, {"clock_policy": "required"}, format="json", HTTP_IF_MATCH=etag
    )
    assert stale.status_code == 412
    bad = client_for(director).patch(url, {"clock_policy": "sometimes"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["field"] == "clock_policy" and "required" in bad.json()["detail"]
    assert client_for(alice_user).patch(url, {"clock_policy": ""}, format="json").status_code == 403
    assert api_client.patch(url, {"clock_policy": ""}, format="json").status_code == 401
    missing = client_for(director).patch(
        "/api/v1/tournaments/no-such-event/rounds/1/", {"clock_policy": ""}, format="json"
    )
    assert missing.status_code == 404
    cleared = client_for(director).patch(url, {"clock_policy": ""}, format="json")
    assert cleared.json()[0]["effective_clock_policy"] == "allowed"
    assert _policies(event)[1] == ""


def test_the_dashboard_sets_it(make_event, director, alice_user):
    event = make_event(4)
    browser = Client()
    browser.force_login(director)
    page = browser.get(f"/tournaments/{event.slug}/director/")
    assert page.status_code == 200
    assert b"Clock: event default" in page.content and b"round-clocks" in page.content
    round_ = Round.objects.get(stage__tournament=event, number=1)
    url = f"/tournaments/{event.slug}/director/round-clock/"
    answer = browser.post(url, {"round": round_.pk, "clock_policy": "required"}, follow=True)
    assert answer.status_code == 200
    assert _policies(event)[1] == "required"
    again = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert '<option value="required" selected>' in again
    bad = browser.post(url, {"round": round_.pk, "clock_policy": "sometimes"}, follow=True)
    assert b"clock_policy is blank" in bad.content
    assert _policies(event)[1] == "required"
    stranger = Client()
    stranger.force_login(alice_user)
    assert stranger.post(url, {"round": round_.pk, "clock_policy": "none"}).status_code == 404
    assert _policies(event)[1] == "required"
