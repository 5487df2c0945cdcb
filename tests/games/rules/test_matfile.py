"""The .mat parser and replay checker against the real corpus (``data/mat``, see data/README.md).

Facts about chosen files are read from the raw text with small independent regexes, not
from the parser under test.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from games.rules.matfile import MatParseError, parse_mat, parse_mat_file
from games.rules.replay import ReplayResult, check_file, check_text

from .corpus import CRAWFORD, DROPS, MAT, ROLL_THEN_RESIGN, mat_files

ALL = mat_files()


@cache
def replayed(path: Path) -> ReplayResult:
    return check_file(path)


def test_corpus_is_there() -> None:
    assert len(mat_files("galaxy")) >= 300
    assert len(mat_files("galaxy_coingame")) >= 70
    assert len(mat_files("bgstudio")) >= 70
    assert len(mat_files("boxcars")) == 3  # our own GNU Backgammon-dialect fixtures


def test_every_file_parses_and_replays_without_error() -> None:
    found = set()
    moves = 0
    for path in ALL:
        result = replayed(path)
        moves += result.moves_checked
        for issue in result.errors:
            found.add((path.name, issue.game, issue.code))
        assert result.games, path
    # Every transcript is legal, including Studio's merged bear-offs such as
    # ``41: 4/off`` (4/3 with the 1, then 3/off with the 4) that once looked non-maximal.
    assert found == set()
    assert moves > 50_000


STUDIO_MERGED_BEAR_OFFS = [
    # (file, game, line, written): once flagged ``not_maximal``, legal with both dice
    ("Llabba_Llabba_-_FARHANG_13pt_Backgammon_Studio_2023_02_17_14_56_01.mat", 2, 61, "41: 4/off"),
    ("Llabba_adidan_-_Llabba_7pt_Backgammon_Studio_2023_09_27_07_15_16.mat", 3, 114, "31: 3/off"),
    (
        "Llabba_leochili75_-_Llabba_7pt_Backgammon_Studio_2023_05_07_18_12_00.mat",
        4,
        109,
        "31: 2/off",
    ),
]


@pytest.mark.parametrize(("name", "game", "line", "written"), STUDIO_MERGED_BEAR_OFFS)
def test_merged_bear_offs_of_the_corpus_use_both_dice(
    name: str, game: int, line: int, written: str
) -> None:
    path = MAT / "bgstudio" / name
    assert written in path.read_text().splitlines()[line - 1]
    result = replayed(path)
    assert not result.errors
    assert result.games[game - 1].winner is not None


def test_hit_marks_agree_with_real_hits_in_marking_dialects() -> None:
    """Studio and gnubg-dialect files mark every hit; Galaxy marks none (one warning per file)."""
    for path in mat_files("bgstudio")[::10] + mat_files("boxcars"):
        result = replayed(path)
        assert not [w for w in result.warnings if w.code == "hits_not_marked"], path
    galaxy = replayed(mat_files("galaxy")[0])
    assert "*" not in mat_files("galaxy")[0].read_text()
    assert [w.code for w in galaxy.warnings].count("hits_not_marked") == 1


def test_coin_games_are_single_money_games() -> None:
    for path in mat_files("galaxy_coingame"):
        result = replayed(path)
        assert result.is_money and len(result.games) == 1
        assert not result.errors


_SCORE = re.compile(r"^\s*\S*\s*:\s*(\d+)\s+\S*\s*:\s*(\d+)\s*$")


def raw_scores(path: Path) -> list[tuple[int, int]]:
    """Score lines (the line after each ``Game k``) read with a plain regex."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    out = []
    for i, line in enumerate(lines):
        if re.match(r"^\s*Game \d+\s*$", line):
            m = _SCORE.match(lines[i + 1])
            assert m, lines[i + 1]
            out.append((int(m.group(1)), int(m.group(2))))
    return out


def raw_match_winner(path: Path) -> int:
    """1 or 2: the column of the last ``Wins`` (past column 20 = right)."""
    wins = [line for line in path.read_text().splitlines() if "Wins" in line]
    return 2 if wins[-1].index("Wins") > 20 else 1


CHOSEN = (
    ["galaxy/" + p.name for p in mat_files("galaxy")[:: max(1, len(mat_files("galaxy")) // 6)]]
    + ["bgstudio/" + p.name for p in mat_files("bgstudio")[::25]]
    + [
        "boxcars/" + DROPS.name,
        "boxcars/" + CRAWFORD.name,
    ]
)


@pytest.mark.parametrize("name", CHOSEN)
def test_score_lines_and_winner_match_the_raw_text(name: str) -> None:
    path = MAT / name
    result = replayed(path)
    scores = raw_scores(path)
    assert [g.score_before for g in result.games] == scores
    assert result.winner is not None and result.winner + 1 == raw_match_winner(path)
    length = int(re.search(r"(\d+) point match", path.read_text()).group(1))
    assert max(result.final_score) >= length
    d = result.to_dict()
    assert d["winner"] == raw_match_winner(path)
    assert [g["score_before"] for g in d["games"]] == [list(s) for s in scores]
    assert set(d) == {
        "file", "length", "players", "games", "final_score", "winner", "moves_checked", "errors"
    }  # fmt: skip


def test_crawford_game_agrees_with_gnubg_sgf() -> None:
    """The .sgf marks the Crawford game explicitly (RU[Crawford:CrawfordGame]), as gnubg
    writes it; ours was marked by hand from the score before each game."""
    sgf = CRAWFORD.with_suffix(".sgf").read_text()
    games_rules = re.findall(r"RU\[([^\]]*)\]", sgf)
    expected = [rule == "Crawford:CrawfordGame" for rule in games_rules]
    assert expected.count(True) == 1
    result = replayed(CRAWFORD)
    assert [g.crawford for g in result.games] == expected
    index = expected.index(True)
    crawford = result.games[index]
    assert crawford.score_before == (6, 2)
    # RE[B+2R]: black (player 2) won 2 by resignation, a gammon on a 1-cube
    assert (crawford.winner, crawford.points, crawford.ending) == (1, 2, "resigned")
    assert crawford.level == "gammon" and crawford.cube == 1
    # the game after it is post-Crawford: the cube is live again (Doubles => 2 is legal)
    after = result.games[index + 1]
    assert not after.crawford and after.cube == 2 and not result.errors


def test_studio_dialect_features() -> None:
    studio = mat_files("bgstudio")
    text = "".join(p.read_text() for p in studio)
    assert "bar/" in text and "/off" in text and "Cannot Move" in text and "????" in text
    resigned = [g for p in studio for g in replayed(p).games if g.ending == "resigned"]
    assert resigned


def test_gnubg_roll_then_resign() -> None:
    result = replayed(ROLL_THEN_RESIGN)
    assert not result.errors
    game = result.games[0]
    assert (game.winner, game.ending, game.points) == (0, "resigned", 1)


# ---- synthetic transcripts: dialect corners and rule violations

HEAD = '; [Site "Test"]\n\n 3 point match\n\n Game 1\n {a} : 0                       {b} : 0\n'


def game_text(body: str, a: str = "alice", b: str = "bob") -> str:
    return HEAD.format(a=a, b=b) + body


def test_bom_empty_and_numeric_names() -> None:
    text = "\ufeff" + game_text("  1) 31: 8/5 6/5                 Doubles => 2\n", "", "012345")
    text += "  2)  Drops\n                                 Wins 1 point\n"
    m = parse_mat(text)
    assert m.players == ("", "012345") and m.metadata == {"Site": "Test"}
    assert m.games[0].declared_winner == 1


def test_parse_errors_carry_line_numbers() -> None:
    with pytest.raises(MatParseError) as exc:
        parse_mat(game_text("  1) 31: 8/5 6/5    Garbage here\n"))
    assert exc.value.line == 7
    with pytest.raises(MatParseError):
        parse_mat("hello\n")
    with pytest.raises(MatParseError):
        parse_mat(" 3 point match\n Game 1\n no score line\n")
    with pytest.raises(MatParseError):
        parse_mat(game_text("  1) 71: 8/1\n"))
    result = check_text("nonsense", "x.mat")
    assert result.errors and result.errors[0].code == "bad_mat"


def test_illegal_move_is_reported_with_game_and_move() -> None:
    body = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 65: 24/13 13/1\n"
    body += "      Wins 1 point\n"
    result = check_text(game_text(body), "t.mat")
    codes = {(e.game, e.move, e.code) for e in result.errors}
    assert (1, 3, "illegal_move") in codes  # 13/1 lands on the opponent's 24... blocked


def test_double_in_crawford_game_and_beaver_in_match() -> None:
    text = game_text("  1) 31: 8/5 6/5\n      Wins 2 points\n")
    text += "\n Game 2\n alice : 2                       bob : 0\n"
    text += "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Beavers => 4\n"
    text += "                                 Wins 4 points\n"
    result = check_text(text, "c.mat")
    codes = [e.code for e in result.errors]
    assert result.games[1].crawford
    assert "crawford_double" in codes and "beaver_in_match" in codes


def test_score_mismatch_and_wrong_owner() -> None:
    text = game_text(
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Takes                       42: 8/4 6/4\n"
        "  3) 31: 13/10 24/23               Doubles => 4\n"
        "  4)  Drops\n                                 Wins 2 points\n"
    )
    text += "\n Game 2\n alice : 0                       bob : 0\n  1) 31: 8/5 6/5\n"
    result = check_text(text, "s.mat")
    codes = [e.code for e in result.errors]
    assert "cube_owner" in codes  # bob doubled, alice took: only alice may redouble
    assert "score_mismatch" in codes  # bob won 2 (the cube before the double), not 0
    assert result.games[0].points == 2 and result.games[0].ending == "dropped"


def test_false_and_missing_hit_marks() -> None:
    # alice 31: 8/5 6/5; bob 62: 24/18 24/22 leaves blots on alice's 7 and 3
    opening = "  1) 31: 8/5 6/5                 62: 24/18 24/22\n"
    end = "      Wins 3 points\n"  # bob resigns a backgammon: alice takes the match

    def codes(reply: str) -> tuple[list[str], list[str]]:
        result = check_text(game_text(opening + f"  2) {reply}\n" + end), "h.mat")
        return [e.code for e in result.errors], [w.code for w in result.warnings]

    # 13/8* marks a hit on the 8, where no blot stood (8/7* is a real hit)
    assert codes("51: 8/7* 13/8*") == (["false_hit_mark"], [])
    # 8/3 hits bob's blot on alice's 3: unmarked in a file that marks hits is an error
    assert codes("51: 8/7* 8/3") == (["unmarked_hit"], [])
    # a file that marks no hit at all (the Galaxy dialect) only earns a warning
    assert codes("51: 8/7 8/3") == ([], ["hits_not_marked"])
    assert codes("51: 8/7* 8/3*") == ([], [])


def test_money_beaver_is_fine() -> None:
    text = " 0 point match\n\n Game 1\n a : 0                           b : 0\n"
    text += "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Beavers => 4\n"
    text += "      Wins 4 points\n"
    result = check_text(text, "m.mat")
    assert not result.errors, result.errors
    assert result.games[0].cube == 4 and result.games[0].points == 4


def test_parse_file_is_money_for_coin_games() -> None:
    path = mat_files("galaxy_coingame")[0]
    assert parse_mat_file(path).is_money
    assert not parse_mat_file(mat_files("galaxy")[0]).is_money
