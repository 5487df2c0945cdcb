"""Match pages: the score sheet, its disputes and rulings, the live poll and the card.

Score entry is in :mod:`games.pages.match_entry`, a director's corrections in
:mod:`games.pages.match_corrections`, the forms in :mod:`games.pages.match_forms`. The
forms call the same services as the API, so the rules refuse the same things with the
same words."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.actors import Actor
from games import score_links
from games.models import Confirmation, Dispute, Game, Match, MatchStatus
from games.models.matches import HAND_ENTRY_ENDINGS
from games.rules.errors import BoxcarsError
from games.selectors import can_enter_next_game, match_disputes, match_sheet_queryset
from games.selectors_chances import chances_of
from games.services import match_disputes as dispute_services
from games.services import match_records
from games.services.actors import actor_for_user, is_match_director, participant_side

from .match_forms import CUBE_CHOICES, DisputeForm, ResolveForm


def load_match(pk: int) -> Match:
    match = match_sheet_queryset().filter(pk=pk).first()
    if match is None:
        raise Http404("No such match.")
    return match


def sheet_context(match: Match, actor: Actor) -> dict:
    state = match_records.match_state(match, list(match.games.all()))
    director = is_match_director(actor, match)
    side = participant_side(actor, match)
    disputes = match_disputes(match) if director or side is not None else []
    return {
        "match": match,
        "games": list(match.games.all()),
        "state": state,
        # each player's chance to win from here (docs/chances.md); the games are loaded,
        # so whether the Crawford game was played costs no query
        "chances": chances_of(match, crawford_played=state.crawford_game is not None),
        "is_director": director,
        "side": side,
        "can_enter": (director or side is not None)
        and can_enter_next_game(match, director=director),
        "can_confirm": match.confirmation == Confirmation.PENDING
        and (director or (actor.player is not None and match.awaiting_id == actor.player.pk)),
        "can_see_audit": director or side is not None,
        # the dispute block: its reason and ruling are between the players and the
        # directors; everyone else sees the "disputed" tag in the header only
        "disputes": disputes,
        "can_dispute": side is not None
        and match.confirmation == Confirmation.PENDING
        and actor.player is not None
        and match.awaiting_id == actor.player.pk
        and match.status not in (MatchStatus.VOID, MatchStatus.FORFEIT),
        # an open dispute, not the match's confirmation: a director's correction
        # confirms the result (the "I corrected it" ruling comes after it), and a
        # dispute on a match since voided or forfeited is still ruled on
        "can_resolve": director and any(d.status == Dispute.Status.OPEN for d in disputes),
    }


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The score sheet: game by game, the Crawford game marked, the transcript if any."""
    return _detail(request, load_match(pk), actor_for_user(request.user))


def _detail(
    request: HttpRequest,
    match: Match,
    actor: Actor,
    *,
    dispute_form: DisputeForm | None = None,
    resolve_form: ResolveForm | None = None,
    rule_error: BoxcarsError | None = None,
) -> HttpResponse:
    """The match page; a refused dispute or ruling comes back here with its error."""
    context = sheet_context(match, actor)
    context["links_live"] = score_links.link_is_live(match)  # directors: "Score links"
    if context["is_director"]:
        context["corrections"] = correction_choices(match)
    if context["can_see_audit"]:
        from games.audit import match_audit_trail

        context["audit"] = match_audit_trail(match)
    context["dispute_form"] = dispute_form or DisputeForm()
    context["resolve_form"] = resolve_form or ResolveForm()
    context["dispute_error"] = rule_error
    invalid = rule_error is not None or any(
        f is not None and f.errors for f in (dispute_form, resolve_form)
    )
    return render(request, "games/match_detail.html", context, status=400 if invalid else 200)


@login_required
@require_POST
def match_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    """A signed-in player disputes what the opponent entered, from the match page."""
    match = load_match(pk)
    actor = actor_for_user(request.user)
    if participant_side(actor, match) is None:
        raise Http404("Only the players of this match dispute its score.")
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _detail(request, match, actor, dispute_form=form)
    try:
        dispute_services.dispute_match(
            actor=actor, match_id=match.pk, reason=form.cleaned_data["reason"]
        )
    except BoxcarsError as error:
        return _detail(request, load_match(pk), actor, dispute_form=form, rule_error=error)
    messages.warning(request, gettext("Disputed: the club's directors will rule."))
    return redirect(reverse("match-detail", kwargs={"pk": match.pk}) + "#dispute")


@login_required
@require_POST
def match_resolve(request: HttpRequest, pk: int) -> HttpResponse:
    """A director rules on the open dispute: keep, corrected or void, with a note.

    A void asks first (a confirmation page that posts again with ``confirm=1``), so
    it works without JavaScript, like the dashboard's other irreversible actions.
    """
    match = load_match(pk)
    actor = actor_for_user(request.user)
    if not is_match_director(actor, match):
        raise Http404("Only the club's directors resolve a dispute.")
    form = ResolveForm(request.POST)
    if not form.is_valid():
        return _detail(request, match, actor, resolve_form=form)
    decision = form.cleaned_data["decision"]
    if decision == Dispute.Decision.VOID and request.POST.get("confirm") != "1":
        return render(
            request,
            "games/resolve_confirm.html",
            {"match": match, "note": form.cleaned_data["note"], "decision": decision},
        )
    try:
        dispute_services.resolve_dispute(
            actor=actor,
            match_id=match.pk,
            decision=decision,
            resolution=form.cleaned_data["note"],
        )
    except BoxcarsError as error:
        return _detail(request, load_match(pk), actor, resolve_form=form, rule_error=error)
    messages.success(
        request,
        gettext("Dispute resolved: %(lower)s.")
        % {"lower": Dispute.Decision(decision).label.lower()},
    )
    return redirect(reverse("match-detail", kwargs={"pk": match.pk}) + "#dispute")


def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """Whether the match page is behind: polled by htmx every few seconds while the
    match is live, so its score, score sheet and winning chances follow a result.

    The page sends the version it shows (``?v=``): unchanged, the answer is an empty
    204 (one small query; htmx leaves the page alone); changed, an empty answer with
    ``HX-Refresh`` and the page reloads whole, so the head, the score sheet and the
    chances always agree. Directors' pages do not poll: a reload would throw away a
    correction being typed (and a stale correction is refused by its version anyway).
    """
    version = Match.objects.filter(pk=pk).values_list("version", flat=True).first()
    if version is None:
        raise Http404("No such match.")
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Refresh"] = "true"
    return response


def match_card(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable score card: the paper form a club uses at the table."""
    from games.cards import card_for

    match = load_match(pk)
    rows = list(match.games.select_related("winner"))
    return render(request, "games/match_card.html", {"match": match, "card": card_for(match, rows)})


def correction_choices(match: Match) -> dict:
    """What the corrections include needs to draw its selects."""
    return {
        "cubes": [v for v, _ in CUBE_CHOICES],
        "owners": [
            ("centre", "Centre"),
            ("player1", match.player1.display_name),
            ("player2", match.player2.display_name),
            ("unknown", "Not recorded"),
        ],
        "levels": Game.Level.choices,
        "endings": HAND_ENTRY_ENDINGS,
        "players": [
            (match.player1_id, match.player1.display_name),
            (match.player2_id, match.player2.display_name),
        ],
        "closed": match.status in (MatchStatus.VOID, MatchStatus.FORFEIT),
    }
