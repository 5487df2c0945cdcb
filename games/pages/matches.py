"""Match pages: the score sheet, and score entry from a phone (signed in or by a
private score link). The forms call the same services as the API, so the rules
refuse the same things with the same words."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import score_links
from games.models import Confirmation, Dispute, Game, Match, MatchStatus, Player
from games.models.matches import HAND_ENTRY_ENDINGS
from games.rules import limits
from games.rules.errors import BoxcarsError
from games.selectors import can_enter_next_game, match_disputes, match_sheet_queryset
from games.services import matches as match_services
from games.services.actors import (
    Actor,
    actor_for_score_link,
    actor_for_user,
    is_match_director,
    participant_side,
)

CUBE_CHOICES = [(v, str(v)) for v in (1, 2, 4, 8, 16, 32, 64)]


class GameForm(forms.Form):
    """One game, as a player reports it at the table."""

    number = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label="Who won?")
    level = forms.ChoiceField(
        choices=Game.Level.choices, initial="single", widget=forms.RadioSelect, label="Won by"
    )
    cube = forms.TypedChoiceField(
        coerce=int, choices=CUBE_CHOICES, initial=1, widget=forms.RadioSelect, label="Cube"
    )
    cube_owner = forms.ChoiceField(
        choices=Game.CubeOwner.choices,
        initial="centre",
        widget=forms.RadioSelect,
        label="Cube owned by",
    )
    ending = forms.ChoiceField(
        choices=HAND_ENTRY_ENDINGS, initial="played", widget=forms.RadioSelect, label="Ended by"
    )

    def __init__(self, *args: object, match: Match, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        players = [
            (match.player1_id, match.player1.display_name),
            (match.player2_id, match.player2.display_name),
        ]
        self.fields["winner"].choices = players
        self.fields["cube_owner"].choices = [
            ("centre", "Centre"),
            ("player1", match.player1.display_name),
            ("player2", match.player2.display_name),
        ]


class FinalScoreForm(forms.Form):
    score1 = forms.IntegerField(min_value=0, label="Score")
    score2 = forms.IntegerField(min_value=0, label="Score")


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label="What is wrong with the entry?",
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=limits.MAX_REASON,
        error_messages={"required": "Say what is wrong: the directors read this to rule."},
    )


class ResolveForm(forms.Form):
    """The director's ruling on an open dispute, as the resolve service takes it."""

    decision = forms.ChoiceField(
        choices=Dispute.Decision.choices,
        initial=Dispute.Decision.KEEP,
        widget=forms.RadioSelect,
        label="Decision",
    )
    note = forms.CharField(
        label="Note to the players",
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=limits.MAX_REASON,
        help_text="Both players see it on the match page.",
        error_messages={"required": "Write a note: the players see what you decided and why."},
    )


def _load(pk: int) -> Match:
    match = match_sheet_queryset().filter(pk=pk).first()
    if match is None:
        raise Http404("No such match.")
    return match


def _sheet_context(match: Match, actor: Actor) -> dict:
    state = match_services.match_state(match, list(match.games.all()))
    director = is_match_director(actor, match)
    side = participant_side(actor, match)
    return {
        "match": match,
        "games": list(match.games.all()),
        "state": state,
        "is_director": director,
        "side": side,
        "can_enter": (director or side is not None)
        and can_enter_next_game(match, director=director),
        "can_confirm": match.confirmation == Confirmation.PENDING
        and (director or (actor.player is not None and match.awaiting_id == actor.player.pk)),
        "can_see_audit": director or side is not None,
        # the dispute block: its reason and ruling are between the players and the
        # directors; everyone else sees the "disputed" tag in the header only
        "disputes": match_disputes(match) if director or side is not None else [],
        "can_dispute": side is not None
        and match.confirmation == Confirmation.PENDING
        and actor.player is not None
        and match.awaiting_id == actor.player.pk
        and match.status not in (MatchStatus.VOID, MatchStatus.FORFEIT),
        "can_resolve": director and match.confirmation == Confirmation.DISPUTED,
    }


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The score sheet: game by game, the Crawford game marked, the transcript if any."""
    return _detail(request, _load(pk), actor_for_user(request.user))


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
    context = _sheet_context(match, actor)
    context["links_live"] = score_links.link_is_live(match)  # directors: "Score links"
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
    match = _load(pk)
    actor = actor_for_user(request.user)
    if participant_side(actor, match) is None:
        raise Http404("Only the players of this match dispute its score.")
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _detail(request, match, actor, dispute_form=form)
    try:
        match_services.dispute_match(
            actor=actor, match_id=match.pk, reason=form.cleaned_data["reason"]
        )
    except BoxcarsError as error:
        return _detail(request, _load(pk), actor, dispute_form=form, rule_error=error)
    messages.warning(request, "Disputed: the club's directors will rule.")
    return redirect(reverse("match-detail", kwargs={"pk": match.pk}) + "#dispute")


@login_required
@require_POST
def match_resolve(request: HttpRequest, pk: int) -> HttpResponse:
    """A director rules on the open dispute: keep, corrected or void, with a note.

    A void asks first (a confirmation page that posts again with ``confirm=1``), so
    it works without JavaScript, like the dashboard's other irreversible actions.
    """
    match = _load(pk)
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
        match_services.resolve_dispute(
            actor=actor,
            match_id=match.pk,
            decision=decision,
            resolution=form.cleaned_data["note"],
        )
    except BoxcarsError as error:
        return _detail(request, _load(pk), actor, resolve_form=form, rule_error=error)
    messages.success(request, f"Dispute resolved: {Dispute.Decision(decision).label.lower()}.")
    return redirect(reverse("match-detail", kwargs={"pk": match.pk}) + "#dispute")


def match_card(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable score card: the paper form a club uses at the table."""
    from games.cards import card_for

    match = _load(pk)
    rows = list(match.games.select_related("winner"))
    return render(request, "games/match_card.html", {"match": match, "card": card_for(match, rows)})


def _entry(request: HttpRequest, match: Match, actor: Actor, here: str) -> HttpResponse:
    """Shared by the signed-in entry page and the score-link page."""
    context = _sheet_context(match, actor)
    if not (context["is_director"] or context["side"] is not None):
        raise Http404("Only the players of this match and its directors enter its score.")
    state = context["state"]
    game_form = GameForm(match=match, initial={"number": state.next_game_number})
    final_form = FinalScoreForm()
    dispute_form = DisputeForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "game":
                game_form = GameForm(request.POST, match=match)
                if game_form.is_valid():
                    data = game_form.cleaned_data
                    match_services.record_game(
                        actor=actor,
                        match_id=match.pk,
                        number=data["number"],
                        game=match_services.GameInput(
                            winner_id=data["winner"],
                            cube=data["cube"],
                            cube_owner=data["cube_owner"],
                            ending=data["ending"],
                            level=data["level"],
                        ),
                    )
                    messages.success(request, f"Game {data['number']} recorded.")
                    return redirect(here)
            elif action == "final":
                final_form = FinalScoreForm(request.POST)
                if final_form.is_valid():
                    match_services.record_final_score(
                        actor=actor,
                        match_id=match.pk,
                        score=(
                            final_form.cleaned_data["score1"],
                            final_form.cleaned_data["score2"],
                        ),
                    )
                    messages.success(request, "Final score recorded.")
                    return redirect(here)
            elif action == "confirm":
                confirmed = match_services.confirm_match(actor=actor, match_id=match.pk)
                messages.success(request, "Confirmed. Thank you!")
                if not score_links.link_is_live(confirmed):
                    return redirect("match-detail", pk=match.pk)  # the result is final
                return redirect(here)
            elif action == "undo":
                match_services.undo_last_game(actor=actor, match_id=match.pk)
                messages.success(request, "Last game taken back.")
                return redirect(here)
            elif action == "dispute":
                dispute_form = DisputeForm(request.POST)
                if dispute_form.is_valid():
                    match_services.dispute_match(
                        actor=actor, match_id=match.pk, reason=dispute_form.cleaned_data["reason"]
                    )
                    messages.warning(request, "Disputed: the club's directors will rule.")
                    return redirect(here)
        except BoxcarsError as error:
            context["rule_error"] = error
        match = _load(match.pk)
        context.update(_sheet_context(match, actor))
    context.update(
        {
            "game_form": game_form,
            "final_form": final_form,
            "dispute_form": dispute_form,
            "here": here,
            "actor": actor,
            "last_game": context["games"][-1] if context["games"] else None,
        }
    )
    status = 400 if context.get("rule_error") else 200
    return render(request, "games/match_entry.html", context, status=status)


def match_entry(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    match = _load(pk)
    return _entry(request, match, actor_for_user(request.user), request.path)


def score_link_entry(request: HttpRequest, token: str) -> HttpResponse:
    """A player without an account enters and confirms through a private link."""
    parsed = score_links.read_token(token)
    if parsed is None:
        return render(request, "games/score_link_invalid.html", status=403)
    match = _load(parsed[0])
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
    return _entry(request, match, actor_for_score_link(player), request.path)
