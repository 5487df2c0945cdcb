"""The full-screen match clock page (docs/clocks.md): ``/matches/<id>/clock/`` for
signed-in players and directors (everyone else watches), ``/score/<token>/clock/``
for a player holding the match's private score link.

The page only hands the script (static/js/clock.js) what it needs: the match, the
players' names, whether this visitor may run the clock and for which side, the
presets, and how to authenticate its API calls (the session's CSRF token, or the
score link). The browser shows the clock and reports to
``/api/v1/matches/<id>/clock/``; the server's reckoning of the time is the truth.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from core.actors import Actor
from games import score_links
from games.clock_policies import clock_policy_of
from games.models import Match, MatchStatus, Player
from games.pages.score_links import guess_refusal, note_failed_guess
from games.rules import clock as rules
from games.rules.errors import NotAllowed
from games.services.actors import (
    actor_for_link,
    actor_for_user,
    is_match_director,
    participant_side,
)

PRESET_LABELS = {
    rules.Preset.USBGF: _("USBGF: 12 s delay, 2 min a point"),
    rules.Preset.UKBGF: _("UKBGF: 12 s delay, 2 min a point"),
    rules.Preset.ONLINE_FAST: _("Online fast: 8 s delay, 1 min a point"),
    rules.Preset.ONLINE_STANDARD: _("Online standard: 10 s delay, 90 s a point"),
    rules.Preset.CUSTOM: _("Custom delay and reserve"),
}


def _clock_text() -> dict[str, str]:
    """The script's words, translated here (the script has no catalogue of its own)."""
    return {
        "ready": str(_("Tap your half to start your opponent's time.")),
        "paused": str(_("Paused")),
        "flagged": str(_("%(name)s lost on time.")),
        "overtime": str(_("%(name)s's flag fell: overtime. Call the director, then resume.")),
        "over": str(_("The match is over.")),
        # the half of a side that had its overtime (it was "OT" in every language)
        "overtime_used": str(_("overtime used")),
        "delay": str(_("delay %(s)s s")),
        "error": str(_("The server refused: %(detail)s")),
        "none": str(_("No clock is running for this match.")),
    }


def _page(request: HttpRequest, match: Match, actor: Actor, token: str = "") -> HttpResponse:
    director = is_match_director(actor, match) and not actor.via_score_link
    side = participant_side(actor, match)
    policy = clock_policy_of(match.pk)
    open_ = match.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
    return render(
        request,
        "games/match_clock.html",
        {
            "match": match,
            "can_run": (director or side is not None) and open_,
            # a player's device ends only its own player's turns (the server refuses
            # the opponent's: docs/clocks.md); a director's device runs both halves
            "my_side": "" if director or side is None else side + 1,
            "policy": policy,
            "presets": [(p.value, PRESET_LABELS[p]) for p in rules.Preset],
            "link_token": token,
            "clock_text": _clock_text(),
            "names": [match.player1.display_name, match.player2.display_name],
            "back": match.get_absolute_url() if not token else f"/score/{token}/",
        },
    )


@require_GET
def match_clock(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("club", "player1", "player2"), pk=pk)
    return _page(request, match, actor_for_user(request.user))


@require_GET
def score_link_clock(request: HttpRequest, token: str) -> HttpResponse:
    refused = guess_refusal(request, token)  # too many bad links from this address
    if refused is not None:
        return refused
    parsed = score_links.read_token(token)
    if parsed is None:
        note_failed_guess(request)
        return render(request, "games/score_link_invalid.html", status=403)
    match = get_object_or_404(
        Match.objects.select_related("club", "player1", "player2"), pk=parsed[0]
    )
    if not score_links.link_is_live(match):
        return render(
            request, "games/score_link_invalid.html", {"match": match, "expired": True}, status=403
        )
    player = get_object_or_404(Player, pk=parsed[1])
    try:
        actor = actor_for_link(request.user, match, player)
    except NotAllowed as error:  # the opponent's link in the other player's session
        raise PermissionDenied(error.message) from error
    return _page(request, match, actor, token)
