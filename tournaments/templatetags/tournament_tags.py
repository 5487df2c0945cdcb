"""Template tags the games app's pages use to show where a match or a player stands in
the club's events: the match page's way back to its round, the home page's events.

A tag rather than a context variable keeps the dependency one way (as
``chouette_tags`` does for the club page): ``games`` views know nothing of
tournaments; only the template asks, and each tag costs one query.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tournaments.models import Entry as EntryModel
from tournaments.models import EntryStatus, Pairing, TournamentStatus

register = template.Library()


def _pairing_of(match: Any) -> Pairing | None:
    if match is None or match.pk is None:
        return None
    return (
        Pairing.objects.select_related("tournament", "round__stage")
        .filter(match_id=match.pk)
        .first()
    )


@register.inclusion_tag("tournaments/_match_event_link.html")
def match_event_link(match: Any, style: str = "back") -> dict[str, Any]:
    """ "← Spring Open, Main round 2" for a match that belongs to an event (nothing for a
    friendly or league match). ``style="plain"`` drops the arrow and, for a match of no
    event, shows its label instead (the home page card)."""
    pairing = _pairing_of(match)
    if pairing is None:
        return {"event": None, "match": match, "style": style}
    tournament = pairing.tournament
    return {
        "event": tournament,
        "round": str(pairing.round),  # "Main round 2", as the round sheet names it
        "round_url": reverse("tournament-bracket", args=[tournament.slug]),
        "style": style,
    }


@register.inclusion_tag("tournaments/_player_events.html")
def player_events(player: Any) -> dict[str, Any]:
    """The player's events that are open for registration or running, soonest first."""
    entries = list(
        EntryModel.objects.filter(
            player=player,
            status=EntryStatus.ACTIVE,
            tournament__status__in=[TournamentStatus.REGISTRATION, TournamentStatus.RUNNING],
        )
        .select_related("tournament__club")
        .order_by("tournament__starts_on", "tournament__name")
    )
    return {"entries": entries}


@register.filter
def win_chance_of(chances: dict[int, str] | None, entry_id: int | None) -> str:
    """An entry's chance to win as shown ("37%"), "" without odds.

    ``{{ win_chances|win_chance_of:e.pk }}``
    """
    if not chances or entry_id is None:
        return ""
    return chances.get(entry_id, "")
