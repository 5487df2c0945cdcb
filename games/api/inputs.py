"""Reading input that does not pass through a plain serializer field.

Serializer ``CharField``s already refuse NUL characters and over-long text. Text
also reaches the database through slug lookups (``SlugRelatedField`` queries
before its validators run), query parameters and hand-read bodies; PostgreSQL
refuses a NUL in any text value, so each of those doors checks here first and
answers a 400 naming the field.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request

from games.rules.limits import MAX_CLUB_SLUG

NUL = "\x00"
ID_PATTERN = r"[0-9]{1,18}"
"""An id in a path (``lookup_value_regex``): anything else is a 404, not a query."""
SLUG_PATTERN = r"[-a-zA-Z0-9_]+"
"""A slug in a path, as Django's ``<slug:...>`` converter reads it."""


def refuse_nul(value: str, field: str) -> str:
    """``value`` unchanged, or a 400 naming ``field`` when it holds a NUL character."""
    if NUL in value:
        raise serializers.ValidationError(
            {field: ["Null characters are not allowed."]}, code="null_characters_not_allowed"
        )
    return value


def query_text(request: Request, name: str, *, max_length: int = 200) -> str | None:
    """A text query parameter, checked: no NUL, at most ``max_length`` characters."""
    value = request.query_params.get(name)
    if value is None:
        return None
    refuse_nul(value, name)
    if len(value) > max_length:
        raise serializers.ValidationError(
            {name: [f"Ensure this value has at most {max_length} characters."]},
            code="max_length",
        )
    return value


def require_object(data: Any) -> dict[str, Any]:
    """The request body as a JSON object; any other JSON value is a 400."""
    if not isinstance(data, dict):
        raise serializers.ValidationError(
            {"body": [f"The body must be a JSON object, not {type(data).__name__}."]},
            code="not_an_object",
        )
    return data


@extend_schema_field({"type": "string", "maxLength": MAX_CLUB_SLUG, "pattern": "^[-a-zA-Z0-9_]+$"})
class ClubRef(serializers.SlugRelatedField):
    """A club by its slug: the text is checked before it becomes a query."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("slug_field", "slug")
        if not kwargs.get("read_only"):
            kwargs.setdefault("queryset", _clubs())
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            if NUL in data:
                raise serializers.ValidationError(
                    gettext_lazy("Null characters are not allowed."),
                    code="null_characters_not_allowed",
                )
            if len(data) > MAX_CLUB_SLUG:
                self.fail("does_not_exist", slug_name=self.slug_field, value=data[:40])
        return super().to_internal_value(data)


def _clubs() -> Any:
    from games.models import Club

    return Club.objects.all()
