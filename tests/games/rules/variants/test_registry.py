"""The registry's entries and the checks a position must pass before any play."""

from __future__ import annotations

import pytest

from games.rules.errors import RuleViolation
from games.rules.variants import REGISTRY, STANDARD, get
from games.rules.variants.base import SLOTS
from games.rules.variants.position import VariantPosition, validate

from .helpers import pos, side


def test_every_entry_is_registered_once_with_its_sources() -> None:
    assert list(REGISTRY) == [
        "standard",
        "nackgammon",
        "hypergammon-1",
        "hypergammon-2",
        "hypergammon-3",
        "russian",
        "turkish",
        "acey-deucey",
        "portes",
        "plakoto",
        "fevga",
        "tavla",
    ]
    for variant in REGISTRY.values():
        assert variant.sources and variant.name and variant.summary
        assert sum(variant.start_side()) == variant.checkers
        assert len(variant.start_side()) == SLOTS


def test_checkers_per_side() -> None:
    assert [get(f"hypergammon-{n}").checkers for n in (1, 2, 3)] == [1, 2, 3]
    assert get("nackgammon").start_side()[23] == 2
    assert all(REGISTRY[k].checkers == 15 for k in REGISTRY if not k.startswith("hyper"))


def test_match_rules_per_variant() -> None:
    for key in ("standard", "nackgammon", "hypergammon-3"):
        assert get(key).cube and get(key).crawford
    for key in ("portes", "plakoto", "fevga", "tavla", "acey-deucey", "russian", "turkish"):
        assert not get(key).cube and not get(key).crawford
    assert get("acey-deucey").configured({"cube": True}).cube


def test_unknown_variant_and_option_are_refused() -> None:
    with pytest.raises(RuleViolation) as err:
        get("chess")
    assert (err.value.code, err.value.field) == ("unknown_variant", "variant")
    with pytest.raises(RuleViolation) as err:
        STANDARD.configured({"opponent_finishes": True})
    assert (err.value.code, err.value.field) == ("unknown_option", "options")


def test_wrong_counts_are_named() -> None:
    short = pos(side({24: 2}, n=14), side({24: 2}))
    with pytest.raises(RuleViolation) as err:
        validate(STANDARD, short)
    assert err.value.code == "bad_position" and err.value.field == "mover"
    assert "14 checkers" in err.value.message
    validate(get("hypergammon-2"), pos(side({24: 1, 23: 1}, n=2), side({24: 1, 23: 1}, n=2)))


def test_both_sides_on_a_point_is_refused_except_a_pin() -> None:
    shared = pos(side({24: 2, 6: 13}), side({19: 1, 6: 14}))  # his 19 is our 6
    with pytest.raises(RuleViolation) as err:
        validate(STANDARD, shared)
    assert "point 6" in err.value.message
    pinned = pos(side({24: 14, 6: 1}), side({19: 1, 24: 14}), me_pinned={6})
    validate(get("plakoto"), pinned)
    with pytest.raises(RuleViolation):
        validate(STANDARD, pinned)


def test_men_not_yet_entered_only_where_the_board_starts_empty() -> None:
    waiting = pos(side({24: 1}, unentered=1), side({24: 2}))
    with pytest.raises(RuleViolation) as err:
        validate(STANDARD, waiting)
    assert err.value.field == "mover.not_entered"
    validate(get("acey-deucey"), VariantPosition.start(get("acey-deucey")))


def test_a_pinned_man_lies_alone_under_the_other_side() -> None:
    plakoto = get("plakoto")
    nobody_on_top = pos(side({24: 14, 6: 1}), side({24: 15}), me_pinned={6})
    with pytest.raises(RuleViolation) as err:
        validate(plakoto, nobody_on_top)
    assert err.value.field == "mover.pinned"
    two_pinned = pos(side({24: 13, 6: 2}), side({19: 1, 24: 14}), me_pinned={6})
    with pytest.raises(RuleViolation):
        validate(plakoto, two_pinned)
