"""The pages' form fields of the declared tournament options (``tournaments.options``).

The create page (``tournaments.forms``) and the settings page
(``tournaments.event_settings_form``) build their option fields here from the one
declaration, so a field's label, help, bounds and starting value are the API's and
the service's. The forms only read the text: a list kind is one text field
(``"1, 2"``), which the form turns into the list the service takes.
"""

from __future__ import annotations

from typing import Any

from django import forms

from core.validators import single_line
from tournaments.options import LIST_KINDS, OptionKind, TournamentOption

#: The width of a list option's text field ("1, 2", "main, consolation:2").
LIST_TEXT_LENGTH = 200


def page_field(option: TournamentOption) -> forms.Field:
    """The form field of ``option``."""
    common: dict[str, Any] = {
        "label": option.label,
        "required": option.required,
        "help_text": option.help or "",
    }
    if option.initial is not None:
        common["initial"] = option.initial
    kind = option.kind
    if kind == OptionKind.TEXT:
        return forms.CharField(max_length=option.max_length, validators=[single_line], **common)
    if kind == OptionKind.DATE:
        return forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), **common)
    if kind == OptionKind.BOOL:
        return forms.BooleanField(**common)
    if kind == OptionKind.INT:
        return forms.IntegerField(min_value=option.minimum, max_value=option.maximum, **common)
    if kind == OptionKind.CHOICE:
        choices = option.page_choices or option.choices
        assert choices is not None  # TournamentOption checks it
        return forms.ChoiceField(choices=choices, **common)
    if kind in LIST_KINDS:
        return forms.CharField(max_length=LIST_TEXT_LENGTH, **common)
    raise ValueError(f"{option.name}: a {kind} option has no field of its own on a page")


def add_page_fields(form: forms.BaseForm, options: tuple[TournamentOption, ...]) -> None:
    """Give ``form`` a field per option (each named as the option)."""
    for option in options:
        form.fields[option.name] = page_field(option)
