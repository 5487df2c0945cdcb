"""DRF permission classes built on ``games.access``."""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from games import access


class ReadOnlyOrAuthenticated(permissions.BasePermission):
    """Anyone reads; writes need an authenticated user (401 otherwise)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(request.user.is_authenticated)


class ClubDirectorOrReadOnly(ReadOnlyOrAuthenticated):
    """Writes to a club: its directors and site admins."""

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return access.is_director(request.user, obj)


class PlayerEditorOrReadOnly(ReadOnlyOrAuthenticated):
    """Writes to a player: the player, a director of one of their clubs, site admins."""

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return access.can_edit_player(request.user, obj)
