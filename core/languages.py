"""The languages a club or a player may choose for what Boxcars sends them.

A page takes its language from the picker's cookie or the browser (docs/languages.md);
an email or a push is written by a worker with no browser, so it takes the recipient's
stored choice instead: the player's own, else their club's.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


def language_codes() -> list[str]:
    """The codes of ``settings.LANGUAGES`` (those with a complete catalog)."""
    return [code for code, _name in settings.LANGUAGES]


def default_language() -> str:
    """The language a new club starts with: the site's ``LANGUAGE_CODE``."""
    return str(settings.LANGUAGE_CODE)


def validate_language(code: str) -> None:
    """One of ``settings.LANGUAGES``: a message in any other would come out in English."""
    if code not in language_codes():
        raise ValidationError(
            _("“%(code)s” is not a language Boxcars speaks (one of %(codes)s)."),
            code="invalid_language",
            params={"code": code, "codes": ", ".join(language_codes())},
        )
