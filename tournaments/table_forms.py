"""The forms of the room page and of an event's reserved tables.

Field-level bounds only (a whole number from 1 to ``limits.MAX_TABLE``); the rules that
read other rows (a range another event holds, a room smaller than a reservation) are
the service's, and the page puts its refusal next to the field it names.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from core.validators import single_line
from games.rules import limits

_TABLE_ERRORS = {
    "min_value": gettext_lazy("Tables are numbered from 1."),
    "max_value": gettext_lazy("Tables are numbered up to %(limit_value)s."),
    "invalid": gettext_lazy("A table is a whole number."),
}


def _table_field(label: Any, help_text: Any = "") -> forms.IntegerField:
    """A table number field (``label``, ``help_text``: lazy translations)."""
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=1,
        max_value=limits.MAX_TABLE,
        help_text=help_text,
        error_messages=_TABLE_ERRORS,
    )


class RoomForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name of the room"),
        required=False,
        max_length=limits.MAX_LABEL,
        validators=[single_line],
        help_text=gettext_lazy("Optional, e.g. the venue's name."),
    )
    tables = _table_field(
        gettext_lazy("Number of tables"),
        gettext_lazy(
            "Every event of the club takes its table numbers from this room; blank: no limit."
        ),
    )


class TableRangeForm(forms.Form):
    table_first = _table_field(gettext_lazy("First table"))
    table_last = _table_field(
        gettext_lazy("Last table"),
        gettext_lazy("Both blank: no reservation (the event takes the shared tables)."),
    )
