"""Words put inside a sentence in the reader's language.

English, French and Danish write a label lower-case mid-sentence ("clocks required
from the quarter-finals"); German capitalises every noun, so lower-casing a German
label ("Uhren verlangt ab Viertelfinale") writes it wrong (issue #41, item 9). Code and
templates that used ``.lower()`` / ``|lower`` on a translated label use
:func:`mid_sentence` instead.
"""

from __future__ import annotations

from django.utils.translation import get_language

NOUNS_CAPITALISED = frozenset({"de"})
"""Languages whose nouns keep their capital inside a sentence."""


def mid_sentence(text: object) -> str:
    """``text`` as it reads inside a sentence of the active language: lower-cased,
    except in a language that capitalises its nouns, where it is left as written."""
    words = str(text)
    language = (get_language() or "en").split("-")[0].lower()
    return words if language in NOUNS_CAPITALISED else words.lower()
