"""Fixtures for the match API tests: a club, its director, two players with accounts."""

from __future__ import annotations

import pytest

from games.services import clubs as club_services
from games.services import matches as match_services
from games.services.actors import actor_for_user


@pytest.fixture
def alice_user(make_user):
    return make_user("alice")


@pytest.fixture
def bob_user(make_user):
    return make_user("bob")


@pytest.fixture
def alice(club, alice_user):
    return club_services.create_player(display_name="Alice", clubs=[club], user=alice_user)


@pytest.fixture
def bob(club, bob_user):
    return club_services.create_player(display_name="Bob", clubs=[club], user=bob_user)


@pytest.fixture
def make_match(club, director, alice, bob):
    def make(length: int = 5, **kwargs):
        return match_services.create_match(
            actor=actor_for_user(director),
            club=club,
            player1=alice,
            player2=bob,
            length=length,
            **kwargs,
        )

    return make


@pytest.fixture
def match(make_match):
    return make_match(5)
