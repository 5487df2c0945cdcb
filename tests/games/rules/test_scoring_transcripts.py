"""Match scoring against real transcripts (docs/transcripts-format.md section 2): the
Crawford game we derive is the one gnubg marks, and nobody doubles in it."""

from __future__ import annotations

import re
from pathlib import Path

from games.rules.scoring import MatchRules, next_game_facts

from .corpus import MAT as DATA


def test_gnubg_sgf_marks_the_crawford_game_we_derive() -> None:
    """gnubg's SGF marks ``RU[Crawford:CrawfordGame]``; our derivation must agree.

    The ``.sgf`` in ``data/mat/boxcars`` is ours, marked by hand as gnubg marks it."""
    files = sorted((DATA / "boxcars").glob("*.sgf"))
    assert files
    marked = 0
    for path in files:
        text = path.read_text()
        games = re.findall(
            r"MI\[length:(\d+)\]\[game:(\d+)\]\[ws:(\d+)\]\[bs:(\d+)\].*?RU\[([^\]]*)\]", text
        )
        assert games
        played = False
        for length, _, white, black, rule in games:
            is_crawford, _ = next_game_facts(
                MatchRules(int(length)), (int(white), int(black)), played
            )
            assert is_crawford == (rule == "Crawford:CrawfordGame"), (path.name, white, black)
            played = played or is_crawford
            marked += rule == "Crawford:CrawfordGame"
    assert marked >= 1


SCORE_LINE = re.compile(r"^\s*\S.*?\s:\s*(\d+)\s+\S.*?\s:\s*(\d+)\s*$")


def _mat_games(path: Path) -> tuple[int, list[tuple[tuple[int, int], str]]]:
    text = path.read_text(errors="replace")
    length = int(re.search(r"^\s*(\d+) point match", text, re.M).group(1))
    games = []
    for block in re.split(r"^\s*Game \d+\s*$", text, flags=re.M)[1:]:
        lines = block.strip("\n").splitlines()
        match = SCORE_LINE.match(lines[0])
        assert match, (path.name, lines[0])
        games.append(((int(match.group(1)), int(match.group(2))), block))
    return length, games


def test_real_transcripts_never_double_in_the_derived_crawford_game() -> None:
    """In 400+ real matches the game we call Crawford never has a double, and the score
    lines move by game values the rules allow (1, 2 or 3 points in the Crawford game)."""
    files = sorted((DATA / "galaxy").glob("*.mat")) + sorted((DATA / "bgstudio").glob("*.mat"))
    assert len(files) > 100
    crawford_games = post_crawford_doubles = 0
    for path in files:
        length, games = _mat_games(path)
        rules = MatchRules(length)
        played = False
        for index, (score, block) in enumerate(games):
            is_crawford, is_post = next_game_facts(rules, score, played)
            doubles = "Doubles" in block
            if is_crawford:
                crawford_games += 1
                assert not doubles, (path.name, index + 1, score)
                if index + 1 < len(games):
                    after = games[index + 1][0]
                    gained = sorted(after[i] - score[i] for i in (0, 1))
                    assert gained[0] == 0 and gained[1] in (1, 2, 3), (path.name, score, after)
            post_crawford_doubles += is_post and doubles
            played = played or is_crawford
    assert crawford_games > 100
    assert post_crawford_doubles > 10  # the cube is live again after it
