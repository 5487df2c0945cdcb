"""The "rules of this variant" page: a variant's start drawn, what it allows, a worked
turn from the start, and where its rules come from (``docs/rules.md`` has a section per
variant). Event and match pages link here for any game other than the English one.

It lives beside the analysis boards because it draws with them
(:func:`analysis.board_svg.board_svg`), given the variant's own way of facing the two
sides (``Variant.opposing_point``). The legal plays are the engine's
(:mod:`games.rules.variants`), the same the variants API answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET

from games.rules import variants
from games.rules.variants.base import Complementary, Contact, Direction, Variant
from games.rules.variants.engine import format_steps
from games.rules.variants.position import VariantPosition
from games.rules.variants.throws import Next, Throw, legal_plays
from games.variant_names import variant_name

from .board_svg import board_svg

DIRECTIONS = {
    Direction.OPPOSITE: gettext_lazy("The sides move in opposite directions."),
    Direction.SAME: gettext_lazy("Both sides enter in the same table and move the same way."),
    Direction.SAME_FROM_OPPOSITE_CORNERS: gettext_lazy(
        "Both sides move the same way round, from diagonally opposite corners."
    ),
}
CONTACTS = {
    Contact.HIT: gettext_lazy("A lone man is hit and goes to the bar."),
    Contact.PIN: gettext_lazy("A lone man is pinned under the opponent's, not hit."),
    Contact.BLOCKED: gettext_lazy("One man holds a point; there is no hitting."),
}
FOLLOWS = {
    Next.TURN_OVER: gettext_lazy("then the turn passes"),
    Next.COMPLEMENTARY: gettext_lazy("then the complementary doublets are played"),
    Next.CHOOSE_DOUBLETS: gettext_lazy("then the caster names any doublets and plays them"),
    Next.THROW_AGAIN: gettext_lazy("then the caster throws again"),
    Next.OPPONENT_FINISHES: gettext_lazy("then the opponent finishes the throw"),
    Next.GAME_OVER: gettext_lazy("and the game is over"),
}
LEVELS = {
    "single": gettext_lazy("single"),
    "gammon": gettext_lazy("gammon"),
    "backgammon": gettext_lazy("backgammon"),
}


@dataclass(frozen=True)
class WorkedTurn:
    dice: str
    count: int
    play: str
    follows: str
    svg: SafeString


@dataclass(frozen=True)
class VariantRules:
    key: str
    name: str
    variant: Variant
    start: SafeString
    facts: list[str]
    levels: str
    turn: WorkedTurn | None
    numbers: str = ""  # in a rotation: the numbers of the games played as it


def _draw(variant: Variant, position: VariantPosition, heading: str) -> SafeString:
    return mark_safe(
        board_svg(
            position.me,
            position.opp,
            opposing=variant.opposing_point,
            heading=heading,
            title=heading,
        )
    )


def _facts(variant: Variant) -> list[str]:
    facts = [
        gettext("%(n)s men a side.") % {"n": variant.checkers},
        str(DIRECTIONS[variant.direction]),
        str(CONTACTS[variant.contact]),
    ]
    if variant.start_off_board:
        facts.append(gettext("All men start off the board and are entered."))
    if variant.doublets.one_two:
        facts.append(gettext("A 1-2 names any doublets, played after it, then a further throw."))
    # Compulsory is a rule of the game, not a choice (Cady 1895, Russian: "not only
    # entitled to, but bound to use ... the complimentary ones"); only a house option
    # is a "may" (issue 41: the Russian page said "may").
    complementary = variant.doublets.complementary
    if complementary is Complementary.COMPULSORY:
        facts.append(
            gettext(
                "Doublets are played four times and must then be followed by the "
                "complementary doublets (6-6, then 1-1; 5-5, then 2-2; 4-4, then 3-3)."
            )
        )
        if variant.doublets.first_doublets_plain:
            facts.append(
                gettext(
                    "Except a player's first doublets of the game: they are played "
                    "alone, without the complementary doublets or a further throw."
                )
            )
    elif complementary is Complementary.BY_AGREEMENT:
        facts.append(
            gettext(
                "Complementary doublets only by agreement: a house option, off unless "
                "the players choose it."
            )
        )
    if variant.no_prime_unless_passed:
        facts.append(
            gettext("No six points in a row may be held in front of all the opponent's men.")
        )
    if variant.doublets.extra_throw:
        facts.append(gettext("After doublets the caster throws again."))
    facts.append(
        gettext("Doubling cube: yes; Crawford rule: %(crawford)s.")
        % {"crawford": gettext("yes") if variant.crawford else gettext("no")}
        if variant.cube
        else gettext("No doubling cube (so no Crawford or Jacoby rule).")
    )
    return facts


def _worked_turn(variant: Variant) -> WorkedTurn | None:
    """The plays of one throw from the start: 2-1 where it names doublets, else 3-1."""
    dice = (2, 1) if variant.doublets.one_two else (3, 1)
    start = VariantPosition.start(variant)
    result = legal_plays(variant, start, Throw(dice=dice))
    plays = sorted(result.plays, key=lambda p: format_steps(p.steps))
    if not plays or not plays[0].steps:
        return None
    play = format_steps(plays[0].steps)
    label = f"{dice[0]}-{dice[1]}: {play}"
    return WorkedTurn(
        dice=f"{dice[0]}-{dice[1]}",
        count=len(plays),
        play=play,
        follows=str(FOLLOWS[result.next]),
        svg=_draw(variant, plays[0].after, label),
    )


def rules_of(key: str, variant: Variant, numbers: str = "") -> VariantRules:
    name = variant_name(key)
    return VariantRules(
        numbers=numbers,
        key=key,
        name=name,
        variant=variant,
        start=_draw(variant, VariantPosition.start(variant), gettext("The start")),
        facts=_facts(variant),
        levels=", ".join(
            f"{LEVELS[level.value]} {points}" for level, points in variant.levels.items()
        ),
        turn=_worked_turn(variant),
    )


@require_GET
def variant_rules(request: HttpRequest, key: str) -> HttpResponse:
    """``/variants/<key>/``: one variant, or each game of a rotation (tavli) in turn."""
    if variants.is_rotation(key):
        rotation = variants.ROTATIONS[key].games
        step = len(rotation)
        games = [
            rules_of(v.key, v, ", ".join(str(i + 1 + step * k) for k in range(3)))
            for i, v in enumerate(rotation)
        ]
    elif key in variants.REGISTRY:
        games = [rules_of(key, variants.REGISTRY[key])]
    else:
        raise Http404
    return render(
        request,
        "analysis/variant_rules.html",
        {"name": variant_name(key), "key": key, "games": games, "rotation": len(games) > 1},
    )


@require_GET
def variant_index(request: HttpRequest) -> HttpResponse:
    """``/variants/``: every variant and rotation a match may be played as, each with its
    rules page and its legal-plays API (issue 41: the address answered 404, though each
    rules page says "/variants/<key>/")."""
    rows = [
        {
            "key": key,
            "name": variant_name(key),
            "url": reverse("variant-rules", args=[key]),
            # a rotation's games each have their own plays (tavli: portes, plakoto, fevga)
            "plays": [
                reverse("api:variant-plays", args=[v.key])
                for v in (
                    variants.ROTATIONS[key].games
                    if variants.is_rotation(key)
                    else [variants.REGISTRY[key]]
                )
            ],
        }
        for key, _ in variants.match_choices()
    ]
    return render(request, "analysis/variant_index.html", {"rows": rows})
