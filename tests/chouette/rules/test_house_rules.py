"""House rules: defaults, profiles and refused options (docs/rules.md, "The chouette")."""

import pytest

from chouette.rules import BoxRetention, ChouetteRules, Consultation, CubeMode, PartnerChoice
from games.rules.errors import RuleViolation
from games.rules.money import MoneyRules


def test_modern_is_the_default():
    rules = ChouetteRules.modern()
    assert rules == ChouetteRules()
    assert rules.cubes is CubeMode.MULTIPLE
    assert rules.money.jacoby and rules.money.beavers and not rules.money.raccoons
    assert rules.box_retention is BoxRetention.BEAT_CAPTAIN
    assert rules.partner_threshold is None
    assert not rules.captain_takeover
    assert not rules.allow_starting_cube


def test_thorne_1930_profile():
    # Thorne: "The team may consult as to plays and doubling" -- one cube, the
    # Captain "takes over his position", no Jacoby or beavers (not yet invented).
    rules = ChouetteRules.thorne_1930()
    assert rules.cubes is CubeMode.SINGLE
    assert rules.captain_takeover
    assert rules.consultation is Consultation.FREE
    assert not rules.money.jacoby and not rules.money.beavers
    assert not rules.money.philadelphia
    assert ChouetteRules.thorne_1930(philadelphia=True).money.philadelphia


def test_modern_overrides():
    rules = ChouetteRules.modern(partner_threshold=6, box_retention="net_win")
    assert rules.partner_threshold == 6
    assert rules.box_retention is BoxRetention.NET_WIN


@pytest.mark.parametrize("threshold", [0, 1, 2, 3, -6, True, "6"])
def test_partner_threshold_below_four_refused(threshold):
    with pytest.raises(RuleViolation) as error:
        ChouetteRules(partner_threshold=threshold)
    assert error.value.code == "partner_threshold"


@pytest.mark.parametrize("threshold", [4, 6, 7, None])
def test_partner_threshold_accepted(threshold):
    assert ChouetteRules(partner_threshold=threshold).partner_threshold == threshold


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("cubes", "two"),
        ("partner_choice", "top"),
        ("box_retention", "forever"),
        ("consultation", "shouting"),
    ],
)
def test_unknown_option_values_refused(name, value):
    with pytest.raises(RuleViolation) as error:
        ChouetteRules(**{name: value})
    assert error.value.code == f"invalid_{name}"
    assert error.value.field == name


def test_string_options_are_normalised():
    rules = ChouetteRules(cubes="single", partner_choice="given", consultation="none")  # type: ignore[arg-type]
    assert rules.cubes is CubeMode.SINGLE
    assert rules.partner_choice is PartnerChoice.GIVEN
    assert rules.consultation is Consultation.NONE


def test_money_must_be_money_rules():
    with pytest.raises(RuleViolation) as error:
        ChouetteRules(money={"jacoby": True})  # type: ignore[arg-type]  # deliberately wrong
    assert error.value.code == "invalid_money_rules"


def test_money_rules_validation_is_shared():
    with pytest.raises(RuleViolation):
        ChouetteRules(money=MoneyRules(backgammon_value=5))
