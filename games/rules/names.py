"""How a typed name is compared with the names already on a club's roster.

A director pasting a list types "ann smith" or "Ann Smíth" for the player the club
knows as "Ann Smith": matching ignores case, accents and runs of spaces, and nothing
else (no fuzzy matching: a near miss is a new player, which the preview shows before
anything is written). Pure Python.
"""

from __future__ import annotations

import unicodedata


def clean_name(name: str) -> str:
    """The name as it will be stored: trimmed, inner runs of spaces made single."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """The comparison key: no accents, case-folded, single spaces."""
    decomposed = unicodedata.normalize("NFKD", clean_name(name))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold()
