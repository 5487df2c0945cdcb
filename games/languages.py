"""Which language an email or push to a player is written in (docs/languages.md).

A worker has no browser to ask, so it takes the player's own choice (stored when they
picked a language while signed in), else the club's language, else the site's.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager

from django.utils import timezone, translation

from core.languages import default_language, language_codes
from games.models import Club, Player


def message_language(player: Player | None, club: Club | None) -> str:
    """The recipient's language, else the club's, else ``LANGUAGE_CODE``; always one
    of ``settings.LANGUAGES`` (a code no longer offered falls through to the next)."""
    codes = language_codes()
    for choice in (player.language if player else None, club.language if club else None):
        if choice and choice in codes:
            return choice
    return default_language()


@contextmanager
def speaking_to(player: Player | None, club: Club | None) -> Iterator[str]:
    """Render a message for ``player`` of ``club`` inside this block: their language
    (:func:`message_language`) and the club's clock are active, so the subject, the
    body and any date read as the club's pages would for them; yields the language."""
    language = message_language(player, club)
    zone = _zone(club)
    with translation.override(language), timezone.override(zone):
        yield language


def _zone(club: Club | None) -> zoneinfo.ZoneInfo | None:
    try:
        return zoneinfo.ZoneInfo(club.time_zone) if club and club.time_zone else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
