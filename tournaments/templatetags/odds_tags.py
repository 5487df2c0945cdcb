"""Template filters for the event odds shown on the standings, bracket and big screen."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def win_chance_of(chances: dict[int, str] | None, entry_id: int | None) -> str:
    """An entry's chance to win as shown ("37%"), "" without odds.

    ``{{ win_chances|win_chance_of:e.pk }}``
    """
    if not chances or entry_id is None:
        return ""
    return chances.get(entry_id, "")
