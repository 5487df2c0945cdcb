"""Chouette pages: opening a session, the live sheet with its record form and audit
trail, the settlement and a printable sheet.

Thin views over ``chouette.selectors.session_sheet`` (a fixed number of queries
whatever the number of games) and one service call per form. Forms post back and
redirect, so the pages work without JavaScript.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games.models import Club, Player
from games.rules.errors import BoxcarsError
from games.services.actors import actor_for_user

from .audit import session_audit_trail
from .forms import GameForm, OpenSessionForm
from .models import RuleProfile, Session
from .selectors import Sheet, session_sheet, sessions_queryset
from .services import common as common_services
from .services import corrections as correction_services
from .services import recording as recording_services
from .services import seats as seat_services
from .services import sessions as session_services


def _can_record(request: HttpRequest, sheet: Sheet) -> bool:
    if not request.user.is_authenticated or not sheet.session.is_open:
        return False
    actor = actor_for_user(request.user)
    if actor.is_admin or sheet.session.club.directors.filter(pk=request.user.pk).exists():
        return True
    return actor.player is not None and any(s.player_id == actor.player.pk for s in sheet.seated)


def session_list(request: HttpRequest) -> HttpResponse:
    sessions = sessions_queryset().order_by("status", "-played_on", "-id")[:100]
    return render(request, "chouette/session_list.html", {"sessions": sessions})


def _sheet_page(request: HttpRequest, sheet: Sheet, form: GameForm | None = None) -> HttpResponse:
    can_record = _can_record(request, sheet)
    if form is None and can_record:
        form = GameForm(sheet)
    newcomers = []
    if can_record:
        seated = {s.player_id for s in sheet.seated}
        newcomers = [
            p for p in sheet.session.club.players.order_by("display_name") if p.pk not in seated
        ]
    viewer = _viewer(request)
    context = {
        "sheet": sheet,
        "session": sheet.session,
        "form": form if can_record else None,
        "can_record": can_record,
        "newcomers": newcomers,
        "rows": _ledger_rows(sheet, viewer),
        "columns": _columns(sheet, viewer),
        "viewer_in_ledger": viewer in sheet.totals,
        "audit": _audit(request, sheet.session),
    }
    return render(
        request, "chouette/sheet.html", context, status=400 if form and form.errors else 200
    )


def _audit(request: HttpRequest, session: Session) -> list[dict[str, Any]] | None:
    """The audit trail, newest first, for the table's players and the club's directors
    (None for everyone else: the section is not shown)."""
    if not request.user.is_authenticated:
        return None
    if not common_services.can_read_audit(actor_for_user(request.user), session):
        return None
    entries = session_audit_trail(session)
    for entry in entries:
        entry["when"] = datetime.fromisoformat(entry["at"])
    return entries[::-1]


def _viewer(request: HttpRequest) -> int | None:
    """The signed-in player's id: on a phone the ledger folds to their column (their
    line of the sheet) and everyone's totals, the other columns one tap away."""
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).values_list("pk", flat=True).first()


def _columns(sheet: Sheet, viewer: int | None = None) -> list[dict[str, Any]]:
    """The ledger's columns: every player who sat, with their total and money, and
    whether the column is the viewer's own."""
    return [
        {
            "player": sheet.players[pk],
            "points": points,
            "money": sheet.money[pk],
            "mine": pk == viewer,
        }
        for pk, points in sheet.totals.items()
    ]


def _jacoby_singles(session: Session, game: Any) -> list[str]:
    """Who of the team had a gammon or backgammon counted single by the Jacoby rule:
    their own cube was never turned (it stayed at the game's automatic doubles). The
    sheet says so in words, or a 2 where a gammon was won reads as a mistake."""
    if not session.jacoby or session.philadelphia or game.level == "single":
        return []
    initial = 2**game.automatic_doubles
    return [
        m.player.display_name
        for m in game.members.all()
        if m.action == "played" and m.cube <= initial
    ]


def _ledger_rows(sheet: Sheet, viewer: int | None = None) -> list[dict[str, Any]]:
    """Per game: who was box, partner and captain, each player's points and total
    (and whether the cell is in the viewer's column), and who had a gammon counted
    single by the Jacoby rule."""
    order = list(sheet.totals)
    rows = []
    for entry in sheet.ledger:
        game = entry.game
        rows.append(
            {
                "game": game,
                "cells": [
                    (entry.row.payouts.get(pk), entry.row.totals.get(pk, 0), pk == viewer)
                    for pk in order
                ],
                "jacoby_single": _jacoby_singles(sheet.session, game),
            }
        )
    return rows


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Session, pk=pk)
    return _sheet_page(request, session_sheet(pk))


def _form_field_of(form: GameForm, field: str | None) -> str | None:
    """The record form's field for a rule's field: ``members[2].owner`` is the owner
    chips of the third member's card; ``winner`` is itself."""
    if not field:
        return None
    if match := re.fullmatch(r"members\[(\d+)\]\.(\w+)", field):
        index, name = int(match[1]), match[2]
        if index < len(form.members):
            candidate = f"m{form.members[index].pk}_{name}"
            return candidate if candidate in form.fields else None
        return None
    return field if field in form.fields else None


@require_POST
def record_game(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Session, pk=pk)
    sheet = session_sheet(pk)
    form = GameForm(sheet, request.POST)
    if not form.is_valid():
        return _sheet_page(request, sheet, form)
    try:
        result = recording_services.record_game(
            actor=actor_for_user(request.user),
            session_id=pk,
            game=form.to_game_input(),
            number=form.cleaned_data["number"],
        )
    except BoxcarsError as error:
        form.add_error(
            None, f"{error.message} ({error.code}{', ' + error.field if error.field else ''})"
        )
        if (name := _form_field_of(form, error.field)) is not None:
            form.add_error(name, error.message)  # marked on the member's card too
        return _sheet_page(request, sheet, form)
    messages.success(request, gettext("Game %(number)s recorded.") % {"number": result.number})
    return HttpResponseRedirect(sheet.session.get_absolute_url())


def _post_action(
    request: HttpRequest, pk: int, call: Callable[..., Any], done: str
) -> HttpResponse:
    session = get_object_or_404(Session, pk=pk)
    try:
        call(actor=actor_for_user(request.user), session_id=pk)
    except BoxcarsError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return HttpResponseRedirect(session.get_absolute_url())


def _posted_int(request: HttpRequest, name: str) -> int:
    """A posted whole number; anything else (words, NUL, "1e400") reads as 0, refused below."""
    text = request.POST.get(name) or ""
    return int(text) if text.isascii() and text.isdigit() else 0


def _player_from(request: HttpRequest) -> Player:
    return get_object_or_404(Player, pk=_posted_int(request, "player"))


@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player_from(request)
    return _post_action(
        request,
        pk,
        lambda **kw: seat_services.join_session(player=player, **kw),
        f"{player} joined at the bottom of the team.",
    )


@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player_from(request)
    return _post_action(
        request,
        pk,
        lambda **kw: seat_services.leave_session(player=player, **kw),
        f"{player} left.",
    )


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    number = _posted_int(request, "number")
    return _post_action(
        request,
        pk,
        lambda **kw: correction_services.undo_last_game(number=number, **kw),
        f"Game {number} undone.",
    )


@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    return _post_action(request, pk, session_services.close_session, "Session closed.")


def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Session, pk=pk)
    sheet = session_sheet(pk)
    transfers = [
        # the rules' players are Hashable; ours are pks
        {
            "payer": sheet.players[cast(int, t.payer)],
            "payee": sheet.players[cast(int, t.payee)],
            "amount": t.amount,
        }
        for t in sheet.transfers
    ]
    context = {
        "sheet": sheet,
        "session": sheet.session,
        "columns": _columns(sheet),
        "transfers": transfers,
    }
    return render(request, "chouette/settlement.html", context)


def print_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Session, pk=pk)
    sheet = session_sheet(pk)
    context = {
        "sheet": sheet,
        "session": sheet.session,
        "rows": _ledger_rows(sheet),
        "columns": _columns(sheet),
        "opening": [sheet.players[pk] for pk in sheet.session.opening_order],
    }
    return render(request, "chouette/print.html", context)


def _form_error(form: OpenSessionForm, error: BoxcarsError) -> None:
    """A service's refusal, on the field it names when the form has one."""
    name = (error.field or "").removeprefix("rules.")
    text = f"{error.message} ({error.code})"
    form.add_error(name if name in form.fields else None, text)


def open_session(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Open a chouette at a club: GET shows the form, POST opens and goes to the sheet.

    A "preset" button (Modern, Thorne 1930) refills the house rules with that profile
    and shows the form again, keeping what was typed: no JavaScript needed.
    """
    club = get_object_or_404(Club, slug=club_slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    actor = actor_for_user(request.user)
    if not common_services.can_open(actor, club):
        raise PermissionDenied("Only the club's directors and its players open a chouette.")
    players = list(club.players.order_by("display_name"))
    preset = request.POST.get("preset") if request.method == "POST" else None
    if request.method != "POST" or preset:
        initial = OpenSessionForm.rules_initial(preset or "modern")
        if preset:  # keep what was typed, refill the rules
            form_fields = OpenSessionForm(players).fields
            kept = {k: v for k, v in request.POST.items() if k in form_fields}
            initial = {**kept, **initial}
        form = OpenSessionForm(players, initial=initial)
        return _open_page(request, club, form)
    form = OpenSessionForm(players, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            session = session_services.open_session(
                actor=actor,
                club=club,
                stake=data["stake"],
                currency=data["currency"],
                played_on=data["played_on"],
                label=data["label"],
                profile=data["profile"],
                rules=form.house_rules(),
                players=data.get("players"),
                rolls=data.get("rolls"),
            )
        except BoxcarsError as error:
            _form_error(form, error)
        else:
            sheet = session_sheet(session)
            messages.success(
                request,
                gettext("Chouette opened: %(box)s is box, %(captain)s captain.")
                % {"box": sheet.next.box, "captain": sheet.next.captain},
            )
            return HttpResponseRedirect(session.get_absolute_url())
    return _open_page(request, club, form, status=400)


def _open_page(
    request: HttpRequest, club: Club, form: OpenSessionForm, status: int = 200
) -> HttpResponse:
    context = {"club": club, "form": form, "profiles": RuleProfile.choices}
    return render(request, "chouette/open.html", context, status=status)
