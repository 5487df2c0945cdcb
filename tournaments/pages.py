"""Tournament pages: overview, bracket (SVG), standings, big screen, director tools.

Thin views over the selectors and services; each page costs a fixed number of queries
whatever the event's size (the bracket and standings come from plain rows).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core import access
from core.models import Job
from games.forms import WalkInForm
from games.models import Club, Player
from games.rules.errors import BoxcarsError
from games.selectors import disputed_match_ids, open_disputes
from games.services.actors import actor_for_user

from . import (
    call_pages,
    director_actions,
    job_kinds,
    odds_chart,
    registration_pages,
    room,
    selectors,
    selectors_odds,
)
from .bracket_svg import Side, SlotInput, layout_stage
from .event_settings_form import EventSettingsForm
from .formats.labels import column_title, round_title
from .formats.places import describe_prize_order
from .forms import NewTournamentForm, RegisterPlayersForm
from .models import (
    EntryStatus,
    Pairing,
    PairingStatus,
    StageKind,
    Tournament,
    TournamentStatus,
)
from .services import draws, events
from .services import entries as entry_services
from .services import rounds as round_services
from .settings_pages import created_message

ELIMINATION_KINDS = {
    StageKind.MAIN,
    StageKind.CONSOLATION,
    StageKind.LAST_CHANCE,
    StageKind.WINNERS,
    StageKind.LOSERS,
    StageKind.GRAND_FINAL,
    StageKind.PLAYOFF,
}


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _side(entry: selectors.EntryRow | None, score: int | None, won: bool, bye: bool) -> Side:
    if entry is None:
        return Side(gettext("bye") if bye else "…", None, None, False, None)
    return Side(entry.display_name, entry.seed, score, won, entry.pk)


def _stage_blocks(view: selectors.BracketView, highlight: int | None) -> list[dict[str, Any]]:
    """Each stage as an SVG layout (brackets) or a list of rounds (Swiss, round robin)."""
    blocks = []
    every = [p for rows in view.pairings.values() for p in rows]
    disputed = disputed_match_ids(p.match_id for p in every)
    fed_by_disputed = {
        target
        for p in every
        if p.match_id in disputed
        for target in (p.winner_to, p.loser_to)
        if target
    }
    for stage in view.stages:
        rounds = view.rounds[stage.pk]
        if stage.kind in ELIMINATION_KINDS:
            columns = []
            for round_ in rounds:
                slots = []
                for p in view.pairings.get(round_.pk, []):
                    score = p.match_score or (None, None)
                    bye = p.status == PairingStatus.BYE
                    slots.append(
                        SlotInput(
                            key=p.key,
                            status=p.status,
                            winner_to=p.winner_to,
                            top=_side(
                                view.entries.get(p.entry1_id),  # type: ignore[arg-type]  # get(None) is None: a bye
                                score[0],
                                p.winner_id is not None and p.winner_id == p.entry1_id,
                                bye,
                            ),
                            bottom=_side(
                                view.entries.get(p.entry2_id),  # type: ignore[arg-type]  # get(None) is None: a bye
                                score[1],
                                p.winner_id is not None and p.winner_id == p.entry2_id,
                                bye,
                            ),
                            match=p.match_id,
                            stale=p.stale,
                            forfeit=p.forfeit,
                            disputed=p.match_id in disputed,
                            fed_by_disputed=p.key in fed_by_disputed,
                        )
                    )
                title = round_title(
                    stage_kind=stage.kind, round_number=round_.number, rounds_in_stage=len(rounds)
                )
                # str(): the SVG is drawn here, in the reader's language
                columns.append((str(column_title(title=title, length=round_.match_length)), slots))
            blocks.append({"stage": stage, "svg": layout_stage(columns, highlight)})
        else:
            blocks.append(
                {
                    "stage": stage,
                    "rounds": [
                        {
                            "round": r,
                            "pairings": [
                                {
                                    "row": p,
                                    "one": view.entries.get(p.entry1_id),  # type: ignore[arg-type]  # get(None) is None: a bye
                                    "two": view.entries.get(p.entry2_id),  # type: ignore[arg-type]  # get(None) is None: a bye
                                    "path": highlight in (p.entry1_id, p.entry2_id),
                                }
                                for p in view.pairings.get(r.pk, [])
                            ],
                        }
                        for r in rounds
                    ],
                }
            )
    return blocks


def _highlight(request: HttpRequest) -> int | None:
    try:
        return int(request.GET["player"])
    except (KeyError, ValueError):
        return None


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    player = (
        Player.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    )
    next_match = selectors.next_match_of(tournament, player) if player else None
    finished = tournament.status == TournamentStatus.FINISHED
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "entries": selectors.entry_rows(tournament).values(),
            "next_match": next_match,
            # a finished event names its winner (and, elimination, its places)
            "result": selectors.standings_table(tournament) if finished else None,
            "is_director": access.is_director(request.user, tournament.club),
            # the event's matches, for the analysis' "best played" table (analysis_tags)
            "match_ids": list(
                tournament.pairings.filter(match__isnull=False).values_list("match_id", flat=True)
            ),
        },
    )


def bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    view = selectors.bracket_view(tournament)
    highlight = _highlight(request)
    return render(
        request,
        "tournaments/bracket.html",
        {
            "tournament": tournament,
            "blocks": _stage_blocks(view, highlight),
            "entries": sorted(view.entries.values(), key=lambda e: (e.seed or 10**6, e.pk)),
            "highlight": highlight,
            "champion": view.entries.get(selectors.bracket_champion(view) or -1),
            **_odds_context(tournament),
        },
    )


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    table = selectors.standings_table(tournament)
    return render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "rows": table.rows,
            "winner": table.winner,
            "show_places": tournament.is_elimination,
            "prize_order_text": describe_prize_order(tournament.prize_order),
            "tie_breaks": tournament.tie_breaks,
            **_odds_context(tournament),
        },
    )


def _odds_context(tournament: Tournament, *, full: bool = False) -> dict[str, Any]:
    """The chances panel (bars, the leaders' line chart, on the odds page every place,
    and there the job computing newer odds); ``win_chances`` for the standings."""
    view = selectors_odds.odds_view(tournament, with_job=full)
    return {
        "tournament": tournament,
        "odds": view,
        "win_chances": view.win_chances,
        "odds_bars": odds_chart.bars(view.rows, limit=len(view.rows) if full else 8),
        "odds_chart": odds_chart.line_chart(view.history, view.leaders),
        "odds_marker": view.marker,
        "odds_full": full,
        "odds_labels": [p["label"] for p in view.snapshot.places] if view.snapshot else [],
    }


def odds_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every entrant's chances: to win, to reach the final, each place; the chart."""
    tournament = _tournament(slug)
    return render(request, "tournaments/odds.html", _odds_context(tournament, full=True))


def odds_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The chances panel, polled by the pages that show it: 204 while nothing changed."""
    tournament = _tournament(slug)
    if request.GET.get("v") == selectors_odds.odds_marker(tournament):
        return HttpResponse(status=204)
    context = _odds_context(tournament, full=request.GET.get("full") == "1")
    return render(request, "tournaments/_odds_live.html", context)


def _screen_context(
    tournament: Tournament,
    marker: str | None = None,
    odds: tuple[int, dict[int, str]] | None = None,
) -> dict[str, Any]:
    view = selectors.bracket_view(tournament)
    odds_id, win_chances = odds or selectors_odds.latest_win_chances(tournament)
    playing = room.matches_in_play(view)
    return {
        "tournament": tournament,
        "playing": playing,
        "chances": room.chances_in_play(playing),
        # Every row: the screen pages through them. A "place" the standings selector
        # may give (shared places) is shown by _screen_standings.html when present.
        "rows": selectors.standings(tournament),
        "champion": view.entries.get(selectors.bracket_champion(view) or -1),
        "marker": marker or room.screen_marker(tournament, odds_marker=str(odds_id)),
        "win_chances": win_chances,
    }


def screen_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's big screen: the matches in play and the standings, paged to fit the
    screen and refreshed in place (see :func:`screen_live`)."""
    tournament = _tournament(slug)
    return render(request, "tournaments/screen.html", _screen_context(tournament))


def screen_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The big screen's changing part, polled every few seconds by the screen.

    The screen sends the marker of what it shows (``?v=``); while nothing changed the
    answer is an empty 204 (three small queries, and htmx leaves the page alone), else
    the fresh fragment with its new marker.
    """
    tournament = _tournament(slug)
    odds = selectors_odds.latest_win_chances(tournament)
    marker = room.screen_marker(tournament, odds_marker=str(odds[0]))
    if request.GET.get("v") == marker:
        return HttpResponse(status=204)
    context = _screen_context(tournament, marker, odds)
    return render(request, "tournaments/_screen_live.html", context)


def round_cards_page(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """Every score card of a round, one per printed page, by table."""
    tournament = _tournament(slug)
    found = room.round_cards(tournament, round_id)
    if found is None:
        raise Http404("No such round in this event.")
    round_, cards = found
    return render(
        request,
        "tournaments/round_cards.html",
        {
            "tournament": tournament,
            "round": round_,
            "round_name": room.round_name(round_, round_.stage),
            "cards": cards,
        },
    )


@login_required
def director_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    if not access.is_director(request.user, tournament.club):
        raise Http404
    view = selectors.bracket_view(tournament)
    labels = room.pairing_labels(view)
    entered = {e.player_id for e in view.entries.values()}
    job = (
        Job.objects.filter(kind=job_kinds.PAIR_ROUND, params__tournament=tournament.pk)
        .order_by("-pk")
        .first()
    )
    ready, rounds_in_play = room.matches_in_play(view), room.rounds_in_play(view)
    drop_map = None
    drop_map_note = ""
    # Before two players are in, the event cannot start and a drop map has nothing to
    # preview: the page says what to do first instead (issue 41: an empty draft read
    # "Feeding rounds must be between 1 and 1" under a primary "Start").
    active = sum(1 for e in view.entries.values() if e.status == EntryStatus.ACTIVE)
    can_start = active >= entry_services.MIN_ENTRIES
    if tournament.format_spec.drop_map and can_start:
        from .formats.errors import FormatError

        params = selectors.drop_map_params(tournament)
        if params["entries"] <= draws.LARGE_EVENT:
            try:
                drop_map = draws.labelled_drop_map(**params)
            except FormatError as error:
                # Too few entries yet for the consolation rounds asked for: say so,
                # the preview appears once the field is large enough.
                drop_map_note = error.message
    return render(
        request,
        "tournaments/director.html",
        {
            "tournament": tournament,
            "open_disputes": open_disputes(
                match_ids=Pairing.objects.filter(tournament=tournament).values("match_id")
            ),
            "entries": sorted(view.entries.values(), key=lambda e: (e.seed or 10**6, e.pk)),
            "candidates": tournament.club.players.exclude(pk__in=entered).order_by("display_name"),
            "register_form": RegisterPlayersForm(
                candidates=tournament.club.players.exclude(pk__in=entered).order_by("display_name")
            ),
            "walk_in_form": WalkInForm(prefix="walkin"),
            "ready": ready,
            "rounds_in_play": rounds_in_play,
            "every_round": room.every_round(view),
            "labels": labels,
            "stale": [
                {"row": p, "label": labels.get(p.pk, p.key)}
                for rows in view.pairings.values()
                for p in rows
                if p.stale
            ],
            "job": job,
            "drop_map": drop_map,
            "drop_map_note": drop_map_note,
            "can_start": can_start,
            # Swiss / round robin: offer "Pair the next round" only while one is due
            "more_rounds": tournament.status == TournamentStatus.RUNNING
            and not tournament.is_elimination
            and round_services.more_rounds_due(tournament),
            **call_pages.dashboard_context(tournament, ready, rounds_in_play),
        },
    )


@login_required
@require_POST
def director_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """One form post, one service call; domain errors come back as messages."""
    tournament = _tournament(slug)
    asking = registration_pages.confirmation(request, tournament, action)
    if asking is not None:
        return asking  # nothing is done until the director confirms
    try:
        done = director_actions.perform(request, tournament, actor_for_user(request.user), action)
    except BoxcarsError as error:
        messages.error(request, error.message)
    except (KeyError, ValueError):
        messages.error(request, gettext("Fill in the form."))
    else:
        messages.success(request, done)
    return redirect("tournament-director", slug=slug)


@login_required
def new_tournament(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Create an event with every option of the API, through the API's service.

    ``action=preview`` (the htmx button, or the plain one without JavaScript) shows
    what the options would play with a number of players (rounds, lengths, drop map)
    and creates nothing. Bad input comes back next to its field, nothing written.
    """
    club = get_object_or_404(Club, slug=club_slug)
    if not access.is_director(request.user, club):
        raise Http404
    form = NewTournamentForm(request.POST or None)
    settings_form = EventSettingsForm(request.POST or None)  # capacity, check-in, clocks
    preview: dict[str, Any] | None = None
    preview_error = ""
    status = 200
    if request.method == "POST" and request.POST.get("action") == "preview":
        form.is_valid()
        form.errors.pop("name", None)  # a preview needs no name yet
        params = form.preview_params()
        if params is not None:
            try:
                preview = draws.event_preview(**params)
            except BoxcarsError as error:
                preview_error = error.message
    elif request.method == "POST":
        if form.is_valid() & settings_form.is_valid():  # both, so every error shows
            try:
                tournament = events.create_tournament(
                    actor=actor_for_user(request.user),
                    club=club,
                    **form.options(),
                    **settings_form.options(),
                )
            except BoxcarsError as error:
                if settings_form.field_for(error.field):
                    settings_form.add_error(settings_form.field_for(error.field), error.message)
                else:
                    form.add_error(form.field_for(error.field), error.message)
            else:
                messages.success(request, created_message(tournament))
                return redirect("tournament-director", slug=tournament.slug)
        status = 400
    context = {
        "club": club,
        "form": form,
        "settings_form": settings_form,
        "groups": form.groups_of(),
        "preview": preview,
        "preview_error": preview_error,
    }
    if request.headers.get("HX-Request") and request.POST.get("action") == "preview":
        return render(request, "tournaments/_new_preview.html", context)
    return render(request, "tournaments/new.html", context, status=status)
