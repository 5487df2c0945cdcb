"""Finding the actor (:class:`core.actors.Actor`) of a request, and where it stands on a
match: the player a user or a score link speaks for, a match's directors and sides."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from core import access
from core.actors import Actor
from games.models import Match, Player


def actor_for_user(user: AbstractBaseUser | AnonymousUser | None) -> Actor:
    if user is None or not user.is_authenticated:
        return Actor(user=None, player=None)
    player = Player.objects.filter(user=user).first()
    return Actor(user=user, player=player, is_admin=access.is_site_admin(user))


def actor_for_score_link(player: Player) -> Actor:
    return Actor(user=None, player=player, via_score_link=True)


def is_match_director(actor: Actor, match: Match) -> bool:
    if actor.is_admin:
        return True
    if actor.user is None:
        return False
    return match.club.directors.filter(pk=actor.user.pk).exists()


def participant_side(actor: Actor, match: Match) -> int | None:
    return match.side_of(actor.player)
