"""``manage.py import_mat``: check, JSON report, import, duplicates, refusals, lenient.

Facts about the corpus files (score lines, who won, the coin games' points) are read
from the raw text with small regexes of this module, not from the parser under test.
"""

from __future__ import annotations

import hashlib
import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Match, Player
from games.services.match_records import match_state
from games.services.transcripts import normalise_transcript
from tests.games.rules.corpus import BOXCARS, CRAWFORD, DROPS, MAT, mat_files

pytestmark = pytest.mark.django_db

# our GNU Backgammon-dialect fixtures: a drops match, a Crawford match, a 1-point match
GNUBG = BOXCARS

REPORT_KEYS = {
    "file", "length", "players", "games", "final_score", "winner", "moves_checked", "errors"
}  # fmt: skip
GAME_KEYS = {"number", "score_before", "winner", "points", "cube", "level", "ending", "crawford"}

# ---- independent readings of the raw text

_SCORE_LINE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")  # names may have spaces


def raw_score_lines(path: Path) -> list[tuple[str, int, str, int]]:
    """(name1, score1, name2, score2) of the line after each ``Game k``."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    out = []
    for i, line in enumerate(lines):
        if re.match(r"^\s*Game \d+\s*$", line):
            m = _SCORE_LINE.match(lines[i + 1])
            assert m, lines[i + 1]
            out.append((m.group(1), int(m.group(2)), m.group(3), int(m.group(4))))
    return out


def raw_wins(path: Path) -> list[tuple[int, int]]:
    """(column 1 or 2, n) of every ``Wins n point`` line (past column 20 = right)."""
    out = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        m = re.search(r"Wins (\d+) points?", line)
        if m:
            out.append((2 if m.start() > 20 else 1, int(m.group(1))))
    return out


def raw_length(path: Path) -> int:
    return int(re.search(r"(\d+) point match", path.read_text(encoding="utf-8-sig")).group(1))


# ---- helpers


def run(*args: str) -> str:
    out = StringIO()
    call_command("import_mat", *args, stdout=out)
    return out.getvalue()


def illegal_file(tmp_path: Path) -> Path:
    """A 1-point match whose second move (65: 13/1) lands on the opponent's 24 point."""
    text = (
        " 1 point match\n\n Game 1\n alice : 0                       bob : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2) 65: 24/13 13/1\n"
        "      Wins 1 point\n"
    )
    path = tmp_path / "illegal.mat"
    path.write_text(text)
    return path


# ---- tests


def test_check_writes_nothing_and_reports_each_file() -> None:
    output = run(str(GNUBG), "--check")
    assert Match.objects.count() == 0 and Player.objects.count() == 0
    assert "CHECKED" in output and "3 file(s), 0 refused" in output


def test_json_prints_one_object_per_file_with_the_documented_shape() -> None:
    lines = run(str(GNUBG), "--check", "--json").strip().splitlines()
    assert len(lines) == len(list(GNUBG.glob("*.mat"))) == 3
    for line in lines:
        report = json.loads(line)
        assert set(report) == REPORT_KEYS
        path = Path(report["file"])
        raw = raw_score_lines(path)
        assert report["length"] == raw_length(path)
        assert report["players"] == [raw[0][0], raw[0][2]]
        assert [g["score_before"] for g in report["games"]] == [[r[1], r[3]] for r in raw]
        assert report["winner"] == raw_wins(path)[-1][0]
        assert report["errors"] == [] and report["moves_checked"] > 0
        for game in report["games"]:
            assert set(game) == GAME_KEYS
            assert game["winner"] in (1, 2) and game["level"] in ("single", "gammon", "backgammon")
            assert game["ending"] in ("played", "dropped", "resigned")
    drops = next(json.loads(x) for x in lines if x.find("drops_7p") >= 0)
    # the same numbers by hand: each game's winner column and points from the Wins lines
    assert [(g["winner"], g["points"]) for g in drops["games"]] == raw_wins(DROPS)
    assert drops["final_score"] == [3, 7]


def test_writes_need_a_club(club) -> None:
    with pytest.raises(CommandError, match="--club SLUG is required"):
        run(str(DROPS))
    with pytest.raises(CommandError, match="no club"):
        run(str(DROPS), "--club", "nowhere")
    assert Match.objects.count() == 0


def test_import_creates_a_finished_match_with_its_games_and_transcript(club) -> None:
    output = run(str(CRAWFORD), "--club", club.slug)
    match = Match.objects.get()
    assert f"-> match #{match.pk}" in output
    raw = raw_score_lines(CRAWFORD)
    assert (match.source, match.status, match.length) == ("imported", "finished", 7)
    assert (match.player1.display_name, match.player2.display_name) == (raw[0][0], raw[0][2])
    games = list(match.games.order_by("number"))
    assert [(g.score1_before, g.score2_before) for g in games] == [(r[1], r[3]) for r in raw]
    assert [g.points for g in games] == [n for _, n in raw_wins(CRAWFORD)]
    # the .sgf of the same match marks the Crawford game as gnubg does: RU[Crawford:CrawfordGame]
    sgf = CRAWFORD.with_suffix(".sgf").read_text()
    marked = [rule == "Crawford:CrawfordGame" for rule in re.findall(r"RU\[([^\]]*)\]", sgf)]
    assert [g.crawford for g in games] == marked and marked.count(True) == 1
    assert match.winner == match.player1 and (match.score1, match.score2) == (8, 4)
    text = CRAWFORD.read_text()
    assert match.transcript == text
    expected = hashlib.sha256(normalise_transcript(text).encode()).hexdigest()
    assert match.transcript_hash == expected
    assert games[0].moves[0] == {"player": 1, "action": "roll", "dice": "31", "move": "8/5 6/5"}
    assert games[0].moves[-1]["action"] == "wins"
    # the stored games agree with the match scoring the pages and the API derive from
    assert match_state(match, games).score == (8, 4)
    assert set(match.player1.clubs.all()) == {club}


def test_importing_the_same_file_twice_creates_nothing_new(club, tmp_path) -> None:
    run(str(GNUBG), "--club", club.slug)
    counts = (Match.objects.count(), Game.objects.count(), Player.objects.count())
    assert counts[0] == 3
    # the same text with other line endings and a BOM is the same transcript
    copy = tmp_path / "copy.mat"
    copy.write_bytes(b"\xef\xbb\xbf" + DROPS.read_bytes().replace(b"\n", b"\r\n"))
    output = run(str(GNUBG), str(copy), "--club", club.slug)
    assert output.count("DUPLICATE") == 4
    assert (Match.objects.count(), Game.objects.count(), Player.objects.count()) == counts


def test_players_are_matched_by_name_within_the_club(club) -> None:
    run(str(DROPS), "--club", club.slug)
    run(str(CRAWFORD), "--club", club.slug)
    assert sorted(Player.objects.values_list("display_name", flat=True)) == [
        "alice",
        "bob",
    ]


def test_a_refused_file_writes_nothing_and_fails_the_command(club, tmp_path) -> None:
    path = illegal_file(tmp_path)
    out = StringIO()
    with pytest.raises(CommandError, match="1 of 1 file"):
        call_command("import_mat", str(path), "--club", club.slug, stdout=out)
    assert "REFUSED" in out.getvalue() and "illegal_move" in out.getvalue()
    assert "game 1, move 3" in out.getvalue()
    assert Match.objects.count() == 0 and Player.objects.count() == 0
    with pytest.raises(CommandError):
        call_command("import_mat", str(path), "--check", "--json", stdout=(out := StringIO()))
    [error] = json.loads(out.getvalue())["errors"]
    assert (error["game"], error["move"], error["code"]) == (1, 3, "illegal_move")


def test_lenient_keeps_the_scores_and_reports_the_errors(club, tmp_path) -> None:
    path = illegal_file(tmp_path)
    output = run(str(path), "--club", club.slug, "--lenient")
    assert "IMPORTED" in output and "illegal_move" in output
    match = Match.objects.get()
    assert (match.score1, match.score2, match.winner.display_name) == (1, 0, "alice")
    assert match.games.get().ending == "resigned"  # the position was lost: Wins is taken as read


def test_lenient_still_refuses_what_match_scoring_forbids(club, tmp_path) -> None:
    """A double in the Crawford game cannot be stored, lenient or not."""
    text = (
        " 3 point match\n\n Game 1\n a : 0                           b : 0\n"
        "  1) 31: 8/5 6/5\n      Wins 2 points\n\n"
        " Game 2\n a : 2                           b : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Takes\n"
        "      Wins 2 points\n"
    )
    path = tmp_path / "crawford.mat"
    path.write_text(text)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("import_mat", str(path), "--club", club.slug, "--lenient", stdout=out)
    assert "double_in_crawford_game" in out.getvalue()
    assert Match.objects.count() == 0


def test_every_corpus_file_imports_without_error(club, analysis_on_request) -> None:
    """The whole corpus through the command; coin games become money sessions."""
    lines = run(str(MAT), "--club", club.slug, "--json").strip().splitlines()
    reports = {Path(r["file"]).name: r for r in map(json.loads, lines)}
    files = mat_files()
    assert len(reports) == len(files) and all(not r["errors"] for r in reports.values())
    by_hash = {m.transcript_hash: m for m in Match.objects.select_related("player1", "player2")}
    assert len(by_hash) == Match.objects.count() == len(files)
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        digest = hashlib.sha256(normalise_transcript(text).encode()).hexdigest()
        match = by_hash[digest]
        wins = raw_wins(path)
        if path.parent.name == "galaxy_coingame":
            # one money game: an unrated session whose winner scored the declared points
            [(column, points)] = wins
            assert (match.length, match.rated, match.crawford) == (0, False, False)
            assert [match.score1, match.score2][column - 1] == points
            assert match.winner == (match.player1 if column == 1 else match.player2)
            continue
        raw = raw_score_lines(path)
        scores = list(match.games.values_list("score1_before", "score2_before"))
        assert scores == [(r[1], r[3]) for r in raw], path.name
        assert match.length == raw_length(path) and match.status == "finished"
        assert match.winner == (match.player1 if wins[-1][0] == 1 else match.player2)
        assert max(match.score1, match.score2) >= match.length
