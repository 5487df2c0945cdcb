"""Compiled queries (``core.compiled_queries``) give what the plain queryset gives, and
a locked write updates only the fields it changed (``core.locking.LockedWrite``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import BooleanField
from django.db.models.expressions import RawSQL
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.compiled_queries import CompiledQuery
from core.locking import LockedWrite, locking_query
from games.api import authentication
from games.models import Match, Player
from games.services import score_entry
from games.services.actors import actor_for_user
from games.services.match_records import GameInput
from games.services.match_writes import MATCH_ROWS
from tests.factories import (
    ClubFactory,
    MatchFactory,
    RatingFactory,
    RatingListFactory,
    UserFactory,
    token_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_path(settings):
    """These tests are of the fast path itself: on whatever the database's default."""
    settings.FAST_PATH = True


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.mark.parametrize("directs", [True, False])
def test_the_locking_query_of_a_score_entry_reads_what_the_queryset_reads(directs):
    club = ClubFactory.create()
    director = UserFactory.create()
    if directs:
        club.directors.add(director)
    match = MatchFactory.create(club=club, length=7)
    rating_list = RatingListFactory.create(club=club)
    RatingFactory.create(rating_list=rating_list, player=match.player1, rating=1612.5)
    admin = UserFactory.create(username="site-admin", is_superuser=True, is_staff=True)
    score_entry.record_game(
        actor=actor_for_user(admin), match_id=match.pk, game=GameInput(winner_id=match.player1_id)
    )
    match.refresh_from_db()
    with transaction.atomic():
        compiled = score_entry._LOCK_ASKING_DIRECTS.first(pk=match.pk, user=director.pk)
        (plain,) = locking_query(score_entry._rows(director.pk), match.pk)
    assert compiled is not None
    assert _fields(compiled) == _fields(plain)
    assert vars(compiled)["actor_directs"] == vars(plain)["actor_directs"] == directs
    assert vars(compiled)["list_rating1"] == vars(plain)["list_rating1"] == 1612.5
    assert vars(compiled)["list_rating2"] is None and vars(plain)["list_rating2"] is None
    if connection.vendor == "postgresql":
        assert vars(compiled)["locked_game_rows"] == vars(plain)["locked_game_rows"]
        assert [g["number"] for g in vars(compiled)["locked_game_rows"]] == [1]
        assert (
            vars(compiled)["snapshot_version"] == vars(plain)["snapshot_version"] == match.version
        )
    # the club and both players came with the row: reading them asks nothing more
    with CaptureQueriesContext(connection) as queries:
        names = (compiled.club.slug, compiled.player1.display_name, compiled.player2.slug)
    assert queries.captured_queries == []
    assert names == (club.slug, match.player1.display_name, match.player2.slug)


def test_a_compiled_query_runs_one_statement_and_finds_nothing_for_a_missing_row():
    match = MatchFactory.create()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert score_entry._LOCK.first(pk=match.pk + 1000) is None
        found = score_entry._LOCK.first(pk=match.pk)
    assert found is not None and found.pk == match.pk
    assert len(queries.captured_queries) == 2
    assert all(
        "FOR UPDATE" in q["sql"] or connection.vendor == "sqlite" for q in queries.captured_queries
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not connection.features.has_select_for_update, reason="Django checks this only with FOR UPDATE"
)
def test_a_locking_compiled_query_refuses_to_run_outside_a_transaction():
    match = MatchFactory.create()
    with pytest.raises(TransactionManagementError):
        score_entry._LOCK.first(pk=match.pk)


def test_a_name_that_is_not_a_parameter_of_the_query_fails_when_compiling():
    query = CompiledQuery(lambda pk, other: Match.objects.filter(pk=pk), "pk", "other")
    with pytest.raises(ValueError, match="'other' appears 0 times"):
        query.rows(pk=1, other=2)


def test_text_and_raw_values_take_their_place_in_the_compiled_query():
    club = ClubFactory.create()
    a = Player.objects.create(display_name="Ann", slug="ann")
    Player.objects.create(display_name="Bo", slug="bo")
    query = CompiledQuery(
        lambda slug, flag: Player.objects.filter(slug=slug).annotate(
            flag=RawSQL("%s", (flag,), BooleanField())
        ),
        "slug",
        "flag",
    )
    assert [(p.pk, vars(p)["flag"]) for p in query.rows(slug="ann", flag=True)] == [(a.pk, True)]
    assert [p.slug for p in query.rows(slug="bo", flag=False)] == ["bo"]
    assert query.rows(slug=club.slug, flag=False) == []


def test_the_token_check_finds_the_token_its_user_and_player_and_expired_others():
    user = UserFactory.create()
    player = Player.objects.create(display_name="Tok", slug="tok", user=user)
    token, _ = token_for(user)
    now = timezone.now()
    key = token.token_key
    compiled = authentication._CANDIDATES.rows(key=key, now=now)
    plain = list(authentication._candidates(key, now))
    assert [t.digest for t in compiled] == [t.digest for t in plain] == [token.digest]
    assert compiled[0].user.pk == user.pk and compiled[0].user.player.pk == player.pk
    assert compiled[0].expired_others is False
    token_for(user, expiry=timedelta(seconds=-1))  # another token, already expired
    assert authentication._CANDIDATES.rows(key=key, now=now)[0].expired_others is True
    assert authentication._CANDIDATES.rows(key="nosuchkey", now=now) == []


def test_a_locked_write_updates_only_what_changed_and_the_version():
    match = MatchFactory.create(label="before")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        write: LockedWrite[Match, None] = LockedWrite(MATCH_ROWS, match.pk, noun="match")
        write.row.label = "after"
        write.commit()
    updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    assigned = updates[0].split(" SET ", 1)[1].split(" WHERE ", 1)[0]
    assert sorted(part.split(" = ")[0].strip('"') for part in assigned.split(", ")) == [
        "label",
        "version",
    ]
    match.refresh_from_db()
    assert (match.label, match.version) == ("after", 2)
