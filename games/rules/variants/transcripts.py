"""A variant's name in ``.mat`` transcripts: the ``; [Variation "..."]`` tag.

GNU Backgammon writes ``Backgammon``, ``NackGammon`` and ``HyperGammon (n)`` (checked
with its 1.07 ``export match mat``; ``tests/games/rules/variants/gnubg_hypergammon.py``)
and its importer also takes ``HyperGammon n`` (docs/transcripts-format.md, 1.1); we
write gnubg's spelling and read both. The other variants have no gnubg name: ours is
``Boxcars <key>`` (e.g. ``Boxcars acey-deucey``), documented in docs/transcripts.md.

The move-by-move replay (:mod:`games.rules.replay`) checks the variants that play the
English moves (hits, opposite directions, the bar first) and differ only in their start
and their number of men (:data:`REPLAYED`): the English game, nackgammon and hypergammon
1-3. Hypergammon's plays are also confirmed by the registry's engine
(:data:`ENGINE_CONFIRMED`). Every other variant, and the tavli rotation
(``Boxcars tavli``: game *k* is played as the rotation's *k*-th game), is replayed by
:mod:`games.rules.variant_replay` with the registry's engine alone, a throw in stages.
House options that change the moves are named by a ``; [HouseRules "..."]`` tag
(:func:`transcript_game`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import N_

from ..errors import RuleViolation
from . import REGISTRY, ROTATIONS, Variant
from .base import CUBE, OPPONENT_FINISHES

#: Variants whose transcripts the replay checks move by move.
REPLAYED = frozenset({"standard", "nackgammon", "hypergammon-1", "hypergammon-2", "hypergammon-3"})

#: Variants whose every written play must also be one the registry's engine
#: (:func:`games.rules.variants.engine.stage_plays`) lists for the roll: cheap with three
#: men or fewer. The English game and nackgammon keep the replay's fast path alone, which
#: ``tests/games/rules/variants/test_engine_properties.py`` holds to the engine's answers.
ENGINE_CONFIRMED = frozenset({"hypergammon-1", "hypergammon-2", "hypergammon-3"})

_HYPER = re.compile(r"hypergammon\s*\(?\s*([123])\s*\)?$")


def variation_name(variant: Variant) -> str:
    """The ``Variation`` tag written for ``variant``."""
    return variant.gnubg_variation or f"Boxcars {variant.key}"


def variation_name_of(key: str) -> str:
    """The ``Variation`` tag of a match's variant key: a registered variant's name, or
    ``Boxcars tavli`` for a rotation (its games are told apart by their number)."""
    if key in REGISTRY:
        return variation_name(REGISTRY[key])
    return f"Boxcars {key}"


def variant_of_variation(name: str | None) -> Variant:
    """The variant a ``Variation`` tag names (no tag: the English game)."""
    text = (name or "Backgammon").strip().lower()
    if text in ("backgammon", "standard"):
        return REGISTRY["standard"]
    if text == "nackgammon":
        return REGISTRY["nackgammon"]
    hyper = _HYPER.match(text)
    if hyper:
        return REGISTRY[f"hypergammon-{hyper.group(1)}"]
    if text.startswith("boxcars ") and text[8:] in REGISTRY:
        return REGISTRY[text[8:]]
    raise _unknown(name)


def _unknown(name: str | None) -> RuleViolation:
    return RuleViolation(
        "unknown_variation",
        N_("The transcript's Variation %(name)r is not a variant we know.", name=name),
        "Variation",
    )


#: The tag naming the house options a transcript's games were played with.
HOUSE_RULES = "HouseRules"

#: House options a transcript cannot record: the opponent's finishing of a throw has no
#: cell of its own, and a match's score sheet keeps no cube for a variant without one.
NOT_TRANSCRIBED = frozenset({OPPONENT_FINISHES, CUBE})


@dataclass(frozen=True, slots=True)
class TranscriptGame:
    """What a transcript's games are played as: one variant, or a rotation's games in
    turn (``games[(k - 1) % len(games)]`` for game *k*), with its house options set."""

    key: str
    games: tuple[Variant, ...]

    def game(self, number: int) -> Variant:
        return self.games[(number - 1) % len(self.games)]

    @property
    def english_moves(self) -> bool:
        """Replayed by the English game's replay (:data:`REPLAYED`)?"""
        return self.key in REPLAYED


def transcript_game(metadata: Mapping[str, str]) -> TranscriptGame:
    """The game a transcript's ``Variation`` and ``HouseRules`` tags name.

    ``HouseRules`` lists option keys (``complementary_doublets`` for European
    acey-deucey or Cady's Turkish game by agreement), separated by commas or blanks; an
    option the variant does not have is ``unknown_option``, one no transcript can record
    (:data:`NOT_TRANSCRIBED`) ``house_rule_not_transcribed``."""
    name = metadata.get("Variation")
    text = (name or "").strip().lower()
    if text.startswith("boxcars ") and text[8:] in ROTATIONS:
        key, games = text[8:], ROTATIONS[text[8:]].games
    else:
        variant = variant_of_variation(name)
        key, games = variant.key, (variant,)
    chosen = [w for w in re.split(r"[\s,]+", metadata.get(HOUSE_RULES, "").strip()) if w]
    for option in chosen:
        if option in NOT_TRANSCRIBED:
            raise RuleViolation(
                "house_rule_not_transcribed",
                N_("A transcript cannot record the house rule %(option)s.", option=option),
                HOUSE_RULES,
            )
    options = dict.fromkeys(chosen, True)
    return TranscriptGame(key, tuple(g.configured(options) for g in games))


def with_variation(text: str, key: str) -> str:
    """``text`` with the ``Variation`` tag of the match's variant ``key`` in front, unless
    it has one (or the variant is the English game): GNU Backgammon's ``import mat``
    sets its variation from that tag, so a nackgammon or hypergammon match is analysed
    from its own start."""
    if key == "standard" or "[Variation " in text:
        return text
    return f'; [Variation "{variation_name_of(key)}"]\n' + text
