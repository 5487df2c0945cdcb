"""Fixtures for money tests: events built and played through the tournament services."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import actor, make_event, play_out, win  # noqa: F401  (fixtures)


@pytest.fixture
def played():
    return play_out
