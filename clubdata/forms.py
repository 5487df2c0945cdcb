"""The import form: the file and, optionally, the new club's slug and name."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from games.rules import limits


class ArchiveImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Archive file"),
        help_text=gettext_lazy(
            "The .json file a Boxcars club export wrote (gzip-compressed or not)."
        ),
        error_messages={"required": gettext_lazy("Choose the archive file to import.")},
    )
    slug = forms.SlugField(
        label=gettext_lazy("Slug of the new club (optional)"),
        required=False,
        max_length=limits.MAX_CLUB_SLUG,
        help_text=gettext_lazy("Empty: the slug in the file. It must not be in use on this site."),
    )
    name = forms.CharField(
        label=gettext_lazy("Name of the new club (optional)"),
        required=False,
        max_length=limits.MAX_CLUB_NAME,
    )
