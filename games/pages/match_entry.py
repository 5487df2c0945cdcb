"""Score entry from a phone: signed in, or by a private score link for a player without
an account. The forms call the same services as the API (``score_entry``, the match
results and disputes), so the rules refuse the same things with the same words."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from core.actors import Actor
from games import score_links
from games.models import Match, Player
from games.pages.score_links import guess_refusal, note_failed_guess
from games.rules.errors import BoxcarsError, NotAllowed
from games.rules.scoring import check_final_score
from games.selectors import can_undo_final_score, match_disputes
from games.services import match_disputes as dispute_services
from games.services import match_records, score_entry
from games.services.actors import actor_for_link, actor_for_user
from games.services.clock_guard import REASON_FIELD, clock_missing

from .match_forms import DisputeForm, FinalScoreForm, GameForm, far_beyond_the_end, game_input
from .matches import load_match, sheet_context


def _entry(request: HttpRequest, match: Match, actor: Actor, here: str) -> HttpResponse:
    """Shared by the signed-in entry page and the score-link page."""
    context = sheet_context(match, actor)
    if not (context["is_director"] or context["side"] is not None):
        raise Http404("Only the players of this match and its directors enter its score.")
    state = context["state"]
    side = context["side"]
    crawford = state.next_game_is_crawford and bool(match.length)
    game_form = GameForm(
        match=match, side=side, crawford=crawford, initial={"number": state.next_game_number}
    )
    final_form = FinalScoreForm(match=match, side=side)
    dispute_form = DisputeForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "game":
                game_form = GameForm(request.POST, match=match, side=side, crawford=crawford)
                if game_form.is_valid():
                    data = game_form.cleaned_data
                    try:
                        score_entry.record_game(
                            actor=actor,
                            match_id=match.pk,
                            number=data["number"],
                            game=game_input(data),
                            clock_override_reason=request.POST.get(REASON_FIELD, ""),
                        )
                    except BoxcarsError as error:
                        field = game_form.field_of(error.field)
                        if field:  # the rule in words, next to the field it concerns
                            game_form.add_error(field, error.message)
                        raise
                    messages.success(
                        request, gettext("Game %(number)s recorded.") % {"number": data["number"]}
                    )
                    return redirect(here)
            elif action == "final":
                final_form = FinalScoreForm(request.POST, match=match, side=side)
                if final_form.is_valid():
                    score = final_form.score()
                    if far_beyond_the_end(match, score) and request.POST.get("confirm") != "1":
                        # ask only about a score the rules would take
                        check_final_score(match_records.match_rules(match), score)
                        context["final_to_confirm"] = score
                    else:
                        score_entry.record_final_score(
                            actor=actor,
                            match_id=match.pk,
                            score=score,
                            clock_override_reason=request.POST.get(REASON_FIELD, ""),
                        )
                        messages.success(request, gettext("Final score recorded."))
                        return redirect(here)
            elif action == "confirm":
                confirmed = score_entry.confirm_match(actor=actor, match_id=match.pk)
                messages.success(request, gettext("Confirmed. Thank you!"))
                if not score_links.link_is_live(confirmed):
                    return redirect("match-detail", pk=match.pk)  # the result is final
                return redirect(here)
            elif action == "undo":
                final = match.final_score_only
                score_entry.undo_last_game(actor=actor, match_id=match.pk)
                messages.success(
                    request, "Final score taken back." if final else "Last game taken back."
                )
                return redirect(here)
            elif action == "dispute":
                dispute_form = DisputeForm(request.POST)
                if dispute_form.is_valid():
                    dispute_services.dispute_match(
                        actor=actor, match_id=match.pk, reason=dispute_form.cleaned_data["reason"]
                    )
                    messages.warning(request, gettext("Disputed: the club's directors will rule."))
                    return redirect(here)
        except BoxcarsError as error:
            context["rule_error"] = error
        match = load_match(match.pk)
        context.update(sheet_context(match, actor))
    can_undo_final = can_undo_final_score(match, side)
    if side is not None and can_undo_final:
        mine, theirs = (match.score1, match.score2)[side], (match.score1, match.score2)[1 - side]
        context["undo_final_label"] = f"Undo final score: you {mine}, opponent {theirs}"
    context.update(
        {
            "game_form": game_form,
            "final_form": final_form,
            "final_fields": [final_form[key] for key in final_form.keys],
            "dispute_form": dispute_form,
            "here": here,
            "actor": actor,
            "last_game": context["games"][-1] if context["games"] else None,
            "can_undo_final": can_undo_final,
            # a round that requires a clock, and none ran: players are told why their
            # result will be refused, directors get the reason field (clock_guard)
            "clock_needed": bool(context.get("can_enter")) and clock_missing(match.pk),
            "clock_reason": request.POST.get(REASON_FIELD, ""),
            "winner_names": {
                str(match.player1_id): match.player1.display_name,
                str(match.player2_id): match.player2.display_name,
            },
        }
    )
    status = 400 if context.get("rule_error") else 200
    return render(request, "games/match_entry.html", context, status=status)


def match_entry(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    match = load_match(pk)
    return _entry(request, match, actor_for_user(request.user), request.path)


def score_link_entry(request: HttpRequest, token: str) -> HttpResponse:
    """A player without an account enters and confirms through a private link."""
    refused = guess_refusal(request, token)  # too many bad links from this address
    if refused is not None:
        return refused
    parsed = score_links.read_token(token)
    if parsed is None:
        note_failed_guess(request)
        return render(request, "games/score_link_invalid.html", status=403)
    match = load_match(parsed[0])
    if not score_links.link_is_live(match):
        # The link's holder is a player of the match: they still read the directors'
        # ruling on a dispute they were part of (the result is final, nothing to enter).
        return render(
            request,
            "games/score_link_invalid.html",
            {"match": match, "expired": True, "disputes": match_disputes(match)},
            status=403,
        )
    player = get_object_or_404(Player, pk=parsed[1])
    try:
        actor = actor_for_link(request.user, match, player)
    except NotAllowed as error:  # the opponent's link in the other player's session
        raise PermissionDenied(error.message) from error
    return _entry(request, match, actor, request.path)
