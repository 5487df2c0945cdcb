"""Django validators for the rules of ``core.text`` (model fields, forms, serializers)."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from core import text


def single_line(value: str) -> None:
    """A name or title is one line: no control characters (``core.text``)."""
    if text.has_control_characters(value):
        raise ValidationError(str(text.MESSAGE), code=text.CODE)  # in the active language
