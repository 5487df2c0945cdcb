"""The outbox through a real worker: a finished match's event is handled exactly once."""

from __future__ import annotations

import pytest

from core.models import DomainEvent
from games.models import Match
from games.services import clubs as club_services
from games.services import match_create, match_records, score_entry
from games.services.actors import actor_for_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_finished_match_event_is_handled_by_the_worker(live_worker, wait_for, make_user):
    director = make_user("int-director")
    club = club_services.create_club(created_by=director, name="Worker Club")
    a = club_services.create_player(display_name="A", clubs=[club])
    b = club_services.create_player(display_name="B", clubs=[club])
    actor = actor_for_user(director)
    match = match_create.create_match(actor=actor, club=club, player1=a, player2=b, length=1)
    score_entry.record_game(
        actor=actor, match_id=match.pk, game=match_records.GameInput(winner_id=a.pk)
    )
    event = DomainEvent.objects.get(kind="match.finished")
    # with the facts its handlers decide on (a rated match, no transcript)
    assert event.payload == {
        "match_id": match.pk,
        "club_id": club.pk,
        "rated": True,
        "transcript": False,
    }
    wait_for(lambda: DomainEvent.objects.get(pk=event.pk).handled_at, what="the event")
    assert DomainEvent.objects.get(pk=event.pk).attempts == 1
    assert Match.objects.get(pk=match.pk).status == "finished"
