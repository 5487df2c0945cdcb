"""Who may do what: the object permissions shared by the API and the pages.

Rules: site admins may do everything; a club's directors
manage its players, events and sessions; players write their own matches; everyone
reads what is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from .models import Club, Player

    AnyUser = User | AnonymousUser


def is_site_admin(user: AnyUser) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def is_director(user: AnyUser, club: Club) -> bool:
    """True for the club's directors and for site admins."""
    if not user.is_authenticated:
        return False
    if is_site_admin(user):
        return True
    return club.directors.filter(pk=user.pk).exists()


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
