"""Match pages: the score sheet, and score entry from a phone (signed in or by a
private score link). The forms call the same services as the API, so the rules
refuse the same things with the same words."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from core.actors import Actor
from games import score_links
from games.models import Confirmation, Dispute, Game, Match, MatchStatus, Player
from games.models.matches import HAND_ENTRY_ENDINGS
from games.pages.score_links import guess_refusal, note_failed_guess
from games.rules import limits, variants
from games.rules.errors import BoxcarsError, NotAllowed
from games.rules.scoring import check_final_score
from games.selectors import (
    can_enter_next_game,
    can_undo_final_score,
    match_disputes,
    match_sheet_queryset,
)
from games.selectors_chances import chances_of
from games.services import match_corrections, match_records, match_results, score_entry
from games.services import match_disputes as dispute_services
from games.services.actors import (
    actor_for_link,
    actor_for_user,
    is_match_director,
    participant_side,
)
from games.services.clock_guard import REASON_FIELD, clock_missing

CUBE_CHOICES = [(v, str(v)) for v in (1, 2, 4, 8, 16, 32, 64)]
OFFERED_CHOICES = [(v, str(v)) for v in (2, 4, 8, 16, 32, 64)]
#: A final score whose winner has more than the match length plus this many points is
#: asked about ("are you sure?") before the page stores it: one game rarely carries a
#: player that far past the end, and a mistyped 9 for a 3 does. The API is not asked.
FAR_BEYOND_THE_END = 2


def _game_input(data: dict[str, Any]) -> match_records.GameInput:
    """A game form's cleaned data as the services take it (entry and correction alike)."""
    return match_records.GameInput(
        winner_id=data["winner"],
        cube=data["cube"],
        cube_owner=data["cube_owner"],
        ending=data["ending"],
        level=data["level"],
    )


def _sides(match: Match, side: int | None) -> list[tuple[int, str]]:
    """The two players as (side, label): the viewer first as "You (name)" when they play
    in the match, else both by name in match order."""
    names = [match.player1.display_name, match.player2.display_name]
    if side is None:
        return [(0, names[0]), (1, names[1])]
    return [(side, f"You ({names[side]})"), (1 - side, f"Opponent ({names[1 - side]})")]


class GameForm(forms.Form):
    """One game, as a player reports it at the table.

    For a dropped double the player says which cube was offered (what they saw turned);
    the rules record a drop at the value before the double, with the doubler (the
    winner) owning a cube above 1, so the form derives both. A turned cube whose owner
    nobody ticked is recorded as owner unknown: it changes no score.
    """

    number = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.TypedChoiceField(
        coerce=int, widget=forms.RadioSelect, label=gettext_lazy("Who won?")
    )
    ending = forms.ChoiceField(
        choices=HAND_ENTRY_ENDINGS,
        initial="played",
        widget=forms.RadioSelect,
        label=gettext_lazy("Ended by"),
    )
    level = forms.ChoiceField(
        choices=Game.Level.choices,
        initial="single",
        widget=forms.RadioSelect,
        label=gettext_lazy("Won by"),
    )
    cube = forms.TypedChoiceField(
        coerce=int,
        choices=CUBE_CHOICES,
        initial=1,
        widget=forms.RadioSelect,
        label=gettext_lazy("Cube"),
    )
    cube_owner = forms.ChoiceField(
        choices=Game.CubeOwner.choices,
        required=False,
        widget=forms.RadioSelect,
        label=gettext_lazy("Cube owned by"),
    )
    cube_offered = forms.TypedChoiceField(
        coerce=int,
        choices=OFFERED_CHOICES,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
        label=gettext_lazy("Cube offered"),
        help_text=gettext_lazy("For a dropped double: the value the cube was turned to."),
    )

    def __init__(
        self,
        *args: Any,
        match: Match,
        side: int | None = None,
        crawford: bool = False,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.match = match
        ids = (match.player1_id, match.player2_id)
        owners = ("player1", "player2")
        sides = _sides(match, side)
        winner, cube_owner = self.fields["winner"], self.fields["cube_owner"]
        assert isinstance(winner, forms.ChoiceField) and isinstance(cube_owner, forms.ChoiceField)
        winner.choices = [(ids[i], label) for i, label in sides]
        cube_owner.choices = [
            ("centre", "Centre"),
            *[(owners[i], label) for i, label in sides],
            ("unknown", "Not noted"),
        ]
        game = variants.for_match(match.variant)
        if game.key != variants.DEFAULT:
            self._offer_variant(game)
        if crawford:
            self._offer_no_double()

    def _offer_variant(self, game: variants.Variant) -> None:
        """A variant's match offers only what the variant scores: its levels (no
        backgammon in tavli) and, without a cube, no cube, owner or drop at all (the cube
        is then 1 in the centre). As for the Crawford game, a hand-made POST of anything
        else still reaches the rules, which refuse it naming the field."""
        self.fields["level"].widget.choices = [
            (value, label) for value, label in Game.Level.choices if value in game.levels
        ]
        if game.cube:
            return
        for name in ("cube", "cube_owner", "cube_offered"):
            self.fields[name].required = False
            self.fields[name].widget = forms.HiddenInput()
        self.fields["ending"].widget.choices = [
            (value, label) for value, label in HAND_ENTRY_ENDINGS if value != "dropped"
        ]

    def _offer_no_double(self) -> None:
        """The Crawford game has no cube: the form shows the cube at 1 in the centre and no
        dropped double. Only the widgets lose the choices: a hand-made POST of a double
        still reaches the rules, which refuse it and name the field."""
        self.fields["cube"].widget.choices = [(1, "1")]
        self.fields["cube_owner"].widget.choices = [("centre", "Centre")]
        self.fields["ending"].widget.choices = [
            (value, label) for value, label in HAND_ENTRY_ENDINGS if value != "dropped"
        ]
        self.fields["cube_offered"].widget = forms.HiddenInput()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if data.get("ending") == "dropped":
            offered = data.get("cube_offered")
            if offered is None:
                self.add_error(
                    "cube_offered", "Say which cube was offered: the value it was turned to."
                )
                return data
            winner_side = 0 if data.get("winner") == self.match.player1_id else 1
            data["cube"], data["cube_owner"], data["level"] = match_records.dropped_double(
                offered, winner_side
            )
        elif data.get("cube") in (None, "") and isinstance(
            self.fields["cube"].widget, forms.HiddenInput
        ):
            data["cube"], data["cube_owner"] = 1, "centre"  # a variant without a cube
        elif data.get("cube") and not data.get("cube_owner"):
            data["cube_owner"] = match_records.default_cube_owner(data["cube"])
        return data

    def field_of(self, rule_field: str | None) -> str | None:
        """The form field a rule's ``field`` (``games[2].cube_owner``) names, if shown."""
        if not rule_field:
            return None
        name = rule_field.rsplit(".", 1)[-1]
        if self.data.get("ending") == "dropped" and name in ("cube", "cube_owner", "level"):
            return "cube_offered"
        return name if name in self.fields and name != "number" else None


class FinalScoreForm(forms.Form):
    """A final score, oriented for the viewer: "You" and "Opponent" for a player of the
    match (the commonest slip is typing it backwards), names in match order otherwise.
    :meth:`score` maps it back to (player 1, player 2)."""

    def __init__(self, *args: Any, match: Match, side: int | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.side = side
        sides = _sides(match, side)
        self.keys = ["score1", "score2"] if side is None else ["you", "opponent"]
        for key, (_, label) in zip(self.keys, sides, strict=True):
            self.fields[key] = forms.IntegerField(min_value=0, max_value=999, label=label)
        self.order = [i for i, _ in sides]

    def score(self) -> tuple[int, int]:
        values = [0, 0]
        for key, index in zip(self.keys, self.order, strict=True):
            values[index] = self.cleaned_data[key]
        return values[0], values[1]


def far_beyond_the_end(match: Match, score: tuple[int, int]) -> bool:
    """Whether to ask "are you sure?" before storing this final score (see
    :data:`FAR_BEYOND_THE_END`)."""
    return bool(match.length) and max(score) > match.length + FAR_BEYOND_THE_END


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("What is wrong with the entry?"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=limits.MAX_REASON,
        error_messages={
            "required": gettext_lazy("Say what is wrong: the directors read this to rule.")
        },
    )


class ResolveForm(forms.Form):
    """The director's ruling on an open dispute, as the resolve service takes it."""

    decision = forms.ChoiceField(
        choices=Dispute.Decision.choices,
        initial=Dispute.Decision.KEEP,
        widget=forms.RadioSelect,
        label=gettext_lazy("Decision"),
    )
    note = forms.CharField(
        label=gettext_lazy("Note to the players"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=limits.MAX_REASON,
        help_text=gettext_lazy("Both players see it on the match page."),
        error_messages={
            "required": gettext_lazy("Write a note: the players see what you decided and why.")
        },
    )


def _load(pk: int) -> Match:
    match = match_sheet_queryset().filter(pk=pk).first()
    if match is None:
        raise Http404("No such match.")
    return match


def _sheet_context(match: Match, actor: Actor) -> dict:
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
    match = _load(pk)
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
        return _detail(request, _load(pk), actor, dispute_form=form, rule_error=error)
    messages.warning(request, gettext("Disputed: the club's directors will rule."))
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
        dispute_services.resolve_dispute(
            actor=actor,
            match_id=match.pk,
            decision=decision,
            resolution=form.cleaned_data["note"],
        )
    except BoxcarsError as error:
        return _detail(request, _load(pk), actor, resolve_form=form, rule_error=error)
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

    match = _load(pk)
    rows = list(match.games.select_related("winner"))
    return render(request, "games/match_card.html", {"match": match, "card": card_for(match, rows)})


def _entry(request: HttpRequest, match: Match, actor: Actor, here: str) -> HttpResponse:
    """Shared by the signed-in entry page and the score-link page."""
    context = _sheet_context(match, actor)
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
                            game=_game_input(data),
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
        match = _load(match.pk)
        context.update(_sheet_context(match, actor))
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
    match = _load(pk)
    return _entry(request, match, actor_for_user(request.user), request.path)


def score_link_entry(request: HttpRequest, token: str) -> HttpResponse:
    """A player without an account enters and confirms through a private link."""
    refused = guess_refusal(request)  # too many bad links from this address
    if refused is not None:
        return refused
    parsed = score_links.read_token(token)
    if parsed is None:
        note_failed_guess(request)
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
    try:
        actor = actor_for_link(request.user, match, player)
    except NotAllowed as error:  # the opponent's link in the other player's session
        raise PermissionDenied(error.message) from error
    return _entry(request, match, actor, request.path)


# --- a director's corrections, from the score sheet ------------------------------------------

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
    match = _load(pk)
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
                game=_game_input(data),
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
