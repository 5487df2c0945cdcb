"""Who may do what, as far as every app agrees: site admins may do everything, and
whatever a club's directors direct (its players, events, sessions, jobs) they manage.

Shared by the API and the pages of every app. What needs a player or a match (who may
edit a player, who may write a match) stays with ``games``, which owns them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    AnyUser = User | AnonymousUser


class Directed(Protocol):
    """Anything with directors (a club): ``directors`` is a many-to-many to users."""

    directors: Any


def is_site_admin(user: AnyUser) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def is_director(user: AnyUser, club: Directed) -> bool:
    """True for the club's directors and for site admins."""
    if not user.is_authenticated:
        return False
    if is_site_admin(user):
        return True
    return bool(club.directors.filter(pk=user.pk).exists())  # directors is loosely typed (Any)
