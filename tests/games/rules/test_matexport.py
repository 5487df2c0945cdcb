"""parse -> export (gnubg dialect) -> parse gives the same match, over the whole corpus."""

from __future__ import annotations

from games.rules.matexport import export_mat
from games.rules.matfile import ParsedMatch, parse_mat, parse_mat_file
from games.rules.replay import replay_match

from .corpus import mat_files


def essence(match: ParsedMatch) -> tuple:
    """Everything but line numbers and Galaxy's ``Losses`` (which gnubg never writes)."""
    return (
        match.length,
        match.players,
        match.metadata,
        [
            (
                g.number,
                g.score_before,
                g.names,
                g.declared_winner,
                g.declared_points,
                g.declared_match,
                [(a.kind, a.player, a.dice, a.move, a.value) for a in g.actions],
            )
            for g in match.games
        ],
    )


def test_round_trip_over_the_corpus() -> None:
    files = mat_files()
    assert len(files) > 400
    for path in files:
        original = parse_mat_file(path)
        text = export_mat(original)
        again = parse_mat(text, money=original.is_money)
        assert essence(again) == essence(original), path.name


def test_replay_of_export_agrees() -> None:
    for path in mat_files()[::7]:
        original = parse_mat_file(path)
        a = replay_match(original, path.name).to_dict()
        b = replay_match(parse_mat(export_mat(original), money=original.is_money), path.name)
        assert b.to_dict()["games"] == a["games"]
        assert b.to_dict()["final_score"] == a["final_score"]


def test_gnubg_layout() -> None:
    original = parse_mat_file(mat_files("bgstudio")[0])
    text = export_mat(original)
    assert " point match\n" in text and "\n Game 1\n" in text
    assert "/off" not in text and "bar/" not in text and "Cannot Move" not in text
    first_move = next(line for line in text.splitlines() if line.startswith("  1)"))
    assert first_move[:5] == "  1) "
    two_cells = next(
        line for line in text.splitlines() if line[:4].strip().endswith(")") and len(line) > 40
    )
    assert two_cells[33:35].isdigit() or two_cells[32] == " "
