"""The director's score-link sheet: each player's private link as text, a QR code and a
Copy button, printable as cut-out slips, and a button that emails the links.

One match's sheet lives here; a tournament round's sheet (``tournaments.link_pages``)
chooses its matches and renders through :func:`link_sheet_page`, so both look and
behave the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext

from games.models import Club, Match
from games.rules.errors import BoxcarsError, NotAllowed
from games.score_attempts import FailedScoreAttempts, carries_signed_link
from games.selectors_addresses import CONFIRMED, NOT_ASKED, WAITING, address_states
from games.services import score_link_sheets
from games.services.actors import actor_for_user


def guess_refusal(request: HttpRequest, token: str = "") -> HttpResponse | None:
    """The score-link pages' answer to an address that spent its failed attempts (429
    with ``Retry-After``), else None: the same ``score_failed`` budget per address as
    the API's (:mod:`games.api.throttling`), so links are not guessed through pages.
    A page opened with a link we signed (``token``) is never refused for the address's
    failures: a venue's phones share the address."""
    if carries_signed_link(request, token):
        return None
    wait = FailedScoreAttempts().refusal(request)
    if wait is None:
        return None
    seconds = max(1, round(wait))
    response = render(
        request,
        "games/score_link_invalid.html",
        {"throttled": True, "retry_after": seconds},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response


def note_failed_guess(request: HttpRequest) -> None:
    """Count a forged or mistyped link against its address (:func:`guess_refusal`)."""
    FailedScoreAttempts().note(request)


def _names(players: Sequence) -> str:
    return ", ".join(p.display_name for p in players)


def link_sheet_page(
    request: HttpRequest,
    *,
    club: Club,
    matches: Sequence[Match],
    heading: str,
    back: tuple[str, str],
    title: str = "",
) -> HttpResponse:
    """GET: the sheet. POST: email the links, then back to the sheet saying who got one
    and who has no address (a refresh does not send them twice)."""
    actor = actor_for_user(request.user)
    try:
        if request.method == "POST":
            report = score_link_sheets.email_score_links(
                actor=actor, club=club, matches=matches, heading=heading
            )
            if report.sent:
                messages.success(
                    request, gettext("Emailed: %(value)s.") % {"value": _names(report.sent)}
                )
            else:
                messages.info(request, gettext("Nobody was emailed."))
            if report.no_address:
                messages.warning(
                    request,
                    gettext("No email address (hand them their slip): %(value)s.")
                    % {"value": _names(report.no_address)},
                )
            if report.unconfirmed:
                messages.warning(
                    request,
                    ngettext(
                        "%(count)s player has not confirmed their address yet (hand them "
                        "their slip): %(value)s.",
                        "%(count)s players have not confirmed their address yet (hand "
                        "them their slips): %(value)s.",
                        len(report.unconfirmed),
                    )
                    % {"count": len(report.unconfirmed), "value": _names(report.unconfirmed)},
                )
            return redirect(request.path)
        sheet = score_link_sheets.link_sheet(actor=actor, club=club, matches=matches)
    except NotAllowed as error:
        raise PermissionDenied(error.message) from error
    except BoxcarsError as error:
        messages.error(request, error.message)
        return redirect(request.path)
    states = address_states(club, [s.player for s in sheet.slips])
    blocks = [
        {
            "match": m.match,
            "table": m.table,
            "slips": [
                {
                    "slip": s,
                    "url": request.build_absolute_uri(s.path),
                    "qr_title": f"QR code of {s.player.display_name}'s score link",
                    "waiting": states[s.player.pk] in (WAITING, NOT_ASKED),
                }
                for s in m.slips
            ],
        }
        for m in sheet.matches
    ]
    return render(
        request,
        "games/score_links.html",
        {
            "club": club,
            "heading": heading,
            "title": title or heading,
            "back_label": back[0],
            "back_url": back[1],
            "blocks": blocks,
            "closed": sheet.closed,
            "with_email": sum(1 for s in sheet.slips if states[s.player.pk] == CONFIRMED),
            "unconfirmed": sorted(
                {
                    s.player.display_name
                    for s in sheet.slips
                    if states[s.player.pk] in (WAITING, NOT_ASKED)
                }
            ),
            "slip_count": len(sheet.slips),
        },
    )


@login_required
def match_links(request: HttpRequest, pk: int) -> HttpResponse:
    """One match's sheet (a league or friendly match; a round's is on the event's page)."""
    match = get_object_or_404(Match.objects.select_related("club", "player1", "player2"), pk=pk)
    heading = match.label or f"{match.club.name}: {match.player1} v {match.player2}"
    return link_sheet_page(
        request,
        club=match.club,
        matches=[match],
        heading=heading,
        back=("the score sheet", match.get_absolute_url()),
        title=f"Score links: {match.player1} v {match.player2}",
    )
