"""Who is acting: a signed-in user, a director, or a private score link.

Every service of every app takes an :class:`Actor` and checks it. Finding the actor
of a request (the player a user or a score link speaks for) is the job of
``games.services.actors``, which owns players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User


@dataclass(frozen=True)
class Actor:
    """The identity a service checks: the account (if any) and the player it speaks for."""

    user: User | None
    player: Any  # games.models.Player or None; typed loosely so that core imports no app
    is_admin: bool = False
    via_score_link: bool = False

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    def label(self) -> str:
        if self.player is not None:
            name: str = self.player.display_name
            return name
        return self.user.get_username() if self.user is not None else "anonymous"
