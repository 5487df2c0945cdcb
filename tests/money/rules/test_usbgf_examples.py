"""The USBGF 2019 formula against the figures of its published description and the
worked examples in docs/money.md (computed by hand there, arithmetic shown).

Source: "How USBGF Master Points are Calculated", Richard Munitz and Joe Russell,
effective January 2019, https://usbgf.org/how-points-are-calculated/how-usbgf-master-points-are-calculated/
(retrieved 2026-11-23). Its quick reference publishes the division weights and the
rank factor table; its further worked examples could not be retrieved from here.
"""

from decimal import ROUND_HALF_UP, Decimal

import pytest

from money.rules.master_points import (
    Weights,
    award,
    usbgf_2019_match_win,
    usbgf_2019_placement,
    usbgf_2019_rank_factor,
)

D = Decimal
OPEN, ADVANCED, NOVICE = D("1.0"), D("0.7"), D("0.5")  # the published division weights


@pytest.mark.parametrize(
    ("rank", "published"),
    [(1, "1.000"), (2, "0.700"), (3, "0.500"), (4, "0.333"), (5, "0.250"), (6, "0.200")],
)
def test_the_published_rank_factor_table(rank, published):
    factor = usbgf_2019_rank_factor(rank).quantize(D("0.001"), rounding=ROUND_HALF_UP)
    assert factor == D(published)


def test_example_1_a_9_point_match_win():
    # 1.0 x 1.0 x sqrt(9) / 3 = 3 / 3 = 1.00
    assert usbgf_2019_match_win(Weights(D(1), OPEN), 9) == D("1.00")


def test_example_2_an_11_point_match_win_in_an_advanced_division():
    # 1.0 x 0.7 x sqrt(11) / 3 = 0.7 x 3.31662 / 3 = 0.77388 -> 0.77
    assert usbgf_2019_match_win(Weights(D(1), ADVANCED), 11) == D("0.77")


def test_example_3_places_of_a_32_player_open_event():
    # base 1.0 x 1.0 x 0.6 x log2(32) = 0.6 x 5 = 3.0
    # 1st 3.0 x 1.0 = 3.00; 2nd 3.0 x 0.7 = 2.10
    # 3rd-4th tied: 3.0 x (1/2 + 1/3) / 2 = 3.0 x 0.41667 = 1.25 each
    # 5th-8th tied: 3.0 x (1/4 + 1/5 + 1/6 + 1/7) / 4 = 3.0 x 0.18988 = 0.56964 -> 0.57 each
    points = usbgf_2019_placement(
        Weights(D(1), OPEN), 32, [["w"], ["r"], ["s1", "s2"], ["q1", "q2", "q3", "q4"]]
    )
    assert points == {
        "w": D("3.00"),
        "r": D("2.10"),
        "s1": D("1.25"),
        "s2": D("1.25"),
        "q1": D("0.57"),
        "q2": D("0.57"),
        "q3": D("0.57"),
        "q4": D("0.57"),
    }


def test_example_4_a_24_player_novice_division():
    # base 1.0 x 0.5 x 0.6 x log2(24) = 0.3 x 4.58496 = 1.37549
    # 1st 1.37549 -> 1.38; 2nd 1.37549 x 0.7 = 0.96284 -> 0.96
    points = usbgf_2019_placement(Weights(D(1), NOVICE), 24, [["w"], ["r"]])
    assert points == {"w": D("1.38"), "r": D("0.96")}


def test_example_5_the_winner_of_a_16_player_event_of_7_point_matches_at_weight_2():
    # placement 2 x 1.0 x 0.6 x log2(16) x 1.0 = 2 x 0.6 x 4 = 4.80
    # each of 4 match wins: 2 x 1.0 x sqrt(7) / 3 = 2 x 2.64575 / 3 = 1.76383 -> 1.76
    # total 4.80 + 4 x 1.76 = 11.84 (each award is rounded on its own)
    points = award(
        "usbgf-2019",
        Weights(D(2), OPEN),
        players=16,
        places=[["w"]],
        match_wins=[("w", 7)] * 4,
    )
    assert points == {"w": D("11.84")}
