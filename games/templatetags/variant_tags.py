"""The variants on the games pages: a variant's name in the reader's language, and in a
rotation (tavli) the game each game of the match was (portes, plakoto or fevga)."""

from __future__ import annotations

from django import template

from games.rules import variants
from games.variant_names import variant_name

register = template.Library()


@register.filter
def variant_label(key: str) -> str:
    return variant_name(key)


@register.filter
def game_variant(key: str, number: int) -> str:
    """The name of the variant game ``number`` of a ``key`` match was played as; empty
    unless ``key`` is a rotation (a match of one variant needs no name per game)."""
    if not variants.is_rotation(key):
        return ""
    return variant_name(variants.game_variant(key, int(number)).key)
