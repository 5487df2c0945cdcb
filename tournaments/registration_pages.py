"""The director's registration pages: walk-ins, bulk registration with its preview, and
the confirmation step in front of the actions that cannot be taken back.

Thin views over ``tournaments.services.registration`` (the API calls the same
services). Nothing is written until the director confirms: the bulk form first shows
the service's dry run, then posts the same lines again with ``confirm=1``; the
confirmation page re-posts an action's fields with ``confirm=1``. Both work without
JavaScript.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from core import access
from games.forms import WalkInForm, show_error
from games.models import Player
from games.pages.players import tell_link
from games.rules.errors import BoxcarsError
from games.services.actors import actor_for_user

from .director_actions import pairing_label
from .forms import RegisterPlayersForm
from .models import Entry, EntryStatus, Tournament
from .services import registration
from .services.registration import LineAction

CONFIRMED_ACTIONS = {"unregister", "withdraw", "forfeit", "finish"}
"""Dashboard actions that need a second, explicit yes (``confirm=1``)."""

_LINE_FIELD = re.compile(r"^(names|player_ids)\[(\d+)\]$")


def _directed(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not access.is_director(request.user, tournament.club):
        raise Http404
    return tournament


def candidates_of(tournament: Tournament) -> QuerySet[Player]:
    """Club members not entered yet: the roster checklist."""
    entered = Entry.objects.filter(tournament=tournament).values("player_id")
    return tournament.club.players.exclude(pk__in=entered).order_by("display_name", "pk")


def entered_in_words(tournament: Tournament, entry: Entry) -> str:
    """A walk-in's result as the director needs it: entered, or on the waitlist (a full
    capped field) with their place in it."""
    name = entry.player.display_name
    if entry.status == EntryStatus.WAITLISTED:
        return gettext(
            "%(display_name)s is on the waitlist (place %(position)s): the field of "
            "%(capacity)s is full. They move up when a place frees before the draw."
        ) % {
            "display_name": name,
            "position": entry.waitlist_position,
            "capacity": tournament.capacity,
        }
    return gettext("%(display_name)s is entered.") % {"display_name": name}


def registered_in_words(result: registration.BulkResult) -> str:
    """A list's result: how many entered, how many new to the club, how many wait."""
    created = result.count(LineAction.CREATE)
    waiting = sum(1 for e in result.entries if e.status == EntryStatus.WAITLISTED)
    count = len(result.entries)
    text = ngettext("Entered %(count)d player.", "Entered %(count)d players.", count) % {
        "count": count
    }
    if created:
        text += " " + ngettext(
            "%(count)d of them is new to the club.",
            "%(count)d of them are new to the club.",
            created,
        ) % {"count": created}
    if waiting:
        # name who waits, with their place: a director tells them, and a count alone
        # sent them to the entry list to find out (issue 41)
        names = ", ".join(
            gettext("%(display_name)s (place %(position)s)")
            % {"display_name": e.player.display_name, "position": e.waitlist_position}
            for e in result.entries
            if e.status == EntryStatus.WAITLISTED
        )
        text += " " + ngettext(
            "%(names)s waits on the waitlist: the field is full.",
            "%(names)s wait on the waitlist: the field is full.",
            waiting,
        ) % {"names": names}
    return text


@login_required
def walk_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a walk-in to the club and enter them, in one step."""
    tournament = _directed(request, slug)
    form = WalkInForm(request.POST or None, prefix="walkin")
    if request.method == "POST" and form.is_valid():
        try:
            walk_in = registration.register_walk_in(
                actor=actor_for_user(request.user),
                tournament_id=tournament.pk,
                site=request.build_absolute_uri("/"),
                **form.cleaned_data,
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(request, entered_in_words(tournament, walk_in.entry))
            tell_link(request, walk_in.link)
            return redirect("tournament-director", slug=slug)
    return render(request, "tournaments/walk_in.html", {"tournament": tournament, "form": form})


@login_required
def register_players(request: HttpRequest, slug: str) -> HttpResponse:
    """Bulk registration: the form, then the preview, then (``confirm=1``) the write."""
    tournament = _directed(request, slug)
    candidates = candidates_of(tournament)
    form = RegisterPlayersForm(request.POST or None, candidates=candidates)
    if request.method != "POST" or not form.is_valid():
        return render(
            request, "tournaments/register.html", {"tournament": tournament, "form": form}
        )
    actor = actor_for_user(request.user)
    names = list(form.cleaned_data["lines"])
    player_ids = [p.pk for p in form.cleaned_data["players"]]
    picks = _picks(request, len(names))
    error: BoxcarsError | None = None
    if request.POST.get("confirm") == "1":
        chosen_names = ["" if i in picks else n for i, n in enumerate(names)]
        try:
            result = registration.register_many(
                actor=actor,
                tournament_id=tournament.pk,
                names=chosen_names,
                player_ids=[*player_ids, *picks.values()],
            )
        except BoxcarsError as refused:
            error = refused
        else:
            messages.success(request, registered_in_words(result))
            return redirect("tournament-director", slug=slug)
    try:
        preview = registration.register_many(
            actor=actor,
            tournament_id=tournament.pk,
            names=names,
            player_ids=player_ids,
            dry_run=True,
        )
    except BoxcarsError as refused:
        show_error(form, refused)
        return render(
            request, "tournaments/register.html", {"tournament": tournament, "form": form}
        )
    return render(
        request,
        "tournaments/register_preview.html",
        {
            "tournament": tournament,
            "preview": preview,
            "rows": _rows(preview, picks, error),
            "error": error,
            "names": form.cleaned_data.get("names", ""),
            "player_ids": player_ids,
            "counts": preview.as_dict(),
            "writes": preview.count(LineAction.REGISTER)
            + preview.count(LineAction.CREATE)
            + preview.count(LineAction.AMBIGUOUS),
        },
    )


def _picks(request: HttpRequest, count: int) -> dict[int, int]:
    """The director's choice for each ambiguous line: ``pick_<line>`` = a player id."""
    picks = {}
    for index in range(count):
        value = request.POST.get(f"pick_{index}", "")
        if value.isdigit():
            picks[index] = int(value)
    return picks


def _rows(
    preview: registration.BulkResult, picks: dict[int, int], error: BoxcarsError | None
) -> list[dict[str, Any]]:
    """The preview's lines, with the refusal of a confirmed write next to its line."""
    where = _LINE_FIELD.match(error.field or "") if error else None
    rows = []
    for line in preview.lines:
        here = where is not None and (where[1], int(where[2])) == (line.source, line.index)
        rows.append(
            {
                "line": line,
                "pick": picks.get(line.index) if line.source == "names" else None,
                "error": error.message if here and error else "",
            }
        )
    return rows


def confirmation(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse | None:
    """The page asking to confirm ``action``; None when there is nothing to ask (the
    post is confirmed, or the service will refuse it anyway)."""
    post = request.POST
    if action not in CONFIRMED_ACTIONS or post.get("confirm") == "1":
        return None
    if not access.is_director(request.user, tournament.club):
        return None  # the service refuses it, as before
    if action in ("unregister", "withdraw") and not post.get("entry"):
        messages.error(request, gettext("Choose a player to %(action)s.") % {"action": action})
        return redirect("tournament-director", slug=tournament.slug)
    entry_names = dict(
        Entry.objects.filter(tournament=tournament).values_list("pk", "player__display_name")
    )

    def named(key: str) -> str | None:
        value = post.get(key, "")
        return entry_names.get(int(value)) if value.isdigit() else None

    event = tournament.name
    if action == "unregister":
        who = named("entry")
        if who is None:
            return None
        question = gettext("Take %(who)s off %(event)s?") % {"who": who, "event": event}
        consequence = gettext("They stay a member of the club; you can register them again.")
        button = gettext("Yes, unregister %(who)s") % {"who": who}
    elif action == "withdraw":
        who = named("entry")
        if who is None:
            return None
        question = gettext("Withdraw %(who)s from %(event)s?") % {"who": who, "event": event}
        consequence = gettext(
            "Their open matches are awarded to their opponents by forfeit and they are not "
            "paired again. Results already played stay."
        )
        button = gettext("Yes, withdraw %(who)s") % {"who": who}
    elif action == "forfeit":
        who = named("winner")
        if who is None:
            return None
        question = gettext("Award %(match)s to %(who)s by forfeit?") % {
            "match": pairing_label(tournament, post.get("pairing", "")),
            "who": who,
        }
        consequence = gettext("The match ends now as a forfeit win; the bracket moves on.")
        button = gettext("Yes, award it to %(who)s") % {"who": who}
    else:
        question = gettext("Finish %(event)s?") % {"event": event}
        consequence = gettext("The event closes: no more rounds, results or entries.")
        button = gettext("Yes, finish the event")
    fields = [(k, v) for k, v in post.items() if k not in ("csrfmiddlewaretoken", "confirm")]
    return render(
        request,
        "tournaments/confirm.html",
        {
            "tournament": tournament,
            "action_url": reverse("tournament-director-action", args=[tournament.slug, action]),
            "question": question,
            "consequence": consequence,
            "button": button,
            "fields": fields,
        },
    )
