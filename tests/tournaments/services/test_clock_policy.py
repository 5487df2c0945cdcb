"""An event's clock settings reach its matches' clocks: the policy (a round may
override it), the preset, and what a flag fall does."""

from __future__ import annotations

import pytest

from games.rules.clock import MINUTE, SECOND, FlagRule, Preset
from games.rules.errors import ConflictError, RuleViolation
from games.services import clocks as clock_services
from tournaments.models import Pairing, Round
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def _first_match(event):
    return Pairing.objects.filter(tournament=event).exclude(match=None).first().match


def _start(actor, match, **asked):
    return clock_services.start_clock(
        actor=actor,
        match_id=match.pk,
        request=clock_services.ClockRequest(preset=Preset.USBGF, **asked),
    )


def test_an_event_without_clocks_refuses_one(make_event, actor):
    event = make_event(4, clock_policy="none")
    with pytest.raises(ConflictError) as error:
        _start(actor, _first_match(event))
    assert error.value.code == "clocks_not_used"


def test_a_round_may_require_clocks_in_an_event_without_them(make_event, actor):
    event = make_event(4, clock_policy="none")
    Round.objects.filter(stage__tournament=event).update(clock_policy="required")
    assert _start(actor, _first_match(event)).status == "ready"


def test_the_events_flag_rule_wins_over_the_request(make_event, actor):
    event = make_event(4, clock_flag_rule="overtime", clock_overtime_ms=2 * MINUTE)
    clock = _start(actor, _first_match(event), flag_rule=FlagRule.LOSS, overtime_ms=SECOND)
    assert clock.flag_rule == "overtime"
    assert clock.overtime_ms == 2 * MINUTE


def test_clock_settings_change_after_the_start(make_event, actor):
    event = make_event(4)
    changed = event_services.configure_tournament(
        actor=actor, tournament_id=event.pk, clock_policy="required"
    )
    assert changed.clock_policy == "required"


def test_an_unknown_clock_policy_names_its_field(make_event, actor):
    event = make_event(4, start=False)
    with pytest.raises(RuleViolation) as error:
        event_services.configure_tournament(
            actor=actor, tournament_id=event.pk, clock_policy="sometimes"
        )
    assert error.value.field == "clock_policy"


def test_a_director_sets_the_clock_through_the_api(make_event, client_for, director):
    event = make_event(4)
    response = client_for(director).patch(
        f"/api/v1/tournaments/{event.slug}/",
        {"clock_policy": "required", "clock_flag_rule": "overtime"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["clock_policy"] == "required"
    assert response.json()["clock_flag_rule"] == "overtime"
    refused = client_for(director).patch(
        f"/api/v1/tournaments/{event.slug}/", {"clock_overtime_ms": 5}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["field"] == "clock_overtime_ms"
