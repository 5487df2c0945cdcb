"""The form a table fills in to record a game (works without JavaScript).

One row of fields per team member of the next game (the partner has no cube), built
from the sheet's lineup; the form only parses: the rules refuse impossible games.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.db import models
from django.utils.translation import gettext, gettext_lazy

from core.validators import single_line
from games.models import Player
from games.rules.errors import RuleViolation

from .models import (
    Ending,
    Level,
    MemberAction,
    RuleProfile,
    Side,
)
from .records import RULE_FIELDS, GameInput, MemberInput, build_rules, rules_values
from .rules import HOUSE_RULES, HouseRule, order_from_rolls
from .rules.drops import cube_before_drop
from .selectors import Sheet

WINNER_CHOICES = [(Side.BOX, "Box"), (Side.TEAM, "Team"), ("", "All dropped")]
ENDING_CHOICES = [("", "Played out"), (Ending.RESIGNED, "Resigned")]
OWNER_CHOICES = [("", "Centre"), (Side.BOX, "Box"), (Side.TEAM, "Team")]
STAKE_CHOICES = [(1, "×1"), (2, "×2"), (4, "×4")]
CUBE_CHOICES = [(2**n, str(2**n)) for n in range(7)]  # 1 to 64: more goes through the API
ACTION_LABELS: dict[str, str] = {
    MemberAction.PLAYED: "Played",
    MemberAction.DROPPED: "Dropped",
    MemberAction.BOX_DROPPED: "Box dropped",
    MemberAction.BEAVERED: "Beaver",
    MemberAction.BOX_BEAVERED: "Box beaver",
}
BEAVER_ACTIONS = {MemberAction.BEAVERED, MemberAction.BOX_BEAVERED}
#: A drop is entered as the cube offered, as match entry takes it (``rules.drops``).
DROP_ACTIONS = {MemberAction.DROPPED, MemberAction.BOX_DROPPED}


def _chips(choices: list[tuple[Any, Any]]) -> forms.RadioSelect:
    """Radio buttons the template draws as big touch targets (the chips of score entry)."""
    return forms.RadioSelect(choices=choices)


class GameForm(forms.Form):
    """Every choice is a radio chip, so a phone at the table records a game with taps.

    The cube is an integer field drawn as chips: the rules, not the form, refuse a
    cube that is not a power of two (a hand-made POST still hears the rule).
    """

    winner = forms.ChoiceField(
        choices=WINNER_CHOICES,
        required=False,
        initial=Side.BOX,
        widget=_chips(WINNER_CHOICES),
        label=gettext_lazy("Who won on the board?"),
    )
    level = forms.ChoiceField(
        choices=Level.choices,
        initial=Level.SINGLE,
        widget=_chips(Level.choices),
        label=gettext_lazy("Won by"),
    )
    ending = forms.ChoiceField(
        choices=ENDING_CHOICES,
        required=False,
        initial="",
        widget=_chips(ENDING_CHOICES),
        label=gettext_lazy("Ending"),
    )
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
            partners = [(p.pk, p.display_name) for p in nxt.team[1:]]
            self.fields["partner"] = forms.TypedChoiceField(
                choices=partners,
                coerce=int,
                widget=_chips(partners),
                label=gettext_lazy("The box's partner"),
            )
        actions = [
            (value, ACTION_LABELS[value])
            for value in MemberAction.values
            if session.beavers or value not in BEAVER_ACTIONS
        ]
        partner = nxt.partner.pk if nxt.partner is not None else None
        self.members = [p for p in nxt.team if p.pk != partner]
        self.rows = []
        for line, player in enumerate(self.members):
            prefix = f"m{player.pk}"
            cube = forms.IntegerField(
                min_value=1,
                initial=1,
                widget=_chips(CUBE_CHOICES),
                label=gettext_lazy("Cube"),
                help_text=gettext_lazy(
                    "For a drop: the cube offered (2 for a first double), as on the match "
                    "score sheet. A dropped 2 costs 1 point."
                ),
            )
            cube.chip_grid = True  # type: ignore[attr-defined]  # seven equal chips across a phone
            self.fields[f"{prefix}_cube"] = cube
            self.fields[f"{prefix}_action"] = forms.ChoiceField(
                choices=actions,
                initial=MemberAction.PLAYED,
                widget=_chips(actions),
                label=gettext_lazy("Cube action"),
            )
            self.fields[f"{prefix}_owner"] = forms.ChoiceField(
                choices=OWNER_CHOICES,
                required=False,
                widget=_chips(OWNER_CHOICES),
                label=gettext_lazy("Owner"),
            )
            names = ["cube", "action", "owner"]
            if session.allow_starting_cube:
                self.fields[f"{prefix}_stake"] = forms.TypedChoiceField(
                    choices=STAKE_CHOICES,
                    coerce=int,
                    initial=1,
                    widget=_chips(STAKE_CHOICES),
                    label=gettext_lazy("Stake"),
                )
                names.append("stake")
            if session.raccoons:
                self.fields[f"{prefix}_raccoon"] = forms.BooleanField(
                    required=False, label=gettext_lazy("Raccoon")
                )
                names.append("raccoon")
            if session.captain_takeover:
                self.fields[f"{prefix}_taken_over"] = forms.BooleanField(
                    required=False, label=gettext_lazy("Captain took over the drop")
                )
                names.append("taken_over")
            role = "captain" if line == 0 else f"line {line + 1}"
            self.rows.append((player, role, [self[f"{prefix}_{name}"] for name in names]))

    def board_fields(self) -> list[forms.BoundField]:
        names = ["winner", "level", "ending", "partner", "automatic_doubles"]
        return [self[name] for name in names if name in self.fields]

    def to_game_input(self) -> GameInput:
        """The game as the API takes it: a drop's cube offered becomes the cube before the
        double (raises ``RuleViolation`` naming the member's cube for an offered 1)."""
        data = self.cleaned_data
        members = []
        for index, player in enumerate(self.members):
            prefix = f"m{player.pk}"
            cube = data[f"{prefix}_cube"]
            if data[f"{prefix}_action"] in DROP_ACTIONS:
                cube = cube_before_drop(cube, field=f"members[{index}].cube")
            members.append(
                MemberInput(
                    player_id=player.pk,
                    cube=cube,
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


# --- opening a session ----------------------------------------------------------------------


class OrderFrom(models.TextChoices):
    ROLLS = "rolls", gettext_lazy("Opening rolls")
    SEATS = "seats", gettext_lazy("The order we give")


@dataclass(frozen=True)
class _Named:
    """A player as the pure order rules see it: compared by id, shown by name (so a tie
    is reported as "Cat, Dan" rather than two ids)."""

    pk: int
    name: str = field(compare=False)

    def __repr__(self) -> str:
        return self.name


def _parse_rolls(text: str) -> list[int]:
    """ "3", "3 5" or "3, 5": a roll, then each re-roll after a tie."""
    parts = text.replace(",", " ").replace("/", " ").split()
    try:
        return [int(part) for part in parts]
    except ValueError:
        raise forms.ValidationError(
            gettext_lazy("Rolls are numbers 1 to 6, each re-roll after a space: e.g. 3 5.")
        ) from None


def house_rule_field(rule: HouseRule) -> forms.Field:
    """The form field for ``rule``: a checkbox, radio chips, or a number bounded as declared."""
    if rule.kind is bool:
        return forms.BooleanField(required=False, label=rule.label)
    if rule.offered:
        offered = [(value, str(value)) for value in rule.offered]
        return forms.TypedChoiceField(
            choices=offered, coerce=int, widget=forms.RadioSelect, label=rule.label
        )
    if rule.kind is int:
        return forms.IntegerField(
            min_value=rule.minimum,
            max_value=rule.maximum,
            required=not rule.nullable,
            label=rule.label,
        )
    return forms.ChoiceField(choices=rule.choices, widget=forms.RadioSelect, label=rule.label)


class OpenSessionForm(forms.Form):
    """Open a chouette: who sits (in order, or by opening rolls), the stake, the rules.

    Every declared house rule (``chouette.rules.HOUSE_RULES``) is a field, filled with the
    profile's values (modern by default; the "Thorne 1930" button refills them). What is
    submitted is what the table agreed: the profile names the starting point, the fields
    are the rules.
    """

    order_from = forms.ChoiceField(
        choices=OrderFrom.choices, initial=OrderFrom.ROLLS, widget=forms.RadioSelect
    )
    stake = forms.CharField(max_length=14, initial="1.00", label=gettext_lazy("Stake per point"))
    currency = forms.CharField(max_length=3, initial="EUR")
    label = forms.CharField(max_length=120, required=False, validators=[single_line])
    played_on = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label=gettext_lazy("Played on"),
    )
    profile = forms.ChoiceField(
        choices=RuleProfile.choices, initial=RuleProfile.MODERN, widget=forms.HiddenInput
    )

    def __init__(self, players: list[Player], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for rule in HOUSE_RULES:
            self.fields[rule.name] = house_rule_field(rule)
        self.players = players
        self.player_rows = []
        for player in players:
            seat = f"p{player.pk}_seat"
            rolls = f"p{player.pk}_rolls"
            self.fields[seat] = forms.IntegerField(
                min_value=1,
                max_value=len(players),
                required=False,
                label=gettext("%(player)s seat") % {"player": player},
            )
            self.fields[rolls] = forms.CharField(
                max_length=40,
                required=False,
                label=gettext("%(player)s rolls") % {"player": player},
            )
            name = player.display_name
            self.fields[seat].widget.attrs.update({"size": 3, "aria-label": f"{name}'s seat"})
            self.fields[rolls].widget.attrs.update(
                {"inputmode": "numeric", "size": 6, "aria-label": f"{name}'s rolls"}
            )
            self.player_rows.append((player, self[seat], self[rolls]))

    @classmethod
    def rules_initial(cls, profile: str) -> dict[str, Any]:
        """The profile's house rules as the form's initial values."""
        return {"profile": profile, **rules_values(build_rules(profile))}

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in RULE_FIELDS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        by_rolls = data.get("order_from") == OrderFrom.ROLLS
        chosen: dict[int, Any] = {}
        for player in self.players:
            name = f"p{player.pk}_{'rolls' if by_rolls else 'seat'}"
            raw = data.get(name)
            if raw is None or raw == "":
                continue
            if by_rolls:
                try:
                    chosen[player.pk] = _parse_rolls(raw)
                except forms.ValidationError as error:
                    self.add_error(name, error)
            else:
                chosen[player.pk] = raw
        if self.errors:
            return data
        if by_rolls:
            # The pure order rule, with names, so a tie is reported the way the table says it.
            named: dict[Hashable, Any] = {
                _Named(p.pk, p.display_name): chosen[p.pk] for p in self.players if p.pk in chosen
            }
            try:
                order_from_rolls(named)
            except RuleViolation as error:
                raise forms.ValidationError(
                    gettext_lazy("%(message)s (%(code)s)")
                    % {"message": error.message, "code": error.code}
                ) from None
            data["rolls"] = chosen
        else:
            seats = sorted(chosen.items(), key=lambda item: item[1])
            numbers = [number for _, number in seats]
            if numbers != list(range(1, len(numbers) + 1)):
                raise forms.ValidationError(
                    gettext_lazy(
                        "Number the seats 1 (box), 2 (captain), 3, ... each once, without gaps."
                    )
                )
            data["players"] = [pk for pk, _ in seats]
        return data

    def house_rules(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in RULE_FIELDS}
