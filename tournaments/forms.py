"""Forms of the director's registration pages (bulk registration, walk-ins).

As with ``games.forms``, the rules are the services'; the forms read the text.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

from games.models import Player
from games.rules import limits
from games.rules.names import name_key


class RosterField(forms.ModelMultipleChoiceField):
    """Club members as ticks; namesakes get their player number so they can be told apart."""

    _namesakes: set[str] | None = None

    def label_from_instance(self, obj: Player) -> str:
        if self._namesakes is None:  # one query for the whole list, not one per tick
            assert self.queryset is not None  # the form sets it before rendering
            keys = [name_key(n) for n in self.queryset.values_list("display_name", flat=True)]
            self._namesakes = {k for k in keys if keys.count(k) > 1}
        if name_key(obj.display_name) in self._namesakes:
            return f"{obj.display_name} (#{obj.pk})"
        return obj.display_name


class RegisterPlayersForm(forms.Form):
    names = forms.CharField(
        label="Names, one per line",
        required=False,
        max_length=limits.MAX_BULK_NAMES * (limits.MAX_PLAYER_NAME + 2),
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text="Club members are matched ignoring case and accents; other names become "
        "new players. You see what will happen before anything is saved.",
    )
    players = RosterField(
        label="Or tick club members",
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, candidates: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, RosterField)
        field.queryset = candidates

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if not self.errors and not (data.get("names") or "").strip() and not data.get("players"):
            raise forms.ValidationError("Type at least one name or tick a member.")
        lines = (data.get("names") or "").splitlines()
        if len(lines) > limits.MAX_BULK_NAMES:
            self.add_error(
                "names", f"At most {limits.MAX_BULK_NAMES} lines at a time; split the list."
            )
        data["lines"] = lines
        return data
