"""``{{ label|mid_sentence }}``: a translated label inside a sentence, lower-cased only
in languages that do not capitalise nouns (``core.wording``); use it, not ``|lower``,
on anything that went through the catalogs."""

from __future__ import annotations

from django import template

from core.wording import mid_sentence as _mid_sentence

register = template.Library()


@register.filter
def mid_sentence(text: object) -> str:
    return _mid_sentence(text)
