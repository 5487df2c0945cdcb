"""Chouette pages: the live sheet with its record form, settlement and a printable sheet.

Thin views over ``chouette.selectors.session_sheet`` (a fixed number of queries
whatever the number of games) and one service call per form. Forms post back and
redirect, so the pages work without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from games.models import Player
from games.rules.errors import BoxcarsError
from games.services.actors import actor_for_user

from . import services
from .forms import GameForm
from .models import Session
from .selectors import Sheet, session_sheet, sessions_queryset


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
    context = {
        "sheet": sheet,
        "session": sheet.session,
        "form": form if can_record else None,
        "can_record": can_record,
        "newcomers": newcomers,
        "rows": _ledger_rows(sheet),
        "columns": _columns(sheet),
    }
    return render(
        request, "chouette/sheet.html", context, status=400 if form and form.errors else 200
    )


def _columns(sheet: Sheet) -> list[dict[str, Any]]:
    """The ledger's columns: every player who sat, with their total and money."""
    return [
        {"player": sheet.players[pk], "points": points, "money": sheet.money[pk]}
        for pk, points in sheet.totals.items()
    ]


def _ledger_rows(sheet: Sheet) -> list[dict[str, Any]]:
    """Per game: who was box, partner and captain, and each player's points and total."""
    order = list(sheet.totals)
    rows = []
    for entry in sheet.ledger:
        game = entry.game
        rows.append(
            {
                "game": game,
                "cells": [(entry.row.payouts.get(pk), entry.row.totals.get(pk, 0)) for pk in order],
            }
        )
    return rows


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Session, pk=pk)
    return _sheet_page(request, session_sheet(pk))


@require_POST
def record_game(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Session, pk=pk)
    sheet = session_sheet(pk)
    form = GameForm(sheet, request.POST)
    if not form.is_valid():
        return _sheet_page(request, sheet, form)
    try:
        result = services.record_game(
            actor=actor_for_user(request.user),
            session_id=pk,
            game=form.to_game_input(),
            number=form.cleaned_data["number"],
        )
    except BoxcarsError as error:
        form.add_error(
            None, f"{error.message} ({error.code}{', ' + error.field if error.field else ''})"
        )
        return _sheet_page(request, sheet, form)
    messages.success(request, f"Game {result.number} recorded.")
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


def _player_from(request: HttpRequest) -> Player:
    return get_object_or_404(Player, pk=request.POST.get("player") or 0)


@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player_from(request)
    return _post_action(
        request,
        pk,
        lambda **kw: services.join_session(player=player, **kw),
        f"{player} joined at the bottom of the team.",
    )


@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player_from(request)
    return _post_action(
        request, pk, lambda **kw: services.leave_session(player=player, **kw), f"{player} left."
    )


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    number = int(request.POST.get("number") or 0)
    return _post_action(
        request,
        pk,
        lambda **kw: services.undo_last_game(number=number, **kw),
        f"Game {number} undone.",
    )


@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    return _post_action(request, pk, services.close_session, "Session closed.")


def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(Session, pk=pk)
    sheet = session_sheet(pk)
    transfers = [
        {"payer": sheet.players[t.payer], "payee": sheet.players[t.payee], "amount": t.amount}
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
