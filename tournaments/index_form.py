"""The events index's filters: a GET form, so a filtered list is a link one can share."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from games.models import Club
from tournaments.models import TournamentFormat

WHEN_CHOICES = [
    ("", gettext_lazy("Any time")),
    ("running", gettext_lazy("Running")),
    ("upcoming", gettext_lazy("Upcoming")),
    ("finished", gettext_lazy("Finished")),
]


class EventIndexForm(forms.Form):
    """Every field optional; a wrong value is said next to its field and that filter is
    left out (the list still shows), never a 500."""

    q = forms.CharField(label=gettext_lazy("Search"), required=False, max_length=100)
    club = forms.SlugField(label=gettext_lazy("Club"), required=False)
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        required=False,
        choices=[("", gettext_lazy("Any format")), *TournamentFormat.choices],
    )
    when = forms.ChoiceField(label=gettext_lazy("When"), required=False, choices=WHEN_CHOICES)
    year = forms.IntegerField(
        label=gettext_lazy("Year"), required=False, min_value=1900, max_value=2999
    )

    def __init__(
        self, *args: Any, clubs: Iterable[Club] = (), years: Iterable[int] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].widget = forms.Select(
            choices=[("", gettext_lazy("Every club")), *((c.slug, c.name) for c in clubs)]
        )
        self.fields["year"].widget = forms.Select(
            choices=[("", gettext_lazy("Any year")), *((y, y) for y in years)]
        )

    def filters(self) -> dict[str, object]:
        """The valid filters as ``selectors_public.event_index`` takes them (a field in
        error is left out)."""
        self.is_valid()
        data = self.cleaned_data
        return {
            "query": data.get("q") or "",
            "club": data.get("club") or "",
            "format": data.get("format") or "",
            "when": data.get("when") or "",
            "year": data.get("year"),
        }
