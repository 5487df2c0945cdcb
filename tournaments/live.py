"""The live channel ``tournaments`` owns (docs/live.md): ``tournament:<id>``, public
like the bracket, standings and big screen, touched by every write of the event
(a bump of its version) and when fresh odds are stored; it also hears its matches'
channels (a game entered, a table moved), resolved by the stream."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core import live

from .models import Pairing, Tournament


def _tournament_exists(request: Any, pk: int) -> bool | None:
    return True if Tournament.objects.filter(pk=pk).exists() else None


def tournament_channels(tournament: Tournament) -> Iterable[str]:
    """The event's pages, and its club's director pages."""
    yield live.channel("tournament", tournament.pk)
    yield live.channel("club", tournament.club_id)


def tournament_matches(tournament_id: int) -> set[str]:
    """The channels of the event's matches: its pages hear a game entered on any of
    them (one query, made by the stream, not by the score entry)."""
    found = Pairing.objects.filter(tournament_id=tournament_id, match__isnull=False)
    return {live.channel("match", pk) for pk in found.values_list("match_id", flat=True)}


def match_tournaments(match_id: int) -> set[str]:
    """The events a match belongs to (the reverse of :func:`tournament_matches`, for
    the relay feeding Pushpin: one query per match, made by the relay, not the score
    entry)."""
    found = Pairing.objects.filter(match_id=match_id).values_list("tournament_id", flat=True)
    return {live.channel("tournament", pk) for pk in found.distinct()}


def register() -> None:
    """Called from ``tournaments/wiring.py``."""
    live.register_channel_kind("tournament", _tournament_exists)
    live.register_row_channels("tournaments.Tournament", "tournaments.event", tournament_channels)
    live.register_channel_members("tournament", tournament_matches)
    live.register_channel_owners("match", match_tournaments)
