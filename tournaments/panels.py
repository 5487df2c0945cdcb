"""What the tournaments app shows on the pages ``games`` owns (see :mod:`core.panels`):
the club page's events and "New tournament" button, the match page's way back to its
round, the home page's events. Registered by ``tournaments/wiring.py``.

Panels rather than context variables keep the dependency one way: ``games`` views
and templates know nothing of tournaments; each panel costs one query.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from core import access
from core.panels import register_panel
from tournaments import selectors_public
from tournaments.models import Entry as EntryModel
from tournaments.models import EntryStatus, Pairing, TournamentStatus

_PREFETCHED = "_panel_event_pairing"


def _pairing_of(match: Any) -> Pairing | None:
    if match is None or match.pk is None:
        return None
    if hasattr(match, _PREFETCHED):
        return getattr(match, _PREFETCHED)
    return (
        Pairing.objects.select_related("tournament", "round__stage")
        .filter(match_id=match.pk)
        .first()
    )


def match_event_link(
    request: HttpRequest | None, match: Any, style: str = "back"
) -> dict[str, Any] | None:
    """ "← Spring Open, Main round 2" for a match that belongs to an event (nothing for a
    friendly or league match). ``style="plain"`` drops the arrow (the home page card)."""
    pairing = _pairing_of(match)
    if pairing is None:
        return None
    tournament = pairing.tournament
    return {
        "event": tournament,
        # "Main round 2", as the round sheet names it, in the page's language
        "round": _("%(stage)s round %(number)s")
        % {"stage": pairing.round.stage, "number": pairing.round.number},
        "round_url": reverse("tournament-bracket", args=[tournament.slug]),
        "style": style,
    }


def prefetch_pairings(matches: Sequence[Any]) -> None:
    """The pairings of many matches in one query (the home page's match cards)."""
    pairings = {
        pairing.match_id: pairing
        for pairing in Pairing.objects.select_related("tournament", "round__stage").filter(
            match_id__in=[match.pk for match in matches]
        )
    }
    for match in matches:
        setattr(match, _PREFETCHED, pairings.get(match.pk))


def match_event_where(request: HttpRequest | None, match: Any) -> dict[str, Any] | None:
    return match_event_link(request, match, "plain")


def player_events(request: HttpRequest | None, player: Any) -> dict[str, Any]:
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


def club_events(request: HttpRequest | None, club: Any) -> dict[str, Any]:
    """The club's running and upcoming events, and its latest finished ones: published
    results stay on the club's page (drafts appear nowhere public)."""
    drafts = []
    if request is not None and access.is_director(request.user, club):
        drafts = list(club.tournaments.filter(status=TournamentStatus.DRAFT))
    return {"club": club, "events": selectors_public.club_events(club), "drafts": drafts}


def club_new_tournament(
    request: HttpRequest | None, club: Any, is_director: bool
) -> dict[str, Any] | None:
    return {"club": club} if is_director else None


def player_results(request: HttpRequest | None, player: Any) -> dict[str, Any] | None:
    """The player's finished events and places, on their public page; a player who opted
    out (``Player.public_results``) is shown only to themselves and their directors."""
    user = getattr(request, "user", None)
    own = user is not None and user.is_authenticated and player.user_id == user.pk
    directs = user is not None and any(access.is_director(user, c) for c in player.clubs.all())
    if not player.public_results and not (own or directs):
        return None
    results = selectors_public.player_results(player)
    if not results and not (own or directs):
        return None
    return {"results": results, "hidden": not player.public_results}


def player_calls(request: HttpRequest | None, player: Any) -> dict[str, Any] | None:
    """The home page's check-in prompts (events before the draw that ask for check-in)
    and, when the site has VAPID keys, the button that lets this device be told when a
    round is called (``static/js/push-sw.js``). Only on the player's own home page."""
    from django.conf import settings

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or getattr(player, "user_id", None) != user.pk:
        return None
    to_check_in = list(
        EntryModel.objects.filter(
            player=player,
            checked_in_at__isnull=True,
            tournament__check_in_required=True,
            tournament__status__in=[TournamentStatus.DRAFT, TournamentStatus.REGISTRATION],
        )
        .exclude(status=EntryStatus.WITHDRAWN)
        .select_related("tournament")
    )
    push_key = settings.VAPID_PUBLIC_KEY
    if not to_check_in and not push_key:
        return None
    return {"to_check_in": to_check_in, "vapid_public_key": push_key}


def register() -> None:
    register_panel(
        "home.side",
        "tournaments.calls",
        template="tournaments/_player_calls.html",
        provider=player_calls,
        order=5,
    )
    register_panel(
        "club.actions",
        "tournaments.new",
        template="tournaments/_club_new_tournament.html",
        provider=club_new_tournament,
    )
    register_panel(
        "club.above_players",
        "tournaments.events",
        template="tournaments/_club_events.html",
        provider=club_events,
    )
    register_panel(
        "match.head",
        "tournaments.event_link",
        template="tournaments/_match_event_link.html",
        provider=match_event_link,
    )
    register_panel(
        "match.where",
        "tournaments.event_link",
        template="tournaments/_match_event_link.html",
        provider=match_event_where,
        prefetcher=prefetch_pairings,
    )
    register_panel(
        "player.history",
        "tournaments.past_results",
        template="tournaments/_player_results.html",
        provider=player_results,
        order=5,
    )
    register_panel(
        "home.side",
        "tournaments.player_events",
        template="tournaments/_player_events.html",
        provider=player_events,
        order=10,
    )
