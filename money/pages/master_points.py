"""Master points: an event's awards, a club's season table and its CSV, the points table
a club sets up."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from core import access, csv_files
from core.errors import BoxcarsError
from games.services.actors import actor_for_user
from money import selectors

from .common import directed_event, money_context, section_url
from .forms import ClubTableForm, MasterPointsForm, SeasonForm, page_error


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
    from money.master_points import club_table, seasons

    club = selectors.club_by_slug(slug)
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


def club_points_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's own master-points table: its current version and earlier ones (public);
    directors edit it (each save is a new version) and set the season's start day."""
    from django.contrib.auth.views import redirect_to_login

    from money import master_points

    club = selectors.club_by_slug(slug)
    director = access.is_site_admin(request.user) or access.is_director(request.user, club)
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not director:
            raise Http404
        form_id = "season" if request.POST.get("form") == "season" else "table"
        form = (SeasonForm if form_id == "season" else ClubTableForm)(request.POST)
        if not form.is_valid():
            error = page_error(form_id, form)
        else:
            data = form.cleaned_data
            try:
                actor = actor_for_user(request.user)
                if form_id == "season":
                    master_points.set_season_start(
                        actor=actor,
                        club=club,
                        expected_version=data["version"],
                        month=data["month"],
                        day=data["day"],
                    )
                else:
                    master_points.save_club_table(
                        actor=actor,
                        club=club,
                        per_match_won=data["per_match_won"],
                        brackets=data["brackets"],
                        expected_version=data["version"],
                    )
            except BoxcarsError as error_:
                error = page_error(form_id, form, error_)
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
    form = MasterPointsForm(request.POST)
    error = None
    if not form.is_valid():
        error = page_error("master-points", form)
    else:
        try:
            set_master_points(
                actor=actor_for_user(request.user), tournament=tournament, **form.cleaned_data
            )
        except BoxcarsError as error_:
            error = page_error("master-points", form, error_)
    if error is not None:
        context = money_context(tournament)
        context["error"] = error
        return render(request, "money/director.html", context, status=400)
    messages.success(request, gettext("Saved."))
    return redirect(f"{section_url('money-director', slug)}#master-points")
