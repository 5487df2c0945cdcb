"""Clocks enforced where required (games.services.clock_guard): a final result without a
clock is refused for players, through the API and the entry page, and a director may
enter it with a reason that goes to the match's audit trail."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Match, MatchStatus, Player
from games.rules.clock import Preset
from games.services import clocks as clock_services
from games.services.actors import actor_for_user
from tournaments.models import Pairing, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def required_match(make_event, make_user):
    """A 2-player event whose clock policy is required; player 1 has an account."""
    event = make_event(2, clock_policy="required")
    match = Pairing.objects.filter(tournament=event).exclude(match=None).get().match
    user = make_user("ann")
    Player.objects.filter(pk=match.player1_id).update(user=user)
    return match, user


def _final(client_for, user, match, **extra):
    return client_for(user).post(
        f"/api/v1/matches/{match.pk}/result/",
        {"score": [match.length, 0], **extra},
        format="json",
    )


def test_a_player_is_refused_a_clockless_final_score(required_match, client_for):
    match, ann = required_match
    answer = _final(client_for, ann, match)
    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "clock_required"
    assert answer.json()["field"] == "score"
    assert "requires a clock" in answer.json()["detail"]
    match.refresh_from_db()
    assert match.status != MatchStatus.FINISHED and not match.final_score_only


def test_a_player_is_refused_the_game_that_ends_a_clockless_match(required_match, client_for):
    match, ann = required_match
    game = {"winner": match.player1_id, "cube": 2, "level": "backgammon", "number": 1}
    answer = client_for(ann).post(f"/api/v1/matches/{match.pk}/games/", game, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "clock_required"
    assert not Match.objects.get(pk=match.pk).games.exists()
    # a game that does not end the match is taken: the clock is asked only at the end
    single = {"winner": match.player1_id, "number": 1}
    taken = client_for(ann).post(f"/api/v1/matches/{match.pk}/games/", single, format="json")
    assert taken.status_code == 201, taken.content


def test_a_match_played_on_a_clock_takes_its_final_score(required_match, client_for):
    match, ann = required_match
    clock_services.start_clock(
        actor=actor_for_user(ann),
        match_id=match.pk,
        request=clock_services.ClockRequest(preset=Preset.USBGF),
    )
    answer = _final(client_for, ann, match)
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "finished"


def test_a_director_overrides_with_a_reason_kept_in_the_audit_trail(
    required_match, client_for, director
):
    match, _ = required_match
    bare = _final(client_for, director, match)
    assert bare.status_code == 400
    assert bare.json()["code"] == "clock_override_reason_required"
    assert bare.json()["field"] == "clock_override_reason"
    assert not Match.objects.get(pk=match.pk).final_score_only
    answer = _final(client_for, director, match, clock_override_reason="The clock's phone died")
    assert answer.status_code == 200, answer.content
    reasons = list(
        Match.history.filter(id=match.pk).values_list("history_change_reason", flat=True)
    )
    assert "clock override by a director: The clock's phone died" in reasons


def test_a_round_that_requires_clocks_is_enforced_in_an_event_that_allows_them(
    make_event, client_for, director
):
    event = make_event(2)  # the event allows clocks: no reason needed ...
    match = Pairing.objects.filter(tournament=event).exclude(match=None).get().match
    Round.objects.filter(stage__tournament=event).update(clock_policy="required")
    answer = _final(client_for, director, match)  # ... but its round requires one
    assert answer.status_code == 400
    assert answer.json()["code"] == "clock_override_reason_required"


def test_an_event_that_allows_clocks_takes_a_clockless_final_score(
    make_event, client_for, director
):
    event = make_event(2)
    match = Pairing.objects.filter(tournament=event).exclude(match=None).get().match
    assert _final(client_for, director, match).status_code == 200


def test_the_entry_page_says_why_and_takes_the_directors_reason(required_match, director):
    match, ann = required_match
    player = Client()
    player.force_login(ann)
    url = f"/matches/{match.pk}/enter/"
    page = player.get(url).content.decode()
    assert "This round requires a clock: start the match clock" in page
    assert 'name="clock_override_reason"' not in page  # players get no override
    refused = player.post(url, {"action": "final", "you": match.length, "opponent": 0})
    assert refused.status_code == 400
    assert "cannot be entered by a player" in refused.content.decode()
    assert not Match.objects.get(pk=match.pk).final_score_only
    boss = Client()
    boss.force_login(director)
    form = {"action": "final", "score1": match.length, "score2": 0}
    blank = boss.post(url, form)
    assert blank.status_code == 400
    body = blank.content.decode()
    assert 'name="clock_override_reason"' in body and 'aria-invalid="true"' in body
    assert "say why the result stands without one" in body
    done = boss.post(url, {**form, "clock_override_reason": "Table clock"}, follow=True)
    assert "Final score recorded." in done.content.decode()
    assert Match.objects.get(pk=match.pk).final_score_only
