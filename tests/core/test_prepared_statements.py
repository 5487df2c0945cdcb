"""On PostgreSQL the server binds the parameters and prepares a statement the
connection runs often (settings: ``DATABASE_PREPARED_STATEMENTS``), so the hot
statements are parsed and planned once per connection, not once per request."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games.models import Match
from tests.factories import MatchFactory

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_statement_run_often_is_prepared_once_with_its_parameters_bound_by_the_server():
    match = MatchFactory.create()
    table = Match._meta.db_table
    for _ in range(6):
        assert Match.objects.filter(pk=match.pk, label="x").exists() is False
    mine = [s for s in _prepared() if f'FROM "{table}"' in s and '"label" = $2' in s]
    assert len(mine) == 1, _prepared()


def test_many_keys_in_one_list_stay_within_the_protocols_parameters():
    from games.services.ratings import recompute

    keys = list(range(1, 70_001))  # more than one statement may bind (65,535)
    batches = recompute._batches(keys)
    assert [k for b in batches for k in b] == keys
    assert all(len(b) <= recompute.IN_BATCH < 65_535 for b in batches)
    for batch in batches:
        assert Match.objects.filter(pk__in=batch).count() == 0
    with pytest.raises(DatabaseError), transaction.atomic():  # why the lists are cut
        Match.objects.filter(pk__in=keys).count()
