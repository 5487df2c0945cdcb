"""``seed_demo`` builds the demo tournaments once, whatever how often it runs."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_seed_demo_builds_a_running_bracket_and_a_swiss_idempotently():
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())
    bracket = Tournament.objects.get(slug="demo-friday-bracket")
    swiss = Tournament.objects.get(slug="demo-tuesday-swiss")
    assert Tournament.objects.count() == 2
    assert bracket.status == swiss.status == "running"
    assert bracket.entries.count() == 13
    assert bracket.pairings.filter(status="played").exists()
    assert bracket.pairings.filter(status="ready").exists()
    assert swiss.stages.get().rounds.count() == 3
