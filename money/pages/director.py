"""The director's money page and its actions (one service each), the auction page, the
payout sheet, the ledger CSV and the money history."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from core.errors import BoxcarsError
from games.services.actors import actor_for_user
from money import selectors, services
from money.models import PaidBy, Remainder
from money.renderings import ledger_csv
from tournaments.models import Tournament

from .common import (
    FIELD_WORDS,
    amount,
    directed_event,
    money_context,
    payout_table,
    posted_buyers,
    section_url,
    whole_number,
    whole_numbers,
)


def _pool(request: HttpRequest, actor: Any, t: Tournament) -> Any:
    p = request.POST
    buy_back_fee = amount(p.get("buy_back_fee"), "buy_back_fee", blank=None)
    until = p.get("buy_back_until_round", "").strip()
    return services.save_pool(
        actor=actor,
        tournament=t,
        key=p.get("key", "").strip().lower(),
        name=p.get("name", ""),
        side=p.get("side") == "on",
        paid_by=p.get("paid_by", PaidBy.EVENT),
        fee=amount(p.get("fee"), "fee"),
        added=amount(p.get("added"), "added"),
        rake_percent=amount(p.get("rake_percent"), "rake_percent"),
        rake_fixed=amount(p.get("rake_fixed"), "rake_fixed"),
        table=payout_table(request),
        remainder=p.get("remainder", Remainder.FIRST),
        buy_back_fee=buy_back_fee,
        buy_back_until_round=int(until) if until.isdigit() else None,
    )


ACTIONS: dict[str, Callable[[HttpRequest, Any, Tournament], Any]] = {
    "club": lambda r, a, t: services.save_club_money(
        actor=a,
        tournament=t,
        currency=r.POST.get("currency", ""),
        payout_unit=amount(r.POST.get("payout_unit"), "payout_unit"),
        publish_payouts=r.POST.get("publish_payouts") == "on",
        publish_calcutta=r.POST.get("publish_calcutta") == "on",
    ),
    "registration-fee": lambda r, a, t: services.set_registration_fee(
        actor=a,
        tournament=t,
        registration_fee=amount(r.POST.get("registration_fee"), "registration_fee"),
    ),
    "pool": _pool,
    "delete-pool": lambda r, a, t: services.delete_pool(
        actor=a, tournament=t, key=r.POST.get("key", "")
    ),
    "entrants": lambda r, a, t: services.set_side_pool_entrants(
        actor=a,
        tournament=t,
        key=r.POST.get("key", ""),
        entry_ids=whole_numbers(r.POST.getlist("entries"), "entries"),
    ),
    "buy-back": lambda r, a, t: services.record_buy_back(
        actor=a,
        tournament=t,
        key=r.POST.get("key", ""),
        entry_id=whole_numbers([r.POST.get("entry", "")], "entry")[0] if r.POST.get("entry") else 0,
    ),
    "payment": lambda r, a, t: services.record_payment(
        actor=a,
        tournament=t,
        player_id=whole_number(r.POST.get("player"), "player"),
        amount=amount(r.POST.get("amount"), "amount"),
        method=r.POST.get("method", ""),
        note=r.POST.get("note", ""),
    ),
    "split": lambda r, a, t: services.record_split(
        actor=a, tournament=t, entry_ids=whole_numbers(r.POST.getlist("entries"), "entries")
    ),
    "clear-splits": lambda r, a, t: services.clear_splits(actor=a, tournament=t),
    "calcutta": lambda r, a, t: services.configure_calcutta(
        actor=a,
        tournament=t,
        table=payout_table(r),
        rake_percent=amount(r.POST.get("rake_percent"), "rake_percent"),
        rake_fixed=amount(r.POST.get("rake_fixed"), "rake_fixed"),
        buy_back_limit=amount(r.POST.get("buy_back_limit"), "buy_back_limit", blank=Decimal(50)),
        remainder=r.POST.get("remainder", Remainder.FIRST),
    ),
    "lot": lambda r, a, t: services.add_lot(
        actor=a,
        tournament=t,
        label=r.POST.get("label", ""),
        entry_ids=whole_numbers(r.POST.getlist("entries"), "entries"),
    ),
    "sale": lambda r, a, t: services.sell_lot(
        actor=a,
        tournament=t,
        lot_id=whole_number(r.POST.get("lot"), "lot"),
        price=amount(r.POST.get("price"), "price"),
        buyers=posted_buyers(r),
    ),
    "lot-buy-back": lambda r, a, t: services.buy_back_lot(
        actor=a,
        tournament=t,
        lot_id=whole_number(r.POST.get("lot"), "lot"),
        entry_id=whole_number(r.POST.get("entry"), "entry"),
        percent=amount(r.POST.get("percent"), "percent"),
    ),
}
AUCTION_ACTIONS = {"calcutta", "lot", "sale", "lot-buy-back"}


@login_required
def director_money(request: HttpRequest, slug: str, action: str | None = None) -> HttpResponse:
    """The director's money page (GET), or one of its forms (POST ``action``)."""
    tournament = directed_event(request, slug)
    template = "money/director.html"
    if action is not None:
        if request.method != "POST" or action not in ACTIONS:
            raise Http404
        if action in AUCTION_ACTIONS:
            template = "money/auction.html"
        try:
            ACTIONS[action](request, actor_for_user(request.user), tournament)
        except BoxcarsError as error:
            context = money_context(tournament)
            context["error"] = {
                "form": action,
                "field": FIELD_WORDS.get(error.field or "", error.field or ""),
                "detail": error.message,
            }
            context["posted"] = request.POST
            return render(request, template, context, status=400)
        messages.success(request, gettext("Saved."))
        back = request.POST.get("next", "")
        if back and url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return redirect(back)  # a form on another page (the director's entry list)
        name = "money-auction" if action in AUCTION_ACTIONS else "money-director"
        return redirect(f"{section_url(name, slug)}#{action}")
    return render(request, template, money_context(tournament))


@login_required
def auction(request: HttpRequest, slug: str) -> HttpResponse:
    """The auctioneer's page: set up, lots, winning bids, syndicates, buy-backs."""
    return render(request, "money/auction.html", money_context(directed_event(request, slug)))


@login_required
def payout_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """The printable payout sheet: each pool's payouts, each person's net, the transfers."""
    return render(request, "money/payout_sheet.html", money_context(directed_event(request, slug)))


@login_required
def ledger_csv_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = directed_event(request, slug)
    response = HttpResponse(ledger_csv(selectors.money_view(tournament)), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-ledger.csv"'
    return response


@login_required
def money_history(request: HttpRequest, slug: str) -> HttpResponse:
    """Who changed what in the event's money, and when (newest first)."""
    from money.audit import LIMIT
    from money.audit import money_history as history

    tournament = directed_event(request, slug)
    return render(
        request,
        "money/history.html",
        {"tournament": tournament, "entries": history(tournament), "limit": LIMIT},
    )
