"""Shared set-up of the chouette tests: a club table of players, some with accounts."""

from __future__ import annotations

from rest_framework.test import APIClient

from games.services import clubs as club_services
from tests.factories import UserFactory

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gil"]


def make_table(club, count: int = 5, accounts: int = 2) -> dict:
    """``count`` club members named Ann, Ben, ...; the first ``accounts`` have accounts
    (without a password: the tests authenticate directly, and hashing is slow)."""
    table = {}
    for index, name in enumerate(NAMES[:count]):
        user = (
            UserFactory.create(username=name.lower(), password=None) if index < accounts else None
        )
        table[name] = club_services.create_player(display_name=name, clubs=[club], user=user)
    return table


def client(user) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def member(player, cube=None, action="played", **extra) -> dict:
    row = {"player": player.pk, "action": action, **extra}
    if cube is not None:
        row["cube"] = cube
    return row


def sessions_url(pk: int | None = None, tail: str = "") -> str:
    base = "/api/v1/chouette/sessions/"
    return base if pk is None else f"{base}{pk}/{tail}"
