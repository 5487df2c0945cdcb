"""Forms of the player pages: a walk-in, and a director's edit of a player.

The forms only read the text (a number is a number, an address looks like one); the
rules themselves are the services' (``games.services.clubs``), which the API calls
too. A refusal the service raises comes back next to the field it names
(``show_error``), so the page and the API say the same thing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms

from games.rules import limits
from games.rules.errors import BoxcarsError

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from games.models import Club


def show_error(form: forms.Form, error: BoxcarsError) -> None:
    """Put a service's refusal next to its field (or at the top when it names none)."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)


class WalkInForm(forms.Form):
    display_name = forms.CharField(
        label="Name",
        max_length=limits.MAX_PLAYER_NAME,
        error_messages={
            "required": "A player needs a name.",
            "max_length": f"A name is at most {limits.MAX_PLAYER_NAME} characters.",
        },
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        max_length=limits.MAX_EMAIL,
        error_messages={"invalid": "That is not an e-mail address (name@example.org)."},
    )
    rating = forms.IntegerField(
        label="Starting rating (optional)",
        required=False,
        min_value=1,
        max_value=limits.MAX_RATING,
        error_messages={
            "invalid": "A rating is a whole number, like 1500.",
            "min_value": "A starting rating is at least 1.",
            "max_value": f"A starting rating is at most {limits.MAX_RATING}.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class PlayerEditForm(forms.Form):
    display_name = WalkInForm.base_fields["display_name"]
    email = WalkInForm.base_fields["email"]
    clubs: forms.ModelMultipleChoiceField[Club] = forms.ModelMultipleChoiceField(
        label="Clubs",
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Only the clubs you direct are listed; other memberships stay as they are.",
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["clubs"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = clubs
