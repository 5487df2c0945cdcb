"""The forms of the match pages: a game, a final score, a dispute and its ruling.

They call nothing themselves: the pages hand what they clean to the same services as
the API (``games.services``), so the rules refuse the same things with the same words."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from games.models import Dispute, Game, Match
from games.models.matches import HAND_ENTRY_ENDINGS
from games.rules import limits, variants
from games.services import match_records

CUBE_CHOICES = [(v, str(v)) for v in (1, 2, 4, 8, 16, 32, 64)]
OFFERED_CHOICES = [(v, str(v)) for v in (2, 4, 8, 16, 32, 64)]
#: A final score whose winner has more than the match length plus this many points is
#: asked about ("are you sure?") before the page stores it: one game rarely carries a
#: player that far past the end, and a mistyped 9 for a 3 does. The API is not asked.
FAR_BEYOND_THE_END = 2


def game_input(data: dict[str, Any]) -> match_records.GameInput:
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
