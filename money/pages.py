"""Money pages: the director's money page, the auction page, the payout sheet, the public
payouts page and the CSV.

Thin: each POST parses its form, calls one service and redirects back to the section it
came from; a refusal re-renders the page (400) with the rule in words next to the form
and the field it names. Reads go through :func:`money.selectors.money_view`.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any, overload

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from core import access, csv_files
from core.errors import N_, BoxcarsError, RuleViolation
from core.numbers import is_ascii_number
from games.services.actors import actor_for_user
from money import rules, selectors, services
from money.master_points import FORMULA_CHOICES
from money.models import PaidBy, PaymentMethod, Remainder
from money.renderings import calcutta_data, ledger_csv
from tournaments.models import EntryStatus, Tournament

FIELD_WORDS = {
    "fee": "Entry fee",
    "added": "Added money",
    "rake_percent": "Rake %",
    "rake_fixed": "Fixed rake",
    "table": "Payout table",
    "registration_fee": "Registration fee",
    "payout_unit": "Payout unit",
    "price": "Price",
    "buyers": "Buyers",
    "percent": "Percent",
    "entries": "Players",
    "entry": "Player",
    "amount": "Amount",
}


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _directed(request: HttpRequest, slug: str) -> Tournament:
    tournament = _tournament(slug)
    if not (
        access.is_site_admin(request.user) or access.is_director(request.user, tournament.club)
    ):
        raise Http404
    return tournament


# The largest amount a money column holds (12 digits, 2 after the point) and the largest
# master-point weight (6 digits, 3 after it): bigger input is refused in words here rather
# than overflowing the column as a 500.
AMOUNT_LIMIT = Decimal("1e10")
WEIGHT_LIMIT = Decimal("1e3")


@overload
def amount(
    value: str | None, field: str, *, blank: Decimal = ..., limit: Decimal = ...
) -> Decimal: ...
@overload
def amount(
    value: str | None, field: str, *, blank: None, limit: Decimal = ...
) -> Decimal | None: ...
def amount(
    value: str | None,
    field: str,
    *,
    blank: Decimal | None = Decimal(0),
    limit: Decimal = AMOUNT_LIMIT,
) -> Decimal | None:
    """A form's amount as a Decimal ("12,50" and "12.50" both read); words for bad input."""
    text = (value or "").strip().replace(",", ".")
    if not text:
        return blank
    if not is_ascii_number(text):  # Decimal reads any script's digits ("١٢" is 12)
        raise RuleViolation(
            "invalid_amount", N_("%(text)r is not an amount such as 12.50.", text=text), field
        )
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise RuleViolation(
            "invalid_amount", N_("%(text)r is not an amount such as 12.50.", text=text), field
        ) from None
    if not number.is_finite():
        raise RuleViolation(
            "invalid_amount", N_("%(text)r is not an amount such as 12.50.", text=text), field
        )
    if abs(number) >= limit:
        raise RuleViolation(
            "amount_too_large",
            N_("%(text)r is too large (under %(limit)s).", text=text, limit=f"{limit:,f}"),
            field,
        )
    return number


def _int(value: str | None, field: str) -> int:
    """One chosen id from a form; an empty or non-numeric choice is refused in words."""
    chosen = _ints([value or ""], field)
    if not chosen:
        raise RuleViolation("invalid_choice", N_("Choose from the list."), field)
    return chosen[0]


def _ints(values: list[str], field: str) -> list[int]:
    try:
        return [int(v) for v in values if v]
    except ValueError:
        raise RuleViolation("invalid_choice", N_("Choose from the list."), field) from None


def _table(request: HttpRequest) -> list[Decimal] | str:
    preset = request.POST.get("preset", "")
    if preset and preset != "custom":
        return preset
    parts = [
        p
        for p in request.POST.get("table", "").replace(";", "/").replace(",", "/").split("/")
        if p.strip()
    ]
    return [amount(p, "table") or Decimal(0) for p in parts] or "winner_takes_all"


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
        table=_table(request),
        remainder=p.get("remainder", Remainder.FIRST),
        buy_back_fee=buy_back_fee,
        buy_back_until_round=int(until) if until.isdigit() else None,
    )


def _buyers(request: HttpRequest) -> list[tuple[int, Decimal]]:
    buyers = []
    for player, percent in zip(
        request.POST.getlist("buyer"), request.POST.getlist("share"), strict=False
    ):
        if not player:
            continue
        share = amount(percent, "buyers", blank=None)
        buyers.append((_ints([player], "buyers")[0], share if share is not None else Decimal(100)))
    return buyers


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
        entry_ids=_ints(r.POST.getlist("entries"), "entries"),
    ),
    "buy-back": lambda r, a, t: services.record_buy_back(
        actor=a,
        tournament=t,
        key=r.POST.get("key", ""),
        entry_id=_ints([r.POST.get("entry", "")], "entry")[0] if r.POST.get("entry") else 0,
    ),
    "payment": lambda r, a, t: services.record_payment(
        actor=a,
        tournament=t,
        player_id=_int(r.POST.get("player"), "player"),
        amount=amount(r.POST.get("amount"), "amount"),
        method=r.POST.get("method", ""),
        note=r.POST.get("note", ""),
    ),
    "split": lambda r, a, t: services.record_split(
        actor=a, tournament=t, entry_ids=_ints(r.POST.getlist("entries"), "entries")
    ),
    "clear-splits": lambda r, a, t: services.clear_splits(actor=a, tournament=t),
    "calcutta": lambda r, a, t: services.configure_calcutta(
        actor=a,
        tournament=t,
        table=_table(r),
        rake_percent=amount(r.POST.get("rake_percent"), "rake_percent"),
        rake_fixed=amount(r.POST.get("rake_fixed"), "rake_fixed"),
        buy_back_limit=amount(r.POST.get("buy_back_limit"), "buy_back_limit", blank=Decimal(50)),
        remainder=r.POST.get("remainder", Remainder.FIRST),
    ),
    "lot": lambda r, a, t: services.add_lot(
        actor=a,
        tournament=t,
        label=r.POST.get("label", ""),
        entry_ids=_ints(r.POST.getlist("entries"), "entries"),
    ),
    "sale": lambda r, a, t: services.sell_lot(
        actor=a,
        tournament=t,
        lot_id=_int(r.POST.get("lot"), "lot"),
        price=amount(r.POST.get("price"), "price"),
        buyers=_buyers(r),
    ),
    "lot-buy-back": lambda r, a, t: services.buy_back_lot(
        actor=a,
        tournament=t,
        lot_id=_int(r.POST.get("lot"), "lot"),
        entry_id=_int(r.POST.get("entry"), "entry"),
        percent=amount(r.POST.get("percent"), "percent"),
    ),
}
AUCTION_ACTIONS = {"calcutta", "lot", "sale", "lot-buy-back"}


def _context(tournament: Tournament) -> dict[str, Any]:
    view = selectors.money_view(tournament)
    entries = list(selectors.event_entries(tournament))
    by_player = {p.player.pk: p for p in view.people if p.player}
    rows = []
    for entry in entries:
        person = by_player.get(entry.player_id)
        rows.append(
            {
                "entry": entry,
                "person": person,
                "owes": -person.balance if person and person.balance < 0 else 0,
            }
        )
    in_lot = {
        e.pk
        for lot in (view.calcutta.lots.all() if view.calcutta else [])
        for e in lot.entries.all()
    }
    return {
        "tournament": tournament,
        "view": view,
        "entries": entries,
        "active": [e for e in entries if e.status == EntryStatus.ACTIVE],
        "rows": rows,
        "summary": view.pool_summary(),
        "presets": [(key, label) for key, (label, _) in rules.PRESETS.items()],
        "paid_by": PaidBy.choices,
        "remainders": Remainder.choices,
        "methods": PaymentMethod.choices,
        "players": selectors.club_players(tournament.club),
        "free_entries": [e for e in entries if e.pk not in in_lot],
        "lots": _lots(view),
        "is_director": True,
        "master_points": _event_master_points(tournament),
        "formulas": FORMULA_CHOICES,
    }


def _event_master_points(tournament: Tournament) -> dict[str, Any]:
    from money.master_points import event_points

    setting = selectors.event_master_points_setting(tournament)
    points = event_points(tournament, setting) if setting else {}
    names = selectors.player_names(points)
    return {
        "setting": setting,
        "points": sorted(((names[p], v) for p, v in points.items()), key=lambda r: -r[1]),
    }


def _lots(view: selectors.MoneyView) -> list[dict[str, Any]]:
    if view.calcutta is None:
        return []
    data = calcutta_data(view) or {"lots": []}
    lots = {lot.pk: lot for lot in view.calcutta.lots.all()}
    return [{**row, "lot": lots[row["id"]]} for row in data["lots"]]


@login_required
def director_money(request: HttpRequest, slug: str, action: str | None = None) -> HttpResponse:
    """The director's money page (GET), or one of its forms (POST ``action``)."""
    tournament = _directed(request, slug)
    template = "money/director.html"
    if action is not None:
        if request.method != "POST" or action not in ACTIONS:
            raise Http404
        if action in AUCTION_ACTIONS:
            template = "money/auction.html"
        try:
            ACTIONS[action](request, actor_for_user(request.user), tournament)
        except BoxcarsError as error:
            context = _context(tournament)
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
        return redirect(f"{_url(name, slug)}#{action}")
    return render(request, template, _context(tournament))


def _url(name: str, slug: str) -> str:
    from django.urls import reverse

    return reverse(name, kwargs={"slug": slug})


@login_required
def auction(request: HttpRequest, slug: str) -> HttpResponse:
    """The auctioneer's page: set up, lots, winning bids, syndicates, buy-backs."""
    return render(request, "money/auction.html", _context(_directed(request, slug)))


@login_required
def payout_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """The printable payout sheet: each pool's payouts, each person's net, the transfers."""
    return render(request, "money/payout_sheet.html", _context(_directed(request, slug)))


@login_required
def ledger_csv_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _directed(request, slug)
    response = HttpResponse(ledger_csv(selectors.money_view(tournament)), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-ledger.csv"'
    return response


def public_money(request: HttpRequest, slug: str) -> HttpResponse:
    """Payouts and the Calcutta's lots, prices and owners, as far as the club publishes."""
    tournament = _tournament(slug)
    view = selectors.money_view(tournament)
    director = access.is_site_admin(request.user) or access.is_director(
        request.user, tournament.club
    )
    user = request.user
    mine = next(
        (
            p
            for p in view.people
            if p.player is not None and user.is_authenticated and p.player.user_id == user.pk
        ),
        None,
    )
    return render(
        request,
        "money/public.html",
        {
            "tournament": tournament,
            "view": view,
            "summary": view.pool_summary() if (director or view.club.publish_payouts) else None,
            "lots": _lots(view) if (director or view.club.publish_calcutta) else None,
            "is_director": director,
            "mine": mine,
        },
    )


def _master_points_csv(rows: list, season: str) -> str:
    import io

    out = io.StringIO()
    writer = csv_files.writer(out)  # no cell is a live formula
    writer.writerow(["season", "rank", "player", "points", "events"])
    for rank, row in enumerate(rows, start=1):
        writer.writerow([season, rank, row.player.display_name, str(row.points), len(row.events)])
    return out.getvalue()


def _season(request: HttpRequest, club: Any, club_seasons: list) -> Any:
    """The season asked for (``?season=2026``; ``all``: every season), the newest by
    with points by default (the current one before any has); a season without events
    shows an empty table rather than a 404."""
    from money.master_points import Season, season_start
    from money.rules.seasons import season_bounds, season_label

    asked = request.GET.get("season", "")
    if asked == "all":
        return None
    if asked.isdigit() and 1900 <= int(asked) <= 9999:
        for season in club_seasons:
            if season.year == int(asked):
                return season
        start = season_start(club)
        year = int(asked)
        return Season(year, season_label(start, year), *season_bounds(start, year))
    with_points = [s for s in club_seasons if s.has_points]
    return (with_points or club_seasons or [None])[0]


def club_master_points(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's master-points leaderboard for a season (public), or its CSV with
    ``?format=csv``; ``?season=2026`` picks the season (``all``: every season)."""
    from games.models import Club
    from money.master_points import club_table, seasons

    club = get_object_or_404(Club, slug=slug)
    club_seasons = seasons(club)
    season = _season(request, club, club_seasons)
    rows = club_table(club, season.year if season else None)
    label = season.label if season else "all"
    if request.GET.get("format") == "csv":
        response = HttpResponse(_master_points_csv(rows, label), content_type="text/csv")
        response["Content-Disposition"] = (
            f'attachment; filename="{club.slug}-master-points-{label}.csv"'
        )
        return response
    director = access.is_site_admin(request.user) or access.is_director(request.user, club)
    return render(
        request,
        "money/master_points.html",
        {
            "club": club,
            "rows": rows,
            "season": season,
            "seasons": club_seasons,
            "is_director": director,
        },
    )


def _club_table_form(request: HttpRequest) -> tuple[str, list[dict[str, Any]]]:
    """The table form: one row per bracket (blank rows ignored), points as "10/6/3/3"."""
    brackets = []
    rows = zip(
        request.POST.getlist("min_players"),
        request.POST.getlist("max_players"),
        request.POST.getlist("points"),
        strict=False,
    )
    for i, (low, high, points) in enumerate(rows):
        if not (low.strip() or high.strip() or points.strip()):
            continue
        field = f"brackets[{i}]"
        parts = [p for p in points.replace(";", "/").replace(",", "/").split("/") if p.strip()]
        brackets.append(
            {
                "min_players": _ints([low.strip() or "0"], f"{field}.min_players")[0],
                "max_players": _ints([high.strip()], f"{field}.max_players")[0]
                if high.strip()
                else None,
                "points": [str(amount(p, f"{field}.points")) for p in parts],
            }
        )
    per_win = str(amount(request.POST.get("per_match_won"), "per_match_won"))
    return per_win, brackets


def club_points_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's own master-points table: its current version and earlier ones (public);
    directors edit it (each save is a new version) and set the season's start day."""
    from django.contrib.auth.views import redirect_to_login

    from games.models import Club
    from money import master_points

    club = get_object_or_404(Club, slug=slug)
    director = access.is_site_admin(request.user) or access.is_director(request.user, club)
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not director:
            raise Http404
        form = request.POST.get("form", "table")
        try:
            actor = actor_for_user(request.user)
            read = request.POST.get("version", "")
            expected = int(read) if read.isdigit() else None
            if form == "season":
                master_points.set_season_start(
                    actor=actor,
                    club=club,
                    expected_version=expected,
                    month=_ints([request.POST.get("month", "") or "0"], "season_start_month")[0],
                    day=_ints([request.POST.get("day", "") or "0"], "season_start_day")[0],
                )
            else:
                per_win, brackets = _club_table_form(request)
                master_points.save_club_table(
                    actor=actor,
                    club=club,
                    per_match_won=per_win,
                    brackets=brackets,
                    expected_version=expected,
                )
        except BoxcarsError as error_:
            error = {"form": form, "field": error_.field or "", "detail": error_.message}
        else:
            messages.success(request, _("Saved."))
            return redirect(request.path)
    versions = selectors.club_points_tables(club)
    current = versions[0] if versions else None
    rows = [
        {
            "min": b["min_players"],
            "max": b["max_players"],
            "points": "/".join(b["points"]),
        }
        for b in (current.data["brackets"] if current else [])
    ]
    rows += [{"min": "", "max": "", "points": ""}] * 2
    return render(
        request,
        "money/club_points_table.html",
        {
            "club": club,
            "current": current,
            "versions": versions,
            "rows": rows,
            "season_start": master_points.season_start(club),
            "points_version": master_points.points_settings_version(club),
            "is_director": director,
            "error": error,
        },
        status=400 if error else 200,
    )


@login_required
def event_master_points(request: HttpRequest, slug: str) -> HttpResponse:
    """The director sets the event's master-point formula and weights (POST)."""
    from money.master_points import set_master_points

    tournament = _directed(request, slug)
    if request.method != "POST":
        raise Http404
    try:
        set_master_points(
            actor=actor_for_user(request.user),
            tournament=tournament,
            formula=request.POST.get("formula", ""),
            event_weight=amount(
                request.POST.get("event_weight"),
                "event_weight",
                blank=Decimal(1),
                limit=WEIGHT_LIMIT,
            ),
            division_weight=amount(
                request.POST.get("division_weight"),
                "division_weight",
                blank=Decimal(1),
                limit=WEIGHT_LIMIT,
            ),
        )
    except BoxcarsError as error:
        context = _context(tournament)
        context["error"] = {
            "form": "master-points",
            "field": error.field or "",
            "detail": error.message,
        }
        return render(request, "money/director.html", context, status=400)
    messages.success(request, gettext("Saved."))
    return redirect(f"{_url('money-director', slug)}#master-points")


def _award_groups(request: HttpRequest) -> list[list[int]] | None:
    """The award form: one select per position (blank: none), "tied with the one above"
    ticks; ``clear`` pays the pool by the places again (None)."""
    if request.POST.get("clear"):
        return None
    ties = set(request.POST.getlist("tie"))
    groups: list[list[int]] = []
    for i, value in enumerate(request.POST.getlist("place")):
        if not value:
            continue
        entry = _ints([value], "award_order")[0]
        if str(i) in ties and groups:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def _award_pools(tournament: Tournament) -> list[dict[str, Any]]:
    view = selectors.money_view(tournament)
    names = selectors.entry_names(tournament)
    pools = []
    for pool in view.pools:
        order = pool.award_order or []
        rows = []
        for group in order:
            for position, entry in enumerate(group):
                rows.append({"entry": entry, "tie": position > 0})
        size = min(max(len(pool.table), len(rows), 1) + 2, 32)
        rows += [{"entry": None, "tie": False}] * (size - len(rows))
        pools.append(
            {
                "pool": pool,
                "current": [[names.get(e, str(e)) for e in group] for group in order],
                "rows": rows,
            }
        )
    return pools


@login_required
def award_order(request: HttpRequest, slug: str) -> HttpResponse:
    """The director decides who a pool pays, best first (a side pool nobody eligible
    reached far), or clears the decision so the places pay it again."""
    tournament = _directed(request, slug)
    error = None
    if request.method == "POST":
        key = request.POST.get("key", "")
        try:
            services.set_award_order(
                actor=actor_for_user(request.user),
                tournament=tournament,
                key=key,
                groups=_award_groups(request),
            )
        except BoxcarsError as error_:
            error = {
                "form": f"award-{key}",
                "field": FIELD_WORDS.get(error_.field or "", error_.field or ""),
                "detail": error_.message,
            }
        else:
            messages.success(request, _("Saved."))
            return redirect(f"{request.path}#award-{key}")
    return render(
        request,
        "money/award.html",
        {
            "tournament": tournament,
            "pools": _award_pools(tournament),
            "entries": selectors.event_entries(tournament),
            "error": error,
        },
        status=400 if error else 200,
    )


@login_required
def money_history(request: HttpRequest, slug: str) -> HttpResponse:
    """Who changed what in the event's money, and when (newest first)."""
    from money.audit import LIMIT
    from money.audit import money_history as history

    tournament = _directed(request, slug)
    return render(
        request,
        "money/history.html",
        {"tournament": tournament, "entries": history(tournament), "limit": LIMIT},
    )
