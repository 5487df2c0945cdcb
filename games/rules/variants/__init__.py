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
from .rotations import ROTATIONS, Rotation
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
    "MATCH_CHOICES",
    "NACKGAMMON",
    "PLAKOTO",
    "PORTES",
    "REGISTRY",
    "ROTATIONS",
    "RUSSIAN",
    "STANDARD",
    "TAVLA",
    "TURKISH",
    "Rotation",
    "Variant",
    "all_variants",
    "for_match",
    "game_variant",
    "get",
    "is_known",
    "is_rotation",
    "match_choices",
    "match_equity_applies",
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


def is_rotation(key: str) -> bool:
    """Is ``key`` a rotation (tavli) rather than one variant?"""
    return key in ROTATIONS


def for_match(key: str) -> Variant:
    """The rules a match of ``key`` is scored by: the variant itself, or for a rotation
    its first game (the games of a rotation score alike). Unknown keys are refused."""
    if key in ROTATIONS:
        return ROTATIONS[key].games[0]
    return get(key)


def game_variant(key: str, number: int) -> Variant:
    """The variant game ``number`` of a match of ``key`` is played as."""
    if key in ROTATIONS:
        return ROTATIONS[key].game(number)
    return get(key)


def match_choices() -> list[tuple[str, str]]:
    """What a match, an event or a rating list may be played as: every registered
    variant, then the rotations."""
    return [(v.key, v.name) for v in all_variants()] + [(r.key, r.name) for r in ROTATIONS.values()]


#: Every key a match, an event or a rating list may carry (the API's ``VariantEnum``).
MATCH_CHOICES: list[tuple[str, str]] = match_choices()


def is_known(key: str) -> bool:
    return key in REGISTRY or key in ROTATIONS


def match_equity_applies(key: str) -> bool:
    """A match equity table exists for the English game and nackgammon (same cube, same
    gammons); every other variant's chances come from the rating formula alone."""
    return key in (STANDARD.key, NACKGAMMON.key)
