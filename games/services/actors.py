"""Finding the actor (:class:`core.actors.Actor`) of a request, and where it stands on a
match: the player a user or a score link speaks for, a match's directors and sides."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import AnonymousUser, User

from core import access
from core.actors import Actor
from games.models import Match, Player


def actor_for_user(user: User | AnonymousUser | None) -> Actor:
    if user is None or not user.is_authenticated:
        return Actor(user=None, player=None)
    return Actor(user=user, player=_player_of(user), is_admin=access.is_site_admin(user))


#: ``user.player``, the reverse side of ``Player.user``.
_USER_PLAYER = Player._meta.get_field("user").remote_field


def _player_of(user: User) -> Player | None:
    """The user's player: no query when it came with the user (the API's token check
    selects it with the token), else one."""
    if _USER_PLAYER.is_cached(user):
        # the stubs type the cache as any Model; this relation's holds a Player (or None)
        return cast("Player | None", _USER_PLAYER.get_cached_value(user))
    return Player.objects.filter(user=user).first()


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
