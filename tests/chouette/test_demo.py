"""The demo chouette: an open session with three games, seeded once."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from chouette.models import ChouetteGame, Session, SessionStatus
from chouette.selectors import session_sheet

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_one_open_chouette_with_three_games():
    call_command("seed_demo")
    call_command("seed_demo")  # idempotent
    session = Session.objects.get()
    assert session.status == SessionStatus.OPEN
    assert len(session.lineup) == 5
    assert ChouetteGame.objects.filter(session=session).count() == 3
    assert sum(session_sheet(session.pk).totals.values()) == 0
