"""Factories for test data, built through the services where rules apply."""

from __future__ import annotations

from typing import cast

import factory
from django.contrib.auth import get_user_model

from games.models import Club, Membership, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pw-for-tests-1")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n}")
    slug = factory.Sequence(lambda n: f"player-{n}")


def member(club: Club, player: Player | None = None, **kwargs) -> Player:
    player = player or cast(Player, PlayerFactory(**kwargs))  # factory_boy returns a Player
    Membership.objects.get_or_create(club=club, player=player)
    return player
