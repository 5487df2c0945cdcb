"""A director's corrections from the score sheet, through the same services as the API
(``games.services.match_corrections`` and ``match_results``): a game corrected or removed,
the final score, void, forfeit, reopen."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from games.models import Game, Match
from games.models.matches import HAND_ENTRY_ENDINGS
from games.rules.errors import BoxcarsError
from games.services import match_corrections, match_results
from games.services.actors import actor_for_user, is_match_director

from .match_forms import CUBE_CHOICES, game_input
from .matches import correction_choices, load_match

#: Corrections that take something away or close the match: each asks first (a
#: confirmation page that re-posts the fields with ``confirm=1``; no JavaScript needed),
#: as the tournament dashboard does. Correcting a game's details is its own explicit
#: form and is applied at once.
CONFIRMED_CORRECTIONS = {"remove", "final", "swap", "void", "forfeit", "reopen"}


class CorrectGameForm(forms.Form):
    """A director's correction of one game: every detail, as ``PATCH .../games/{n}/``."""

    number = forms.IntegerField(min_value=1)
    winner = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Winner"))
    cube = forms.TypedChoiceField(coerce=int, choices=CUBE_CHOICES, label=gettext_lazy("Cube"))
    cube_owner = forms.ChoiceField(choices=Game.CubeOwner.choices, label=gettext_lazy("Cube owner"))
    level = forms.ChoiceField(choices=Game.Level.choices, label=gettext_lazy("Level"))
    ending = forms.ChoiceField(choices=HAND_ENTRY_ENDINGS, label=gettext_lazy("Ended by"))

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        winner = self.fields["winner"]
        assert isinstance(winner, forms.ChoiceField)
        winner.choices = [
            (match.player1_id, match.player1.display_name),
            (match.player2_id, match.player2.display_name),
        ]


class CorrectScoreForm(forms.Form):
    score1 = forms.IntegerField(min_value=0, max_value=999)
    score2 = forms.IntegerField(min_value=0, max_value=999)


def _version(request: HttpRequest) -> int | None:
    value = request.POST.get("version", "")
    return int(value) if value.isdigit() else None


def _score_words(match: Match, score: tuple[int, int]) -> str:
    return f"{match.player1.display_name} {score[0]}–{score[1]} {match.player2.display_name}"


def _posted_score(request: HttpRequest) -> tuple[int, int] | None:
    form = CorrectScoreForm(request.POST)
    if not form.is_valid():
        return None
    return form.cleaned_data["score1"], form.cleaned_data["score2"]


def _ask_correction(request: HttpRequest, match: Match, action: str) -> HttpResponse | None:
    """The page asking to confirm a destructive correction; None if the post is unusable
    (the caller then reports the problem)."""
    post = request.POST
    names = dict(correction_choices(match)["players"])
    if action == "remove":
        number = post.get("number", "")
        if not number.isdigit():
            return None
        question = f"Remove game {number}?"
        consequence = (
            "The game is deleted; later games are renumbered and every score after it is "
            "derived again (the Crawford game may move, a finished match may reopen)."
        )
        button = f"Yes, remove game {number}"
    elif action in ("final", "swap"):
        score = _posted_score(request) if action == "final" else (match.score2, match.score1)
        if score is None:
            return None
        verb = "Swap" if action == "swap" else "Replace"
        question = f"{verb} the final score: {_score_words(match, score)}?"
        consequence = (
            f"Now {_score_words(match, (match.score1, match.score2))}. The winner and "
            "everything that follows from the result (a bracket, the ratings) change with it."
        )
        button = f"Yes, make it {score[0]}–{score[1]}"
    elif action == "void":
        question = "Void this match?"
        consequence = (
            "It counts for nothing: no winner, not rated, its games kept on record. "
            "A director can reopen it."
        )
        button = "Yes, void the match"
    elif action == "forfeit":
        winner = post.get("winner", "")
        who = names.get(int(winner)) if winner.isdigit() else None
        if who is None:
            return None
        question = f"Award the match to {who} by forfeit?"
        consequence = "The match ends now as a forfeit win (never rated). A director can reopen it."
        button = f"Yes, award it to {who}"
    else:
        question = f"Reopen this {match.get_status_display().lower()} match?"
        consequence = (
            "The void or forfeit is taken back: the match gets the result its games or its "
            "final score imply again, and the audit trail records why."
        )
        button = "Yes, reopen it"
    fields = [(k, v) for k, v in post.items() if k not in ("csrfmiddlewaretoken", "confirm")]
    return render(
        request,
        "games/confirm_correction.html",
        {
            "match": match,
            "question": question,
            "consequence": consequence,
            "button": button,
            "fields": fields,
        },
    )


def match_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """A director's correction from the score sheet, through the same services as the
    API (``PATCH``/``DELETE .../games/{n}/``, ``.../result/``, ``void``, ``forfeit``,
    ``reopen``): everything downstream is derived again by them."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('match-detail', args=[pk])}")
    match = load_match(pk)
    actor = actor_for_user(request.user)
    if not is_match_director(actor, match):
        raise Http404("Only the club's directors correct a match.")
    if request.method != "POST":
        return redirect("match-detail", pk=pk)
    action = request.POST.get("action", "")
    if action in CONFIRMED_CORRECTIONS and request.POST.get("confirm") != "1":
        asked = _ask_correction(request, match, action)
        if asked is not None:
            return asked
        messages.error(request, gettext("Not changed: the form was incomplete."))
        return redirect("match-detail", pk=pk)
    version = _version(request)
    common: dict[str, Any] = {"actor": actor, "match_id": match.pk, "expected_version": version}
    try:
        if action == "game":
            form = CorrectGameForm(request.POST, match=match)
            if not form.is_valid():
                wrong = ", ".join(form.errors)
                messages.error(request, gettext("Not changed: check %(wrong)s.") % {"wrong": wrong})
                return redirect("match-detail", pk=pk)
            data = form.cleaned_data
            match_corrections.correct_game(
                **common,
                number=data["number"],
                game=game_input(data),
            )
            done = f"Game {data['number']} corrected; the scores after it follow."
        elif action == "remove":
            number = request.POST.get("number", "")
            match_corrections.remove_game(**common, number=int(number) if number.isdigit() else 0)
            done = f"Game {number} removed; later games renumbered."
        elif action in ("final", "swap"):
            score = _posted_score(request) if action == "final" else (match.score2, match.score1)
            if score is None:
                messages.error(request, gettext("Not changed: a final score is two whole numbers."))
                return redirect("match-detail", pk=pk)
            match_corrections.correct_final_score(**common, score=score)
            done = f"Final score now {_score_words(match, score)}."
        elif action == "void":
            match_results.void_match(**common)
            done = "Match voided."
        elif action == "forfeit":
            winner = request.POST.get("winner", "")
            match_results.forfeit_match(**common, winner_id=int(winner) if winner.isdigit() else 0)
            done = "Match awarded by forfeit."
        elif action == "reopen":
            match_results.reopen_match(**common, reason=request.POST.get("reason", "")[:500])
            done = "Match reopened."
        else:
            messages.error(request, gettext("Not changed: unknown correction."))
            return redirect("match-detail", pk=pk)
    except BoxcarsError as error:
        messages.error(
            request,
            gettext("Not changed. %(message)s (%(code)s)")
            % {"message": error.message, "code": error.code},
        )
        return redirect("match-detail", pk=pk)
    messages.success(request, done)
    return redirect("match-detail", pk=pk)
