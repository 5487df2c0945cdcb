"""The score-entry body is rendered by a plain function (``games.api.match_render``)
instead of ``MatchDetailSerializer``, which still describes it in the OpenAPI schema.
The two must give the same body for a match in any state: compared key for key, both
on the match a service returned (its game rows already read) and on the match read
back from the database (the function reads the games itself)."""

from __future__ import annotations

import datetime

import pytest

from games.api.match_render import match_detail
from games.api.match_serializers import GameSerializer, MatchDetailSerializer
from games.selectors import matches_queryset
from games.services import match_records, match_results, score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


def assert_same_body(match) -> None:
    assert match_detail(match) == MatchDetailSerializer(match).data
    again = matches_queryset().get(pk=match.pk)
    assert match_detail(again) == MatchDetailSerializer(again).data


def _game(winner, **kwargs):
    return match_records.GameInput(winner_id=winner.pk, **kwargs)


def test_a_new_match(make_match):
    assert_same_body(make_match(5, label="Final", played_on=datetime.date(2026, 3, 1)))


def test_an_unlimited_session(make_match, director, alice):
    match = make_match(0, rated=False)
    match = score_entry.record_game(
        actor=actor_for_user(director), match_id=match.pk, game=_game(alice)
    )
    assert_same_body(match)


def test_through_the_crawford_game_to_the_end(make_match, director, alice, bob):
    actor = actor_for_user(director)
    match = make_match(3)
    bodies = []
    # 2-0 (Alice at match point: the Crawford game next), 2-1 (Crawford played),
    # 2-2 (post-Crawford), 3-2 (finished)
    for winner, kwargs in ((alice, {"cube": 2}), (bob, {}), (bob, {}), (alice, {})):
        match = score_entry.record_game(
            actor=actor, match_id=match.pk, game=_game(winner, **kwargs)
        )
        assert_same_body(match)
        bodies.append(match_detail(match))
    assert any(b["next_game_is_crawford"] for b in bodies)
    assert any(b["crawford_game"] for b in bodies)
    assert any(b["post_crawford"] for b in bodies)
    assert bodies[-1]["winner"] is not None and bodies[-1]["finished_at"]


def test_a_final_score_and_a_forfeit(make_match, director, alice):
    actor = actor_for_user(director)
    match = make_match(5)
    assert_same_body(score_entry.record_final_score(actor=actor, match_id=match.pk, score=(5, 2)))
    other = make_match(7)
    assert_same_body(
        match_results.forfeit_match(actor=actor, match_id=other.pk, winner_id=alice.pk)
    )
    void = make_match(7)
    assert_same_body(match_results.void_match(actor=actor, match_id=void.pk))


def test_a_game_has_the_fields_the_schema_names(make_match, director, alice):
    """Both bodies build a game with ``match_render.game_body``; ``GameSerializer`` only
    describes it in the schema, so its fields are checked against the body here."""
    match = make_match(5)
    match = score_entry.record_game(
        actor=actor_for_user(director), match_id=match.pk, game=_game(alice)
    )
    for body in (match_detail(match), match_detail(matches_queryset().get(pk=match.pk))):
        assert list(body["games"][0]) == GameSerializer.Meta.fields
