"""Cleaning names: the data migrations' cleaning of names stored before they were
checked (``core.text``), and the normalising and look-alike keys of new club names.

Each app's migration runs :func:`clean_names` over its own name fields: a row whose
name holds a control character gets :func:`core.text.one_line` of it (each such
character a space, whitespace runs single), so the rows the rule now refuses no longer
exist. Only the rows that need it are read (a ``__regex`` filter) and each is written
with one ``UPDATE``; the audit history keeps what was stored then.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from core.text import CONTROL_PATTERN, one_line

#: What a name made only of control characters becomes (a name is never blank).
NO_NAME = "(no name)"


def clean_names(
    app_label: str, fields: Iterable[tuple[str, str, bool]]
) -> Callable[[Any, Any], None]:
    """A ``RunPython`` function cleaning ``(model, field, may_be_blank)`` of ``app_label``."""
    fields = tuple(fields)

    def clean(apps: Any, schema_editor: Any) -> None:
        for model_name, field, may_be_blank in fields:
            model = apps.get_model(app_label, model_name)
            dirty = model.objects.filter(**{f"{field}__regex": CONTROL_PATTERN})
            for pk, value in dirty.values_list("pk", field).iterator():
                cleaned = one_line(value) or ("" if may_be_blank else NO_NAME)
                model.objects.filter(pk=pk).update(**{field: cleaned})

    return clean


# --- A new name, as a club's name is stored and compared (issue #37, item 7) -----------
#
# A name is shown to strangers (a club list, an invitation's subject), so it must read as
# what it is: NFKC folds the compatibility forms (fullwidth letters, ligatures, "ℌ"), and
# the invisible format characters (category Cf: zero-width spaces and joiners, the bidi
# embeddings, overrides and isolates that reorder what the reader sees) are removed. A
# name made only of those is empty, and refused by the service. Pure Python.

#: Invisible characters a name loses: Unicode's format characters (Cf).
INVISIBLE_CATEGORY = "Cf"


def normalised_name(text: str) -> str:
    """``text`` NFKC-normalised, without format characters, whitespace runs single."""
    folded = unicodedata.normalize("NFKC", text)
    visible = "".join(c for c in folded if unicodedata.category(c) != INVISIBLE_CATEGORY)
    return " ".join(visible.split())


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's representative of its class (the lowest code point).

    The classes are Unicode's confusables (TR39's ``confusables.txt``) as the
    ``confusable-homoglyphs`` package ships them: each character with the characters
    that look like it, in both directions, so a class is a connected set and any one
    member can stand for it. Only single-character confusables are used (``rn`` for
    ``m`` is not)."""
    from confusable_homoglyphs import confusables

    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    for char, alikes in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for alike in alikes:
            other = alike["c"]
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {char: find(char) for char in parent} | {root: root for root in set(parent.values())}


def skeleton(text: str) -> str:
    """What a name looks like, for comparing names (UTS #39's *skeleton*).

    Two names with the same skeleton read alike: ``Аlpha`` (a Cyrillic А) and ``Alpha``,
    ``Nordic 0pen`` and ``Nordic Open``, ``Alpha`` and ``Alpha\\u200b``. The name is
    normalised (:func:`normalised_name`), decomposed (NFD), each character replaced by
    its confusable class's representative (:func:`_prototypes`), and decomposed again.
    """
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", normalised_name(text))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


def look_alike_keys(text: str) -> frozenset[str]:
    """The keys two names that read alike share one of: the skeleton of the name as
    typed and of the name case-folded (``alpha`` and ``ALPHA`` confuse a reader as
    well; UTS #39 compares case as typed only)."""
    return frozenset({skeleton(text), skeleton(normalised_name(text).casefold())})
