"""A throw in stages: the dice thrown, the complementary doublets, the doublets a 1-2
names, and what comes after each.

Cady's Russian game makes a throw of doublets a sequence: "he throws sixes, therefore
must first play four sixes and then four aces, and in addition he has another throw";
"no player is permitted to play the 'complimentary' doublets until he has completely
used the doublets thrown". Acey-deucey's 1-2 likewise is the 1 and the 2, then the
doublets the caster names, then a further throw. Each stage is played with the
full-use rules of :func:`games.rules.variants.engine.stage_plays`; a stage not played
in full ends the throw ("if he cannot complete it ... he may not throw again"), or, with
Cady's house option, the opponent finishes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from core.errors import N_

from ..errors import RuleViolation
from .base import Complementary, Variant
from .engine import LegalPlay, stage_plays
from .position import VariantPosition, validate
from .scoring import game_result


class Stage(StrEnum):
    ROLL = "roll"  # the dice as thrown
    COMPLEMENTARY = "complementary"  # the doublets on the opposite faces
    CHOSEN = "chosen"  # the doublets a 1-2 named


class Next(StrEnum):
    TURN_OVER = "turn_over"
    COMPLEMENTARY = "complementary"
    CHOOSE_DOUBLETS = "choose_doublets"
    THROW_AGAIN = "throw_again"
    OPPONENT_FINISHES = "opponent_finishes"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Throw:
    """Where a throw stands.

    ``chosen``: the doublets named after a 1-2 (the stage ``chosen``, and the
    ``complementary`` stage that follows them). ``earlier_doublets``: whether the mover
    has thrown doublets before in this game (Cady's first-doublets restriction).
    """

    dice: tuple[int, int]
    stage: Stage = Stage.ROLL
    chosen: int | None = None
    earlier_doublets: bool = False


@dataclass(frozen=True, slots=True)
class StageResult:
    dice: tuple[int, ...]
    plays: list[LegalPlay]
    #: What follows (the same for every play: all use as many dice), unless the play
    #: ends the game (:func:`games.rules.variants.scoring.game_result`).
    next: Next
    unplayed: int


def _bad(message: str, field: str) -> RuleViolation:
    return RuleViolation("bad_throw", message, field)


def _privileged(variant: Variant, throw: Throw) -> bool:
    return not variant.doublets.first_doublets_plain or throw.earlier_doublets


def _one_two(throw: Throw) -> bool:
    return sorted(throw.dice) == [1, 2]


def stage_dice(variant: Variant, throw: Throw) -> tuple[int, ...]:
    """The dice this stage plays, or ``bad_throw`` naming why the stage is not due."""
    d1, d2 = throw.dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise _bad(N_("dice run from 1 to 6"), "dice")
    rules = variant.doublets
    if throw.chosen is not None and not 1 <= throw.chosen <= 6:
        raise _bad(N_("the doublets named run from 1 to 6"), "throw.chosen")
    if throw.stage is Stage.ROLL:
        return (d1,) * 4 if d1 == d2 else (d1, d2)
    if throw.stage is Stage.CHOSEN:
        if not (rules.one_two and _one_two(throw)):
            raise _bad(
                N_("only a 1-2 names doublets in %(variant)s", variant=variant.name),
                "throw.stage",
            )
        if throw.chosen is None:
            raise _bad(N_("name the doublets the 1-2 chooses"), "throw.chosen")
        return (throw.chosen,) * 4
    # complementary
    if throw.chosen is not None:
        if not (rules.one_two_complementary and _one_two(throw)):
            raise _bad(
                N_("named doublets have no complementary in %(variant)s", variant=variant.name),
                "throw.stage",
            )
        return (7 - throw.chosen,) * 4
    if d1 != d2:
        raise _bad(N_("only doublets have complementary doublets"), "throw.stage")
    if rules.complementary is not Complementary.COMPULSORY or not _privileged(variant, throw):
        raise _bad(
            N_(
                "no complementary doublets are due for %(d)s-%(d)s in %(variant)s",
                d=d1,
                variant=variant.name,
            ),
            "throw.stage",
        )
    return (7 - d1,) * 4


def after_full(variant: Variant, throw: Throw) -> Next:
    """What follows a stage played in full."""
    rules = variant.doublets
    doublets = throw.dice[0] == throw.dice[1]
    if throw.stage is Stage.ROLL:
        if rules.one_two and _one_two(throw):
            return Next.CHOOSE_DOUBLETS
        if not doublets or not _privileged(variant, throw):
            return Next.TURN_OVER
        if rules.complementary is Complementary.COMPULSORY:
            return Next.COMPLEMENTARY
        return Next.THROW_AGAIN if rules.extra_throw else Next.TURN_OVER
    if throw.stage is Stage.CHOSEN:
        return Next.COMPLEMENTARY if rules.one_two_complementary else Next.THROW_AGAIN
    if throw.chosen is not None:
        return Next.THROW_AGAIN
    return Next.THROW_AGAIN if rules.extra_throw else Next.TURN_OVER


def legal_plays(variant: Variant, position: VariantPosition, throw: Throw) -> StageResult:
    """The legal plays of this stage of ``throw`` and what follows them."""
    validate(variant, position)
    dice = stage_dice(variant, throw)
    plays = stage_plays(variant, position, dice)
    ended = bool(plays) and all(game_result(variant, p.after) for p in plays)
    used = len(dice) if ended else len(plays[0].steps) if plays else 0
    full = after_full(variant, throw)
    short = Next.OPPONENT_FINISHES if variant.opponent_finishes else Next.TURN_OVER
    if ended:
        full = Next.GAME_OVER
    return StageResult(
        dice=dice,
        plays=plays,
        next=full if used == len(dice) else short,
        unplayed=len(dice) - used,
    )
