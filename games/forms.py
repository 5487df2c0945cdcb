"""Forms of the player pages: a walk-in, and a director's edit of a player.

The forms only read the text (a number is a number, an address looks like one); the
rules themselves are the services' (``games.services.clubs``), which the API calls
too. A refusal the service raises comes back next to the field it names
(``show_error``), so the page and the API say the same thing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext, gettext_lazy

from core.validators import single_line
from games import variant_names
from games.rules import limits, variants
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
        label=gettext_lazy("Name"),
        max_length=limits.MAX_PLAYER_NAME,
        validators=[single_line],
        error_messages={
            "required": gettext_lazy("A player needs a name."),
            "max_length": gettext("A name is at most %(MAX_PLAYER_NAME)s characters.")
            % {"MAX_PLAYER_NAME": limits.MAX_PLAYER_NAME},
        },
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    email = forms.EmailField(
        label=gettext_lazy("E-mail (optional)"),
        required=False,
        max_length=limits.MAX_EMAIL,
        error_messages={
            "invalid": gettext_lazy("That is not an e-mail address (name@example.org).")
        },
    )
    rating = forms.IntegerField(
        label=gettext_lazy("Starting rating (optional)"),
        required=False,
        min_value=1,
        max_value=limits.MAX_RATING,
        error_messages={
            "invalid": gettext_lazy("A rating is a whole number, like 1500."),
            "min_value": gettext_lazy("A starting rating is at least 1."),
            "max_value": gettext("A starting rating is at most %(MAX_RATING)s.")
            % {"MAX_RATING": limits.MAX_RATING},
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class PlayerEditForm(forms.Form):
    display_name = WalkInForm.base_fields["display_name"]
    email = WalkInForm.base_fields["email"]
    clubs: forms.ModelMultipleChoiceField[Club] = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Clubs"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "Only the clubs you direct are listed; other memberships stay as they are."
        ),
    )
    public_results = forms.BooleanField(
        label=gettext_lazy("Show past results on the player's page"),
        required=False,
        help_text=gettext_lazy(
            "Untick at the player's request: their page then lists their past events "
            "and places only to them and their clubs' directors."
        ),
    )

    def __init__(
        self, *args: Any, clubs: QuerySet[Club], person: bool = True, **kwargs: Any
    ) -> None:
        """``person``: whether the user may change the person's own fields (name,
        e-mail); if not, they are shown and sent back unchanged (a disabled field keeps
        its initial value whatever is posted)."""
        super().__init__(*args, **kwargs)
        field = self.fields["clubs"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = clubs
        if not person:
            for name in ("display_name", "email"):
                self.fields[name].disabled = True
                self.fields[name].help_text = gettext_lazy(
                    "The player's own: only they change it, signed in."
                )


class ClubSettingsForm(forms.Form):
    """A director's settings of the club: its time zone and the language of its emails."""

    time_zone = forms.CharField(
        max_length=64,
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off"}),
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy(
            "An IANA name such as Europe/Copenhagen: the club's pages show every time in it."
        ),
    )
    # Not required: a form that sends no language (an older page, a script) keeps the club's.
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        required=False,
        label=gettext_lazy("Language of emails"),
        help_text=gettext_lazy(
            "Round calls and other emails and push messages go out in it to the players "
            "who have not picked a language of their own. It leaves the pages alone: each "
            "visitor sees them in the language of their browser or the one they chose."
        ),
    )
    # The variants the club rates, each on a list of its own. Read only when the page
    # sent its block (``rated_variants_sent``): an older form keeps the club's choice.
    rated_variants = forms.MultipleChoiceField(
        choices=[c for c in variant_names.choices() if c[0] != variants.DEFAULT],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Variants rated"),
        help_text=gettext_lazy(
            "Each variant ticked gets a rating list of its own; the others are unrated. "
            "Their results never count on the backgammon list."
        ),
    )
    rated_variants_sent = forms.BooleanField(required=False, widget=forms.HiddenInput)
