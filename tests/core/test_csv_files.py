"""The one CSV writer (``core.csv_files``): formulas neutralised, numbers kept."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.csv_files import FORMULA_STARTS, safe_cell, writer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://evil/")', '\'=HYPERLINK("http://evil/")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-", "'-"),
        ("-12.50", "-12.50"),  # an amount as we write it: a number
        ("+3", "+3"),
        ("-١٢", "'-١٢"),  # digits other than ASCII are not a number here
        ("Alice", "Alice"),
        ("a=b", "a=b"),
        (-1250, -1250),
        (Decimal("-12.50"), Decimal("-12.50")),
        (-0.5, -0.5),
        (None, None),
    ],
)
def test_safe_cell(value, written):
    assert safe_cell(value) == written


@given(st.text())
def test_no_text_ever_reads_back_as_a_formula(text):
    out = io.StringIO()
    writer(out).writerow([text])
    (row,) = list(csv.reader(io.StringIO(out.getvalue())))
    (cell,) = row or [""]
    if cell.startswith(FORMULA_STARTS):
        assert re.fullmatch(r"[+-]?[0-9]+(\.[0-9]+)?", cell)
    assert cell.removeprefix("'") == text or cell == text


def test_every_csv_the_project_writes_uses_the_one_writer():
    """``csv.writer`` appears in ``core/csv_files.py`` only; every other module that writes
    CSV must go through ``core.csv_files.writer``."""
    offenders = []
    tops = [p for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")]
    paths = [p for top in tops if top.name not in ("tests", "site") for p in top.rglob("*.py")]
    assert any(p.name == "answers.py" for p in paths)  # the ledger's module is searched
    for path in paths:
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if relative != "core/csv_files.py" and re.search(r"csv\.(writer|DictWriter)\(", text):
            offenders.append(relative)
    assert offenders == []
