"""Serializer fields every app's API shares."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.numbers import is_ascii_number


class AsciiDecimalField(serializers.DecimalField):
    """DRF's ``DecimalField``, refusing digits other than ASCII (``"١٢"``: 400).

    A JSON number is ASCII by construction; a string is checked before DRF hands it to
    :class:`~decimal.Decimal`, which would read any script's digits (``core.numbers``).
    """

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and data.strip() and not is_ascii_number(data):
            # DRF's own (translated) words, with a code that says which rule
            raise serializers.ValidationError(
                self.error_messages["invalid"], code="ascii_digits_only"
            )
        return super().to_internal_value(data)
