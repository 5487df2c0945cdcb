"""Who is acting on a match: a signed-in user, a director, or a private score link."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from games import access
from games.models import Match, Player


@dataclass(frozen=True)
class Actor:
    """The identity a service checks: the account (if any) and the player it speaks for."""

    user: User | None
    player: Player | None
    is_admin: bool = False
    via_score_link: bool = False

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    def label(self) -> str:
        if self.player is not None:
            return self.player.display_name
        return self.user.get_username() if self.user is not None else "anonymous"


def actor_for_user(user: User | AnonymousUser | None) -> Actor:
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
