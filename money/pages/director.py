"""The director's money page and its actions (one service each), the auction page, the
payout sheet, the ledger CSV and the money history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import number_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from core.errors import BoxcarsError
from games.services.actors import actor_for_user
from money import selectors, services
from money.renderings import ledger_csv
from tournaments.models import Tournament

from . import forms
from .common import directed_event, money_context, pool_posted, section_url

Call = Callable[[Any, Tournament, dict[str, Any]], Any]


def _money_moved(data: dict[str, Any]) -> dict[str, Any]:
    """A payment's or a payout's form values as their services take them."""
    return {
        "player_id": data["player"],
        "amount": data["amount"],
        "method": data["method"],
        "note": data["note"],
    }


# Each action: its form and the one service it calls with the form's values.
ACTIONS: dict[str, tuple[type[forms.MoneyForm], Call]] = {
    "club": (
        forms.ClubMoneyForm,
        lambda a, t, d: services.save_club_money(actor=a, tournament=t, **d),
    ),
    "registration-fee": (
        forms.RegistrationFeeForm,
        lambda a, t, d: services.set_registration_fee(actor=a, tournament=t, **d),
    ),
    "pool": (
        forms.PoolForm,
        lambda a, t, d: services.save_pool(
            actor=a, tournament=t, **{k: v for k, v in d.items() if k != "preset"}
        ),
    ),
    "prize-order": (
        forms.PrizeOrderForm,
        lambda a, t, d: services.set_prize_order(
            actor=a, tournament=t, prize_order=d["prize_order"]
        ),
    ),
    "delete-pool": (
        forms.PoolKeyForm,
        lambda a, t, d: services.delete_pool(actor=a, tournament=t, key=d["key"]),
    ),
    "entrants": (
        forms.EntrantsForm,
        lambda a, t, d: services.set_side_pool_entrants(
            actor=a, tournament=t, key=d["key"], entry_ids=d["entries"]
        ),
    ),
    "buy-back": (
        forms.BuyBackForm,
        lambda a, t, d: services.record_buy_back(
            actor=a, tournament=t, key=d["key"], entry_id=d["entry"]
        ),
    ),
    "payment": (
        forms.PaymentForm,
        lambda a, t, d: services.record_payment(actor=a, tournament=t, **_money_moved(d)),
    ),
    "payout": (
        forms.PaymentForm,  # the same fields: who, how much, how, a note
        lambda a, t, d: services.record_payout(actor=a, tournament=t, **_money_moved(d)),
    ),
    "split": (
        forms.SplitForm,
        lambda a, t, d: services.record_split(actor=a, tournament=t, entry_ids=d["entries"]),
    ),
    "clear-splits": (
        forms.NothingForm,
        lambda a, t, d: services.clear_splits(actor=a, tournament=t),
    ),
    "calcutta": (
        forms.CalcuttaForm,
        lambda a, t, d: services.configure_calcutta(
            actor=a, tournament=t, **{k: v for k, v in d.items() if k != "preset"}
        ),
    ),
    "lot": (
        forms.LotForm,
        lambda a, t, d: services.add_lot(
            actor=a, tournament=t, label=d["label"], entry_ids=d["entries"]
        ),
    ),
    "sale": (
        forms.SaleForm,
        lambda a, t, d: services.sell_lot(
            actor=a, tournament=t, lot_id=d["lot"], price=d["price"], buyers=d["buyers"]
        ),
    ),
    "lot-buy-back": (
        forms.LotBuyBackForm,
        lambda a, t, d: services.buy_back_lot(
            actor=a, tournament=t, lot_id=d["lot"], entry_id=d["entry"], percent=d["percent"]
        ),
    ),
}
AUCTION_ACTIONS = {"calcutta", "lot", "sale", "lot-buy-back"}


def _refusal(
    request: HttpRequest, tournament: Tournament, template: str, error: dict[str, Any]
) -> HttpResponse:
    """The page again (400), the rule beside the field it names, the form as posted."""
    context = money_context(tournament)
    # the pool or lot the form acted on: its own form shows the rule beside the field
    context["error"] = {**error, "where": request.POST.get("lot") or request.POST.get("key", "")}
    context["posted"] = request.POST
    return render(request, template, context, status=400)


@login_required
def director_money(request: HttpRequest, slug: str, action: str | None = None) -> HttpResponse:
    """The director's money page (GET), or one of its forms (POST ``action``): the
    form reads the POST (an invalid one calls no service: nothing is written), then
    its one service."""
    tournament = directed_event(request, slug)
    template = "money/director.html"
    if action is not None:
        if request.method != "POST" or action not in ACTIONS:
            raise Http404
        if action in AUCTION_ACTIONS:
            template = "money/auction.html"
        form_class, call = ACTIONS[action]
        form = form_class(request.POST)
        if not form.is_valid():
            return _refusal(request, tournament, template, forms.page_error(action, form))
        try:
            done = call(actor_for_user(request.user), tournament, form.cleaned_data)
        except BoxcarsError as error:
            return _refusal(request, tournament, template, forms.page_error(action, form, error))
        if action == "payout":
            messages.success(
                request,
                gettext("%(amount)s paid out to %(name)s.")
                % {
                    "amount": number_format(-done.amount, 2, use_l10n=True, force_grouping=True),
                    "name": done.player.display_name,
                },
            )
        else:
            messages.success(request, gettext("Saved."))
        back = request.POST.get("next", "")
        if back and url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return redirect(back)  # a form on another page (the director's entry list)
        name = "money-auction" if action in AUCTION_ACTIONS else "money-director"
        return redirect(f"{section_url(name, slug)}#{action}")
    context = money_context(tournament)
    if request.GET.get("pool"):  # "Change" beside a pool: its form holds what is saved
        context["posted"] = pool_posted(context["view"], request.GET["pool"])
    return render(request, template, context)


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
