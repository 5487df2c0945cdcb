"""The variants' names as the pages say them, in the reader's language.

The registry (``games.rules.variants``) is pure rules and names each variant in English
for the API and the transcripts; the pages show these translated names instead. A key
missing here falls back to the registry's name, so a new variant shows before its
translation lands.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from games.rules import variants

NAMES: dict[str, Promise] = {
    "standard": pgettext_lazy("variant", "Backgammon"),
    "nackgammon": pgettext_lazy("variant", "Nackgammon"),
    "hypergammon-1": pgettext_lazy("variant", "Hypergammon (1)"),
    "hypergammon-2": pgettext_lazy("variant", "Hypergammon (2)"),
    "hypergammon-3": pgettext_lazy("variant", "Hypergammon (3)"),
    "russian": pgettext_lazy("variant", "Russian backgammon (Cady)"),
    "turkish": pgettext_lazy("variant", "Turkish backgammon (Cady)"),
    "acey-deucey": pgettext_lazy("variant", "Acey-deucey"),
    "portes": pgettext_lazy("variant", "Portes (tavli)"),
    "plakoto": pgettext_lazy("variant", "Plakoto (tavli)"),
    "fevga": pgettext_lazy("variant", "Fevga (tavli)"),
    "tavla": pgettext_lazy("variant", "Tavla"),
    "tavli": pgettext_lazy("variant", "Tavli (portes, plakoto, fevga in rotation)"),
}


def variant_name(key: str) -> str:
    """The page name of a variant (or rotation) key."""
    if key in NAMES:
        return str(NAMES[key])
    return dict(variants.match_choices()).get(key, key)


def choices() -> list[tuple[str, Promise | str]]:
    """Every variant and rotation a match, an event or a list may be, for a form's select."""
    return [(key, NAMES.get(key, name)) for key, name in variants.match_choices()]
