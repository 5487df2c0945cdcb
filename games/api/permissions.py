"""DRF permission classes built on ``core.access`` and ``games.access``."""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from core import access
from games import access as player_access
from games import score_links


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
        return player_access.can_edit_player(request.user, obj)


SCORE_LINK_HEADER = score_links.HEADER


class MatchWritePermission(permissions.BasePermission):
    """Matches: anyone reads; writes need an account, except that a write to one match
    may instead carry that match's private score link (the view checks the link names
    this match). Creating a match is not a write to a match: a score link never
    creates anything. Checked before the body is read, so an anonymous write is 401
    whatever it carries."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS or request.user.is_authenticated:
            return True
        has_link = bool(request.headers.get(SCORE_LINK_HEADER) or request.query_params.get("link"))
        return has_link and bool(getattr(view, "detail", False))
