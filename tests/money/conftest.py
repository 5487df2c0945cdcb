"""Fixtures for money tests: events built and played through the tournament services."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import actor, make_event, win  # noqa: F401  (fixtures)
from tournaments.models import PairingStatus


def play_out(event, win) -> None:  # noqa: F811
    """The better seed wins every match, through the match services."""
    while True:
        ready = list(
            event.pairings.filter(status=PairingStatus.READY, stale=False)
            .exclude(match=None)
            .select_related("entry1", "entry2")
        )
        if not ready:
            return
        for p in ready:
            win(event, p.key, min(p.entry1.seed, p.entry2.seed))


@pytest.fixture
def played():
    return play_out
