"""Taking money at the door on a phone: one row per player with what they owe and one
big button that records it, a search by name, the paid marked, an undo.

The page works without JavaScript (each button is a form; the search is a GET that
filters the rows on the server and the answer comes back to the same search). With
it, ``money/door.js`` filters as the director types and posts each button in the
background (htmx): the answer is then the one row, re-rendered, so 65 payments are 65
small answers and no page reload. Every button goes through the same money
services as the director's money page (:func:`money.services.record_payment`,
:func:`money.services.undo_payment`)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import BoxcarsError
from games.services.actors import actor_for_user
from money import selectors, services
from money.models import PaymentMethod
from tournaments.models import EntryStatus, Tournament

from . import forms
from .common import directed_event

DOOR_METHODS = (PaymentMethod.CASH, PaymentMethod.TRANSFER)
"""How money is handed over at the door (owing is marked on the money page)."""


def door_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """One row per entered player: what they owe, what they paid, whether they are
    square, and the last payment (the one Undo takes back)."""
    view = selectors.money_view(tournament)
    by_player = {p.player.pk: p for p in view.people if p.player}
    payments = selectors.door_payments(tournament)
    rows = []
    for entry in selectors.event_entries(tournament):
        person = by_player.get(entry.player_id)
        row = _row(
            entry,
            paid=person.paid if person else 0,
            balance=person.balance if person else 0,
            payments=payments.get(entry.player_id, []),
        )
        if row is not None:
            rows.append(row)
    return rows


def door_row(tournament: Tournament, player_id: int) -> dict[str, Any] | None:
    """The row of one player, after a tap (reads only what that row shows)."""
    entry = selectors.event_entries(tournament).filter(player_id=player_id).first()
    if entry is None:
        return None
    paid, balance = selectors.player_money(tournament, player_id)
    payments = selectors.door_payments(tournament, player_id).get(player_id, [])
    return _row(entry, paid=paid, balance=balance, payments=payments)


def _row(entry: Any, *, paid: int, balance: int, payments: list[Any]) -> dict[str, Any] | None:
    undoable = [p for p in payments if p.amount >= 0]
    withdrawn = entry.status != EntryStatus.ACTIVE
    if withdrawn and not paid and balance >= 0:
        return None  # withdrawn before paying anything: nothing to take
    return {
        "entry": entry,
        "name": entry.player.display_name,
        "owes": -balance if balance < 0 else 0,
        "paid": paid,
        "square": balance >= 0 and paid > 0,
        "last": undoable[-1] if undoable else None,
        "withdrawn": withdrawn,
    }


def _count(name: str, value: int) -> str:
    """A count of the page's sentence as a span door.js keeps up to date as rows turn."""
    return format_html('<span data-count="{}">{}</span>', name, value)


def _matches(row: dict[str, Any], query: str) -> bool:
    return not query or query.casefold() in row["name"].casefold()


@login_required
def door(request: HttpRequest, slug: str) -> HttpResponse:
    """The phone page: every player's row (``?q=`` keeps those whose name holds it)."""
    tournament = directed_event(request, slug)
    query = request.GET.get("q", "").strip()[:80]
    rows = door_rows(tournament)
    shown = [r for r in rows if _matches(r, query)]
    context = {
        "tournament": tournament,
        "rows": shown,
        "query": query,
        "total": _count("total", len(rows)),
        "square": _count("square", sum(r["square"] for r in rows)),
        "owing": _count("owing", sum(bool(r["owes"]) for r in rows)),
        "currency": selectors.club_money(tournament).currency,
    }
    return render(request, "money/door.html", context)


def _back(request: HttpRequest, slug: str, player_id: int | None) -> HttpResponse:
    """After a button without JavaScript: the page again, at the same search and row."""
    url = reverse("money-door", kwargs={"slug": slug})
    query = request.POST.get("q", "").strip()
    if query:
        url += "?" + urlencode({"q": query})
    return redirect(f"{url}#p-{player_id}" if player_id else url)


def _answer(
    request: HttpRequest,
    tournament: Tournament,
    player_id: int | None,
    error: str | None = None,
) -> HttpResponse:
    """The row again (htmx posted the button: it swaps the row, a refusal written in
    it), or the page (no JavaScript: the refusal in the messages)."""
    if getattr(request, "htmx", False):
        if player_id is None:  # no row to answer with: the page says it on its next load
            if error:
                messages.error(request, error)
            return HttpResponse(status=204)  # htmx leaves the page as it is
        context = {
            "tournament": tournament,
            "row": door_row(tournament, player_id),
            "query": request.POST.get("q", ""),
            "currency": selectors.club_money(tournament).currency,
            "error": error,
        }
        return render(request, "money/_door_row.html", context)
    if error:
        messages.error(request, error)
    return _back(request, tournament.slug, player_id)


@login_required
@require_POST
def door_pay(request: HttpRequest, slug: str) -> HttpResponse:
    """One button: the player paid what they owe (cash, or by transfer)."""
    tournament = directed_event(request, slug)
    form = forms.PaymentForm(request.POST)
    if not form.is_valid():
        return _answer(request, tournament, None, forms.page_error("payment", form)["detail"])
    data = form.cleaned_data
    if data["method"] not in DOOR_METHODS:
        raise Http404
    try:
        services.record_payment(
            actor=actor_for_user(request.user),
            tournament=tournament,
            player_id=data["player"],
            amount=data["amount"],
            method=data["method"],
            note=gettext("at the door"),
        )
    except BoxcarsError as error:
        return _answer(request, tournament, data["player"], str(error.message))
    return _answer(request, tournament, data["player"])


@login_required
@require_POST
def door_undo(request: HttpRequest, slug: str) -> HttpResponse:
    """Undo: take back a payment recorded by mistake."""
    tournament = directed_event(request, slug)
    form = forms.UndoPaymentForm(request.POST)
    if not form.is_valid():
        return _answer(request, tournament, None, forms.page_error("undo", form)["detail"])
    try:
        undone = services.undo_payment(
            actor=actor_for_user(request.user),
            tournament=tournament,
            payment_id=form.cleaned_data["payment"],
        )
    except BoxcarsError as error:
        return _answer(request, tournament, None, str(error.message))
    return _answer(request, tournament, undone.player_id)
