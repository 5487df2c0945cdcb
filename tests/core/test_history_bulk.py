"""The audit rows written in bulk (``core.history``) are the rows simple-history writes:
with the rows as one JSON parameter per table (PostgreSQL) and with model instances
(elsewhere, or where a value is not plain JSON, or somebody listens to the signals)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection, transaction
from simple_history.signals import pre_create_historical_record

from core import history
from games.models import Game, Match
from games.services import score_entry
from games.services.actors import actor_for_user
from games.services.match_records import GameInput
from tests.factories import MatchFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_path(settings):
    """These tests are of the fast path itself: on whatever the database's default."""
    settings.FAST_PATH = True


SKIP = {"history_id", "history_date"}
IDS = (
    *("id", "match_id", "club_id", "player1_id", "player2_id", "winner_id"),
    *("history_user_id", "entered_by_user_id", "created_by_id", "awaiting_id"),
)


def _rows(model, **filters) -> list[dict]:
    return [
        {k: v for k, v in row.items() if k not in SKIP}
        for row in model.history.filter(**filters).order_by("history_id").values()
    ]


def _enter_games(match: Match, actor, count: int) -> None:
    for i in range(count):
        winner = match.player1_id if i % 2 else match.player2_id
        score_entry.record_game(actor=actor, match_id=match.pk, game=GameInput(winner_id=winner))


def _record(monkeypatch, *, as_columns: bool) -> tuple[list[dict], list[dict]]:
    """Enter three games of a new match inside one bulk block per game, as the API
    does; the historical rows of the match and of its games."""
    if not as_columns:
        monkeypatch.setattr(history, "_as_columns", lambda model: False)
    director = UserFactory.create(username=f"dir-{as_columns}", is_superuser=True, is_staff=True)
    match = MatchFactory.create(length=3, label="bulk")
    _enter_games(match, actor_for_user(director), 3)
    games = list(Game.objects.filter(match=match).values_list("pk", flat=True))
    return _rows(Match, id=match.pk), _rows(Game, id__in=games)


def _normalise(rows: list[dict]) -> list[dict]:
    """Rows of two different matches compared: their own ids and times set aside."""
    out = []
    for row in rows:
        row = dict(row)
        for key in IDS:
            if row.get(key) is not None:
                row[key] = "set"
        for key in ("created_at", "finished_at"):
            if row.get(key) is not None:
                assert isinstance(row[key], datetime.datetime)
                row[key] = "set"
        out.append(row)
    return out


def test_the_json_rows_are_the_rows_simple_history_writes(monkeypatch):
    json_match, json_games = _record(monkeypatch, as_columns=True)
    monkeypatch.undo()
    plain_match, plain_games = _record(monkeypatch, as_columns=False)
    assert len(json_match) == len(plain_match) >= 4  # created, then one change per game
    assert len(json_games) == len(plain_games) == 3
    assert _normalise(json_match) == _normalise(plain_match)
    assert _normalise(json_games) == _normalise(plain_games)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the JSON rows are PostgreSQL's")
def test_the_json_rows_keep_every_value_and_the_time_of_each_save():
    director = UserFactory.create(username="dir-json", is_superuser=True, is_staff=True)
    match = MatchFactory.create(length=3)
    with transaction.atomic(), history.history_in_bulk() as batch:
        _enter_games(match, actor_for_user(director), 2)
        assert batch.rows == [] and len(batch.columns) == 4  # two games, two match saves
    stored = Match.history.filter(id=match.pk).order_by("history_id")
    *_, first, second = stored
    assert (first.score1 + first.score2, second.score1 + second.score2) == (1, 2)
    assert first.history_date < second.history_date
    assert first.history_user_id == second.history_user_id  # no request here: None
    assert first.history_type == second.history_type == "~"
    match.refresh_from_db()
    assert {f.attname: getattr(second, f.attname) for f in Match._meta.concrete_fields} == {
        f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields
    }


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        ([{"dice": [6, 5]}], "JSONField", [{"dice": [6, 5]}]),
        ([{"at": object()}], "JSONField", history._NOT_JSON),
        (float("nan"), "FloatField", history._NOT_JSON),
        (1.5, "FloatField", 1.5),
        (datetime.datetime(2026, 11, 23, 7, 0), "DateTimeField", history._NOT_JSON),
        (
            datetime.datetime(2026, 11, 23, 7, 0, 0, 123456, tzinfo=datetime.UTC),
            "DateTimeField",
            "2026-11-23T07:00:00.123456+00:00",
        ),
        (datetime.date(2026, 11, 23), "DateField", "2026-11-23"),
        (None, "JSONField", None),
    ],
)
def test_only_plain_json_values_go_as_json(value, kind, expected):
    assert history._json_value(value, kind) == expected or (
        expected is history._NOT_JSON and history._json_value(value, kind) is expected
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the JSON rows are PostgreSQL's")
def test_with_a_listener_the_rows_are_instances_and_the_listener_gets_them():
    heard = []

    def listener(sender, history_instance, **kwargs):
        heard.append(history_instance)

    director = UserFactory.create(username="dir-heard", is_superuser=True, is_staff=True)
    match = MatchFactory.create(length=3)
    pre_create_historical_record.connect(listener, sender=Match.history.model)
    try:
        with transaction.atomic(), history.history_in_bulk() as batch:
            _enter_games(match, actor_for_user(director), 1)
            assert [type(row) for row, _ in batch.rows] == [Match.history.model]
            assert len(batch.columns) == 1  # the game: nobody listens to its rows
    finally:
        pre_create_historical_record.disconnect(listener, sender=Match.history.model)
    assert [h.version for h in heard] == [match.version + 1]
    assert Match.history.filter(id=match.pk).latest("history_id").version == match.version + 1
