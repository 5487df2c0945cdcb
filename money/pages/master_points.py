"""Master points: an event's awards, a club's season table and its CSV, the points table
a club sets up."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from core import access, csv_files
from core.errors import BoxcarsError
from games.services.actors import actor_for_user
from money import selectors

from .common import WEIGHT_LIMIT, amount, directed_event, money_context, section_url, whole_numbers


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
                "min_players": whole_numbers([low.strip() or "0"], f"{field}.min_players")[0],
                "max_players": whole_numbers([high.strip()], f"{field}.max_players")[0]
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
                    month=whole_numbers(
                        [request.POST.get("month", "") or "0"], "season_start_month"
                    )[0],
                    day=whole_numbers([request.POST.get("day", "") or "0"], "season_start_day")[0],
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

    tournament = directed_event(request, slug)
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
        context = money_context(tournament)
        context["error"] = {
            "form": "master-points",
            "field": error.field or "",
            "detail": error.message,
        }
        return render(request, "money/director.html", context, status=400)
    messages.success(request, gettext("Saved."))
    return redirect(f"{section_url('money-director', slug)}#master-points")
