"""The places a preset pays by whatever the prize order: main 1–2, then consolation
1–2, then the rest bracket by bracket (``money.rules.combine_places``)."""

from __future__ import annotations

from money import rules

BLOCKS = {
    "main": [["W"], ["R"], ["S1", "S2"]],
    "consolation": [["C1"], ["C2"], ["C3", "C4"]],
    "last_chance": [["L1"]],
}


def test_main_then_consolation_puts_the_consolation_third_and_fourth():
    steps = rules.COMBINED_PLACES["main_consolation"]
    assert rules.combine_places(BLOCKS, steps) == [
        ["W"],
        ["R"],
        ["C1"],
        ["C2"],
        ["S1", "S2"],
        ["C3", "C4"],
        ["L1"],
    ]


def test_a_shared_place_is_never_cut_in_two():
    # main:3 reaches into the shared 3–4: the whole place is taken, as the prize order does
    assert rules.combine_places(BLOCKS, [("main", 3), ("consolation", 1)])[:4] == [
        ["W"],
        ["R"],
        ["S1", "S2"],
        ["C1"],
    ]


def test_a_missing_bracket_pays_the_places_that_exist():
    places = rules.combine_places({"main": [["W"], ["R"]]}, [("main", 2), ("consolation", 2)])
    assert places == [["W"], ["R"]]


def test_the_consolation_preset_pays_the_consolation_by_those_places():
    places = rules.combine_places(BLOCKS, rules.COMBINED_PLACES["main_consolation"])
    table = rules.PRESETS["main_consolation_45_22_22_11"][1]
    paid = rules.distribute(80000, places, table)
    assert {p.person: p.amount for p in paid.payments} == {
        "W": 36000,
        "R": 17600,
        "C1": 17600,
        "C2": 8800,
    }
    assert rules.PRESET_PAID_BY["main_consolation_45_22_22_11"] == "main_consolation"
