"""Reading a club's results file: CSV and the Markdown table, bad rows by line."""

from __future__ import annotations

from datetime import date

import pytest

from games.rules.results_file import ResultsFileInvalid, parse_results


def test_csv_rows_in_file_order() -> None:
    rows = parse_results("date,winner,loser,length\n2024-03-01,Ann,Ben,5\n\n2024-02-01,Ben,Cy,1\n")
    assert [(r.line, r.played_on, r.winner, r.loser, r.length) for r in rows] == [
        (2, date(2024, 3, 1), "Ann", "Ben", 5),
        (4, date(2024, 2, 1), "Ben", "Cy", 1),
    ]


def test_csv_names_may_be_quoted_with_commas() -> None:
    rows = parse_results('Date,Winner,Loser,Length\n2024-03-01,"Doe, Jane",Ben,3\n')
    assert rows[0].winner == "Doe, Jane"


def test_markdown_table_with_prose_and_alignment() -> None:
    text = (
        "# Results\n\nSpring season.\n\n| Date | Winner | Loser | Length |\n"
        "|:-----|:------:|-------|-------:|\n| 2024-03-01 | Ann | Ben | 7 |\n\nThanks!\n"
    )
    rows = parse_results(text)
    assert [(r.line, r.winner, r.loser, r.length) for r in rows] == [(7, "Ann", "Ben", 7)]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("2024-13-01,Ann,Ben,5", "ISO date"),
        ("2024-01-01,Ann,,5", "need a name"),
        ("2024-01-01,Ann,ann,5", "cannot beat themself"),
        ("2024-01-01,Ann,Ben,five", "whole number"),
        ("2024-01-01,Ann,Ben,0", "not rated"),
        ("2024-01-01,Ann,Ben", "expected 4 columns"),
    ],
)
def test_each_bad_row_is_named_with_its_line(row: str, message: str) -> None:
    with pytest.raises(ResultsFileInvalid) as caught:
        parse_results(f"date,winner,loser,length\n2024-01-01,Ann,Ben,5\n{row}\n")
    [error] = caught.value.errors
    assert error.line == 3 and message in error.message
    assert caught.value.field == "file" and caught.value.as_dict()["errors"][0]["line"] == 3


def test_every_bad_row_is_reported_not_just_the_first() -> None:
    text = "date,winner,loser,length\nx,Ann,Ben,5\n2024-01-01,Ann,Ben,5\ny,Ann,Ben,5\n"
    with pytest.raises(ResultsFileInvalid) as caught:
        parse_results(text)
    assert [e.line for e in caught.value.errors] == [2, 4]


@pytest.mark.parametrize(
    "text", ["", "winner,loser\nAnn,Ben\n", "|Player|Points|\n|---|---|\n|Ann|3|\n"]
)
def test_missing_header_or_rows_is_refused(text: str) -> None:
    with pytest.raises(ResultsFileInvalid) as caught:
        parse_results(text)
    assert caught.value.errors[0].line == 1
