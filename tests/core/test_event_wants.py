"""An outbox event no handler wants is not written (``core.events.wanted``): a
championship's unrated matches without a transcript made an outbox event each that
every handler then ignored, at the cost of a Celery task and its bookkeeping."""

from __future__ import annotations

import pytest

from core import events
from core.models import DomainEvent
from games import events as game_events
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db

KIND = "test.wants"


def _handler(payload: dict) -> None:
    pass


def _other(payload: dict) -> None:
    pass


def test_an_event_is_written_when_one_of_its_handlers_wants_it(monkeypatch):
    monkeypatch.setitem(events._handlers, KIND, [_handler, _other])
    monkeypatch.setitem(events._wants, (KIND, _handler), lambda p: p.get("rated", True))
    monkeypatch.setitem(events._wants, (KIND, _other), lambda p: p.get("transcript", True))
    events.emit(KIND, rated=False, transcript=False)
    assert not DomainEvent.objects.filter(kind=KIND).exists()
    events.emit(KIND, rated=True, transcript=False)
    events.emit(KIND, rated=False, transcript=True)
    events.emit(KIND)  # an older emitter's payload, without the facts: wanted
    assert DomainEvent.objects.filter(kind=KIND).count() == 3


def test_a_kind_without_handlers_is_written_as_always(monkeypatch):
    monkeypatch.delitem(events._handlers, KIND, raising=False)
    events.emit(KIND, rated=False)
    assert DomainEvent.objects.filter(kind=KIND).count() == 1


@pytest.mark.parametrize(("rated", "written"), [(True, 1), (False, 0)])
def test_a_finished_match_is_followed_up_only_if_rated_or_transcribed(
    club, director, rated, written
):
    """Through the score entry: the rating list wants rated matches, the analysis
    matches with a transcript; an unrated match entered by score has neither."""
    actor = actor_for_user(director)
    a, b = (club_services.create_player(display_name=n, clubs=[club]) for n in "AB")
    match = match_create.create_match(
        actor=actor, club=club, player1=a, player2=b, length=3, rated=rated
    )
    score_entry.record_final_score(actor=actor, match_id=match.pk, score=(3, 1))
    finished = DomainEvent.objects.filter(kind=game_events.MATCH_FINISHED)
    assert finished.count() == written
    if written:
        assert finished.get().payload == {
            "match_id": match.pk,
            "club_id": club.pk,
            "rated": True,
            "transcript": False,
        }
