"""The live channels ``games`` owns (docs/live.md): who may follow them, and which
of them a match's write touches.

* ``match:<id>`` and ``player:<id>``: public, like the match and player pages;
* ``club:<id>``: private to the club's directors (their pages show disputes and
  score-link activity). Notices carry ids and versions only, but a stranger is still
  not told when a club's private pages change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core import access, live
from games.models import Club, Match, Player


def _exists(model: Any) -> Any:
    def can_follow(request: Any, pk: int) -> bool | None:
        return True if model.objects.filter(pk=pk).exists() else None

    return can_follow


def _directs_club(request: Any, pk: int) -> bool | None:
    club = Club.objects.filter(pk=pk).first()
    if club is None:
        return None
    return access.is_director(request.user, club)


def match_channels(match: Match) -> Iterable[str]:
    """A match's page, its two players' pages and its club's director pages."""
    yield live.channel("match", match.pk)
    yield live.channel("player", match.player1_id)
    yield live.channel("player", match.player2_id)
    yield live.channel("club", match.club_id)


def register() -> None:
    """Called from ``games/wiring.py``."""
    live.register_channel_kind("match", _exists(Match))
    live.register_channel_kind("player", _exists(Player))
    live.register_channel_kind("club", _directs_club, private=True)
    live.register_row_channels("games.Match", "games.match", match_channels)
