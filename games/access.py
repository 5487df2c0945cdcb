"""Who may do what with players: the object permissions shared by the API and the pages.

Rules: site admins may do everything and a club's directors manage its players
(:mod:`core.access`); a player edits their own profile; everyone reads what is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.access import is_site_admin

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from .models import Player

    AnyUser = User | AnonymousUser


def directs_any_club_of(user: AnyUser, player: Player) -> bool:
    if not user.is_authenticated:
        return False
    if is_site_admin(user):
        return True
    return player.clubs.filter(directors=user).exists()


def can_edit_player(user: AnyUser, player: Player) -> bool:
    """The player themself, a director of one of their clubs, or a site admin."""
    if not user.is_authenticated:
        return False
    if player.user_id is not None and player.user_id == user.pk:
        return True
    return directs_any_club_of(user, player)
