"""The form a table fills in to record a game (works without JavaScript).

One row of fields per team member of the next game (the partner has no cube), built
from the sheet's lineup; the form only parses: the rules refuse impossible games.
"""

from __future__ import annotations

from typing import Any

from django import forms

from .models import Ending, Level, MemberAction, Side
from .records import GameInput, MemberInput
from .selectors import Sheet

WINNER_CHOICES = [("", "— every member out on a drop —"), *Side.choices]
ENDING_CHOICES = [("", "Played out (default)"), *Ending.choices]
OWNER_CHOICES = [("", "Centre"), *Side.choices]
STAKE_CHOICES = [(1, "×1"), (2, "×2"), (4, "×4")]


class GameForm(forms.Form):
    winner = forms.ChoiceField(choices=WINNER_CHOICES, required=False, initial=Side.BOX)
    level = forms.ChoiceField(choices=Level.choices, initial=Level.SINGLE)
    ending = forms.ChoiceField(choices=ENDING_CHOICES, required=False)
    automatic_doubles = forms.IntegerField(min_value=0, max_value=10, initial=0)
    number = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, sheet: Sheet, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        session, nxt = sheet.session, sheet.next
        self.fields["number"].initial = len(sheet.games) + 1
        if not session.automatic_doubles:
            del self.fields["automatic_doubles"]
        self.partner_to_name = nxt.partner_to_name
        if nxt.partner_to_name:
            self.fields["partner"] = forms.TypedChoiceField(
                choices=[(p.pk, p.display_name) for p in nxt.team[1:]], coerce=int
            )
        partner = nxt.partner.pk if nxt.partner is not None else None
        self.members = [p for p in nxt.team if p.pk != partner]
        self.rows = []
        for player in self.members:
            prefix = f"m{player.pk}"
            self.fields[f"{prefix}_cube"] = forms.IntegerField(min_value=1, initial=1)
            self.fields[f"{prefix}_action"] = forms.ChoiceField(
                choices=MemberAction.choices, initial=MemberAction.PLAYED
            )
            self.fields[f"{prefix}_owner"] = forms.ChoiceField(
                choices=OWNER_CHOICES, required=False
            )
            names = ["cube", "action", "owner"]
            if session.raccoons:
                self.fields[f"{prefix}_raccoon"] = forms.BooleanField(required=False)
                names.append("raccoon")
            if session.allow_starting_cube:
                self.fields[f"{prefix}_stake"] = forms.TypedChoiceField(
                    choices=STAKE_CHOICES, coerce=int, initial=1
                )
                names.append("stake")
            if session.captain_takeover:
                self.fields[f"{prefix}_taken_over"] = forms.BooleanField(required=False)
                names.append("taken_over")
            self.rows.append((player, [self[f"{prefix}_{name}"] for name in names]))

    def to_game_input(self) -> GameInput:
        data = self.cleaned_data
        members = []
        for player in self.members:
            prefix = f"m{player.pk}"
            members.append(
                MemberInput(
                    player_id=player.pk,
                    cube=data[f"{prefix}_cube"],
                    action=data[f"{prefix}_action"],
                    owner=data[f"{prefix}_owner"] or None,
                    raccoon=bool(data.get(f"{prefix}_raccoon")),
                    stake=data.get(f"{prefix}_stake") or 1,
                    taken_over=bool(data.get(f"{prefix}_taken_over")),
                )
            )
        return GameInput(
            members=tuple(members),
            winner=data["winner"] or None,
            level=data["level"],
            ending=data["ending"] or None,
            automatic_doubles=data.get("automatic_doubles") or 0,
            partner_id=data.get("partner"),
        )
