"""Who may do what, as far as every app agrees: site admins may do everything, and
whatever a club's directors direct (its players, events, sessions, jobs) they manage.

Shared by the API and the pages of every app. What needs a player or a match (who may
edit a player, who may write a match) stays with ``games``, which owns them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from core.errors import NotAllowed

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from core.actors import Actor

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


def actor_directs(actor: Actor, club: Directed) -> bool:
    """The actor (a site admin, or a signed-in director of ``club``) manages it."""
    if actor.is_admin:
        return True
    return actor.user is not None and is_director(actor.user, club)


def require_director(actor: Actor, club: Directed, *, detail: str) -> None:
    """403 ``directors_only`` unless the actor directs the club; ``detail`` says what
    only directors may do (each app words its own)."""
    if not actor_directs(actor, club):
        raise NotAllowed("directors_only", detail)
