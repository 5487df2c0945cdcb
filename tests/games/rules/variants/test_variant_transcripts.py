"""Transcripts of the variants GNU Backgammon does not play (docs/transcripts.md,
"Variants"): ``Boxcars <key>`` names the game, entering from off the board is written
from the bar point, a throw of several plays is one line per play, and every play is
checked by the variant's own rules in the registry's engine.

The fixtures in ``data/boxcars-*.mat`` were written by hand; each play in them is one
the engine lists (the replay below checks exactly that), and the tests here change a
single play to see it refused with its game, move number and reason.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.matexport import export_mat
from games.rules.matfile import parse_mat
from games.rules.notation import IN
from games.rules.replay import check_text
from games.rules.types import Ending, Level
from games.rules.variant_moves import read_play, write_play
from games.rules.variants import PLAKOTO, RUSSIAN, TURKISH
from games.rules.variants.base import BAR, UNENTERED
from games.rules.variants.engine import stage_plays
from games.rules.variants.position import VariantPosition

from ..test_matexport import essence
from .helpers import random_position
from .transcript_games import random_match

DATA = Path(__file__).parent / "data"
FIXTURES = {
    "acey-deucey": "boxcars-acey-deucey.mat",
    "acey-deucey-european": "boxcars-acey-deucey-european.mat",
    "russian": "boxcars-russian.mat",
    "turkish": "boxcars-turkish.mat",
    "plakoto": "boxcars-plakoto.mat",
    "fevga": "boxcars-fevga.mat",
    "tavla": "boxcars-tavla.mat",
    "tavli": "boxcars-tavli.mat",
}


def fixture(name: str) -> str:
    return (DATA / FIXTURES[name]).read_text(encoding="utf-8")


def errors(text: str) -> list[tuple[int | None, int | None, str, str]]:
    return [(e.game, e.move, e.code, e.message) for e in check_text(text, "x.mat").errors]


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_each_hand_written_transcript_replays_and_round_trips(name: str) -> None:
    text = fixture(name)
    result = check_text(text, f"{name}.mat")
    assert result.ok, errors(text)
    assert result.variant == name.removesuffix("-european")
    moves = sum(len(g.actions) for g in parse_mat(text).games)
    assert result.moves_checked == moves > 0  # every play was checked by the engine
    # our export (gnubg's layout) writes every play back; it replays to the same games
    exported = export_mat(parse_mat(text))
    assert essence(parse_mat(exported)) == essence(parse_mat(text))
    again = check_text(exported, "again.mat")
    assert again.ok and again.to_dict()["games"] == result.to_dict()["games"]


def test_acey_deucey_a_1_2_names_doublets_then_throws_again() -> None:
    """Acey-deucey (Rules): the 1-2 is played, then the caster names any doublets,
    plays them, and throws again -- three lines of the same player."""
    text = fixture("acey-deucey")
    # the named sixes are "any doublets": fours would do as well
    assert check_text(text.replace("66: 25/19(2) 19/13(2)", "44: 25/21(2) 21/17(2)"), "a").ok
    # not doublets where the 1-2 names doublets
    bad = text.replace("66: 25/19(2) 19/13(2)", "64: 25/19 25/21")
    assert errors(bad) == [(1, 2, "wrong_dice", "a 1-2 names doublets: 64 are not doublets")]
    # the further throw is the caster's: bob may not play before it
    skipped = text.replace("  3) 43: 25/22 25/21\n", "")
    assert errors(skipped)[0][:3] == (1, 3, "throw_unfinished")


def test_european_acey_deucey_plays_the_complementary_doublets() -> None:
    text = fixture("acey-deucey-european")
    # without the house rule the 55 pass the turn: alice's 22 is out of turn
    plain = text.replace('; [HouseRules "complementary_doublets"]\n', "")
    assert errors(plain)[0][:3] == (1, 2, "out_of_turn")
    wrong = text.replace("22: 20/18(4)", "33: 20/17(4)")
    assert errors(wrong) == [(1, 2, "wrong_dice", "33 written where the complementary 22 are due")]


def test_russian_first_doublets_plain_then_complementary_and_a_further_throw() -> None:
    """Cady, Russian: "not ... allowed ... when he throws his first set of doublets";
    later doublets bring "the complimentary ones" and "another throw"."""
    text = fixture("russian")
    # alice's first doublets (33) pass the turn: a complementary 44 is out of turn
    first = text.replace(
        "  1) 33: 25/22(4)                55: 25/20(4)\n",
        "  1) 33: 25/22(4)\n  2) 44: 22/18(4)\n",
    )
    assert errors(first)[0][:3] == (1, 2, "out_of_turn")
    # after the privileged 66 only the aces come: 22 is refused
    wrong = text.replace("11: 16/15(4)", "22: 16/14(4)")
    assert errors(wrong) == [(1, 4, "wrong_dice", "22 written where the complementary 11 are due")]


def test_turkish_the_two_men_first_placed_wait_until_all_are_in() -> None:
    """Cady, Turkish: the two men placed "cannot" move out "until all are in"."""
    bad = fixture("turkish").replace("65: 25/18 25/19", "65: 24/18 24/19")
    [(game, move, code, message)] = errors(bad)
    assert (game, move, code) == (1, 3, "illegal_move")
    assert message.startswith("24/18 24/19 is not a legal play of 65 in Turkish backgammon")
    # "the two points in entering count one": a 3 enters on the 21, not the 22
    assert errors(fixture("turkish").replace("25/21 25/23", "25/22 25/23"))[0][:3] == (
        1,
        1,
        "illegal_move",
    )


def test_plakoto_pins_without_a_hit_mark() -> None:
    """Tavli, Plakoto: the lone man is pinned, not hit: ``18/6`` lands on bob's lone man
    and pins it, and ``*`` (a hit) is refused."""
    text = fixture("plakoto")
    marked = text.replace("66: 18/6 20/8", "66: 18/6* 20/8")
    assert errors(marked) == [
        (1, 3, "false_hit_mark", "6* marks a hit but Plakoto (tavli) pins, it does not hit")
    ]
    # the pin is the engine's: bob's man lies under alice's on her 6 (his 19)
    start = VariantPosition.start(PLAKOTO)
    after_alice = read_play(PLAKOTO, start, (6, 4), ((24, 18), (24, 20)))[0].after
    after_bob = read_play(PLAKOTO, after_alice.flip(), (6, 5), ((24, 18), (24, 19)))[0].after
    pinned = read_play(PLAKOTO, after_bob.flip(), (6,) * 4, ((18, 6), (20, 8)))[0].after
    assert pinned.opp_pinned == frozenset({19})


def test_fevga_one_man_runs_first() -> None:
    """Tavli, Fevga: a second man may not leave the start before the first has reached
    the opponent's starting quarter."""
    bad = fixture("fevga").replace("64: 24/14", "64: 24/18 24/20")
    [(game, move, code, _)] = errors(bad)
    assert (game, move, code) == (1, 1, "illegal_move")


def test_tavla_hits_are_marked_and_there_is_no_cube() -> None:
    text = fixture("tavla")
    # a file that marks no hit at all (as Galaxy's) gets a warning, as in the English game
    unmarked = check_text(text.replace("13/11*", "13/11"), "x.mat")
    assert unmarked.ok and [w.code for w in unmarked.warnings] == ["hits_not_marked"]
    false = text.replace("13/9 ", "13/9* ")
    assert errors(false) == [(1, 3, "false_hit_mark", "9* marks a hit but no blot was there")]
    cube = text.replace("  2) 42: 13/11* 13/9", "  2)  Doubles => 2\n  3) 42: 13/11* 13/9")
    [(game, move, code, message)] = errors(cube)[:1]
    assert (game, move, code) == (1, 3, "no_cube_in_variant")
    assert message == "Tavla is played without the doubling cube: no double"


def test_tavli_games_follow_the_rotation() -> None:
    """Tavli: portes, plakoto and fevga in succession; game 2 is plakoto, so a portes
    play there is refused."""
    text = fixture("tavli")
    result = check_text(text, "tavli.mat")
    assert [g.points for g in result.games] == [1, 1, 1] and result.final_score == (3, 0)
    portes_in_plakoto = text.replace("64: 24/18 24/20", "64: 13/7 13/9")
    [(game, move, code, message)] = errors(portes_in_plakoto)[:1]
    assert (game, move, code) == (2, 1, "illegal_move")
    assert "in Plakoto (tavli)" in message


def test_tavli_scores_1_or_2_and_no_backgammon() -> None:
    text = fixture("tavla").replace("Wins 1 point", "Wins 3 points")
    # a resignation read as a backgammon; tavla's scoring (the import) refuses it, and
    # the replay already disagrees with nothing else
    result = check_text(text, "x.mat")
    assert result.games[0].level == Level.BACKGAMMON and result.games[0].ending == Ending.RESIGNED


def test_house_rules_a_transcript_cannot_record_are_refused() -> None:
    text = fixture("russian").replace(
        '; [Variation "Boxcars russian"]', '; [Variation "Boxcars russian"]\n; [HouseRules "cube"]'
    )
    assert [e[2] for e in errors(text)] == ["house_rule_not_transcribed"]
    unknown = fixture("tavla").replace(
        '; [Variation "Boxcars tavla"]',
        '; [Variation "Boxcars tavla"]\n; [HouseRules "complementary_doublets"]',
    )
    assert [e[2] for e in errors(unknown)] == ["unknown_option"]


def test_in_is_refused_in_the_english_game() -> None:
    text = " 1 point match\n\n Game 1\n a : 0                       b : 0\n  1) 31: in/22 6/5\n"
    assert errors(text)[0][:3] == (1, 1, "illegal_move")


VARIATIONS = [
    ("Boxcars acey-deucey", ""),
    ("Boxcars acey-deucey", "complementary_doublets"),
    ("Boxcars russian", ""),
    ("Boxcars turkish", ""),
    ("Boxcars turkish", "complementary_doublets"),
    ("Boxcars portes", ""),
    ("Boxcars plakoto", ""),
    ("Boxcars fevga", ""),
    ("Boxcars tavla", ""),
    ("Boxcars tavli", ""),
]


@pytest.mark.parametrize(("variation", "house"), VARIATIONS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_games_round_trip_exactly(variation: str, house: str, seed: int) -> None:
    """Export then import of random legal games (random dice, a random play among the
    engine's for each stage) replays with no error and writes back the same text."""
    text, games = random_match(
        variation, random.Random(seed), length=2, house_rules=house, max_cells=120
    )
    result = check_text(text, "random.mat")
    assert result.ok, errors(text)[:3]
    assert result.moves_checked == sum(len(g.actions) for g in games)
    assert [(g.winner, g.points) for g in result.games] == [(g.winner, g.points) for g in games]
    parsed = parse_mat(text)
    assert export_mat(parsed) == text
    written = [[(a.player, a.dice, a.move) for a in g.actions] for g in games]
    read = [[(a.player, a.dice, a.move) for a in g.actions] for g in parsed.games]
    assert read == written


@pytest.mark.parametrize("variant", [RUSSIAN, TURKISH])
def test_a_man_not_yet_entered_while_one_waits_on_the_bar_is_written_in(variant) -> None:
    """Cady lets a man not yet entered come in while a taken-up man waits (Russian:
    "before playing any other already entered"): ``25/x`` would read as the man on the
    bar, so that step is written ``in/x`` and reads back to the same position."""
    for seed in range(200):
        rng = random.Random(seed)
        position = random_position(variant, rng, rng.randint(2, 30))
        if not (position.me[BAR] and position.me[UNENTERED]):
            continue
        for play in stage_plays(variant, position, (3, 1)):
            if play.after.me[BAR] and any(frm == UNENTERED for frm, _ in play.steps):
                written = write_play(variant, position, play.steps)
                assert all(frm == IN for frm, _ in written.segments if frm > 24)
                [reading] = read_play(variant, position, (3, 1), written.segments)
                assert reading.after == play.after
                # the same landing points written 25/x enter the man from the bar first
                from_bar = tuple((BAR, to) for _, to in written.segments)
                others = read_play(variant, position, (3, 1), from_bar)
                assert others and all(r.after.me[BAR] < position.me[BAR] for r in others)
                return
    pytest.fail("no position with men both on the bar and not yet entered")
