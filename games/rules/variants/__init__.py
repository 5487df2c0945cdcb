"""The variant registry: every game of the backgammon family Boxcars knows, in one place.

Each entry is a :class:`~.base.Variant` declared in its own module; this module lists
them. Callers ask :func:`get` for a key (``standard`` is the default everywhere) and
the engine (:func:`~.throws.legal_plays`) for the legal plays of any entry. Adding a
variant: a module declaring it, a line in :data:`REGISTRY`, its section in
``docs/rules.md`` and its tests under ``tests/games/rules/variants/``.
"""

from __future__ import annotations

from core.errors import N_

from ..errors import RuleViolation
from .acey_deucey import ACEY_DEUCEY
from .base import Variant
from .hypergammon import HYPERGAMMON_1, HYPERGAMMON_2, HYPERGAMMON_3
from .nackgammon import NACKGAMMON
from .russian import RUSSIAN
from .standard import STANDARD
from .tavla import TAVLA
from .tavli import FEVGA, PLAKOTO, PORTES
from .turkish import TURKISH

__all__ = [
    "ACEY_DEUCEY",
    "DEFAULT",
    "FEVGA",
    "HYPERGAMMON_1",
    "HYPERGAMMON_2",
    "HYPERGAMMON_3",
    "NACKGAMMON",
    "PLAKOTO",
    "PORTES",
    "REGISTRY",
    "RUSSIAN",
    "STANDARD",
    "TAVLA",
    "TURKISH",
    "Variant",
    "all_variants",
    "get",
]

DEFAULT = STANDARD.key

REGISTRY: dict[str, Variant] = {
    v.key: v
    for v in (
        STANDARD,
        NACKGAMMON,
        HYPERGAMMON_1,
        HYPERGAMMON_2,
        HYPERGAMMON_3,
        RUSSIAN,
        TURKISH,
        ACEY_DEUCEY,
        PORTES,
        PLAKOTO,
        FEVGA,
        TAVLA,
    )
}


def get(key: str) -> Variant:
    """The variant registered under ``key``; ``unknown_variant`` otherwise."""
    try:
        return REGISTRY[key]
    except KeyError:
        raise RuleViolation(
            "unknown_variant", N_("There is no variant %(key)s.", key=key), "variant"
        ) from None


def all_variants() -> list[Variant]:
    return list(REGISTRY.values())
