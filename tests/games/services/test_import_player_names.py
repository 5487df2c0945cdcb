"""A transcript's player names find the club's members by case, never by look-alike
(issue #37: matching never uses the database's case folding; PostgreSQL's ``UPPER``
folds a dotless ı to I, so ``Vıctor`` was filed under the member Victor)."""

from __future__ import annotations

import pytest

from games.models import Player
from games.services import clubs as club_services
from games.services.transcripts.imports import _player
from tests.factories import UserFactory


def _club_with_victor():
    club = club_services.create_club(created_by=UserFactory.create(), name="Home", slug="home")
    victor = club_services.create_player(display_name="Victor", clubs=[club])
    return club, victor


@pytest.mark.django_db
def test_the_same_name_in_capitals_is_the_member():
    club, victor = _club_with_victor()
    assert _player(club, "VICTOR") == victor
    assert _player(club, "victor") == victor


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("look_alike", ["V\u0131ctor", "Vi\u0441tor", "\u212avictor"])
def test_a_look_alike_is_a_new_player_on_postgresql(look_alike):
    club, victor = _club_with_victor()
    found = _player(club, look_alike)
    assert found != victor and found.display_name == look_alike
    assert Player.objects.filter(memberships__club=club).count() == 2
