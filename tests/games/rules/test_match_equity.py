"""Match equity tables (docs/chances.md, "The tables"): every bundled file parses, the
entries mean what gnubg's ``getME`` says they mean, and the two formats agree."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.datafiles import MET_DIR
from games.rules.errors import RuleViolation
from games.rules.match_equity import MatchEquityTable, parse_gnubg_xml, parse_xg_met

XML_FILES = sorted(MET_DIR.glob("*.xml"))
PARAMETRIC = {"mec.xml", "zadeh.xml"}  # gnubg computes these from a formula


def _parse(path):
    if path.suffix == ".met":
        return parse_xg_met(path.read_bytes().decode("cp1252"))
    return parse_gnubg_xml(path.read_text(encoding="utf-8"))


def test_the_bundle_is_what_the_readme_lists():
    names = {p.name for p in MET_DIR.iterdir()}
    readme = (MET_DIR.parent / "README.md").read_text().lower()
    assert "Kazaross-XG2.xml" in names and "met.dtd" in names
    for name in names - {"met.dtd"}:
        stem = name.rsplit(".", 1)[0].lower()
        assert stem in readme or name.lower() in readme, name


@pytest.mark.parametrize(
    "path", [p for p in XML_FILES if p.name not in PARAMETRIC], ids=lambda p: p.name
)
def test_every_explicit_gnubg_table_parses_square_and_monotone(path):
    table = _parse(path)
    raw = ElementTree.parse(path).getroot()
    rows = raw.findall("pre-crawford-table/row")
    assert table.size == len(rows) == int(raw.findtext("info/length"))
    assert table.name == raw.findtext("info/name").strip()
    n = table.size
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            here = table.win_chance(a, b)
            if a < n:
                assert table.win_chance(a + 1, b) <= here  # further away: worse
            if b < n:
                assert table.win_chance(a, b + 1) >= here  # opponent further away: better


@pytest.mark.parametrize("name", sorted(PARAMETRIC))
def test_parametric_tables_are_refused_with_their_parameters(name):
    with pytest.raises(RuleViolation) as caught:
        _parse(MET_DIR / name)
    assert caught.value.code == "met_parametric"
    assert "gammon-rate" in str(caught.value)


@pytest.mark.parametrize(
    "path", [p for p in XML_FILES if p.name not in PARAMETRIC], ids=lambda p: p.name
)
def test_symmetric_tables_sum_to_one_pre_crawford(path):
    """p(a, b) + p(b, a) = 1, to the table's printed precision; Ortega-Kleinman's
    printed table is off by 0.002 at 7-8 away (and is not offered to clubs)."""
    table = _parse(path)
    if not table.symmetric:
        assert path.name in {"jac050.xml", "jac100.xml"}  # a favourite: own rows
        return
    tolerance = 2.001e-3 if path.name == "ortega.xml" else 1e-9
    n = table.size
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            assert table.win_chance(a, b) + table.win_chance(b, a) == pytest.approx(
                1, abs=tolerance
            )


def test_entries_follow_gnubg_semantics_on_kazaross():
    """Row i, column j = i+1 away against j+1 away; the post-Crawford row is the
    trailer's chance against a leader at 1 away; read straight from the text."""
    text = (MET_DIR / "Kazaross-XG2.xml").read_text()
    table = parse_gnubg_xml(text)
    pre, post = text.split("<post-crawford-table")
    pre_rows = [re.findall(r"<me>([0-9.]+)</me>", row) for row in pre.split("<row>")[1:]]
    post_row = re.findall(r"<me>([0-9.]+)</me>", post)
    assert table.win_chance(3, 5) == float(pre_rows[2][4])
    assert table.win_chance(1, 1) == 0.5 == table.win_chance(1, 1, post_crawford=True)
    # The Crawford game, leader 1 away, trailer 2 away: the leader is the favourite.
    assert table.win_chance(1, 2) == float(pre_rows[0][1]) > 0.5
    # After it: trailer 4 away against leader at 1 away.
    assert table.win_chance(4, 1, post_crawford=True) == float(post_row[3])
    assert table.win_chance(1, 4, post_crawford=True) == 1 - float(post_row[3])
    assert table.win_chance(0, 3) == 1.0 and table.win_chance(3, 0) == 0.0


def test_the_xg_met_file_and_gnubgs_g11_agree():
    xg = _parse(MET_DIR / "bglab_GnuBG-11-point.met")
    g11 = _parse(MET_DIR / "g11.xml")
    assert xg.name == "GnuBG 11 point"
    assert xg.size == 25 and len(xg.post_crawford_a) == 24
    for a in range(1, 12):
        for b in range(1, 12):
            assert xg.win_chance(a, b) == pytest.approx(g11.win_chance(a, b), abs=1e-9)
    assert xg.post_crawford_a == pytest.approx(g11.post_crawford_a, abs=1e-9)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((26, 3), "met_beyond_table"),
        ((3, 4, True), "met_post_crawford_without_leader"),
        ((0, 0), "met_away_invalid"),
        ((True, 2), "met_away_invalid"),
    ],
)
def test_bad_questions_are_refused_in_words(args, code):
    table = _parse(MET_DIR / "Kazaross-XG2.xml")
    with pytest.raises(RuleViolation) as caught:
        table.win_chance(*args)
    assert caught.value.code == code


def test_post_crawford_beyond_a_short_row_is_refused():
    xg = _parse(MET_DIR / "bglab_GnuBG-11-point.met")  # 24 post-Crawford entries
    assert xg.max_length == 25
    with pytest.raises(RuleViolation) as caught:
        xg.win_chance(25, 1, post_crawford=True)
    assert caught.value.code == "met_beyond_table"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("<met>", "met_xml_invalid"),
        ("<other/>", "met_xml_invalid"),
        ("<met><info><name>x</name></info></met>", "met_xml_invalid"),
        (
            "<met><info><name>x</name></info><pre-crawford-table><row><me>0.5</me><me>0.6</me></row>"
            "</pre-crawford-table><post-crawford-table><row><me>0.5</me></row></post-crawford-table></met>",
            "met_not_square",
        ),
        (
            "<met><info><name>x</name></info><pre-crawford-table><row><me>1.5</me></row>"
            "</pre-crawford-table><post-crawford-table><row><me>0.5</me></row></post-crawford-table></met>",
            "met_entry_invalid",
        ),
        (
            "<met><info><name>x</name></info><pre-crawford-table><row><me>half</me></row>"
            "</pre-crawford-table><post-crawford-table><row><me>0.5</me></row></post-crawford-table></met>",
            "met_entry_invalid",
        ),
    ],
)
def test_broken_xml_is_refused_in_words(text, code):
    with pytest.raises(RuleViolation) as caught:
        parse_gnubg_xml(text)
    assert caught.value.code == code


def test_broken_xg_files_are_refused_in_words():
    with pytest.raises(RuleViolation, match="PreCrawford"):
        parse_xg_met("[Current]\nName=x\n")
    with pytest.raises(RuleViolation, match="row 2"):
        parse_xg_met("[PreCrawford]\nSize=2\n1=0.5 0.6\n[PostCrawford]\nData=0.5\n")
    with pytest.raises(RuleViolation, match="outside a section"):
        parse_xg_met("Name=x\n")


@st.composite
def tables(draw) -> MatchEquityTable:
    """A random symmetric table: p(a, b) = 1 - p(b, a), 0.5 on the diagonal."""
    n = draw(st.integers(1, 6))
    upper = {(i, j): draw(st.floats(0.001, 0.999)) for i in range(n) for j in range(i + 1, n)}
    matrix = tuple(
        tuple(0.5 if i == j else (upper[i, j] if i < j else 1 - upper[j, i]) for j in range(n))
        for i in range(n)
    )
    post = tuple(draw(st.floats(0.0, 0.5)) for _ in range(n))
    return MatchEquityTable(
        name="random",
        description="",
        pre_crawford=matrix,
        post_crawford_a=post,
        post_crawford_b=post,
    )


def _as_xml(table: MatchEquityTable) -> str:
    rows = "".join(
        "<row>" + "".join(f"<me>{v!r}</me>" for v in row) + "</row>" for row in table.pre_crawford
    )
    post = "".join(f"<me>{v!r}</me>" for v in table.post_crawford_a)
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE met PUBLIC '
        '"-//GNU Backgammon//DTD Match Equity Tables//EN" "met.dtd">\n'
        f"<met><info><name>{table.name}</name><description></description>"
        f"<length>{table.size}</length></info>"
        f'<pre-crawford-table type="explicit">{rows}</pre-crawford-table>'
        f'<post-crawford-table type="explicit" player="both"><row>{post}</row>'
        "</post-crawford-table></met>"
    )


def _as_met(table: MatchEquityTable) -> str:
    lines = ["[Current]", f"Name={table.name}", "; a comment", "", "[PostCrawford]"]
    lines.append(f"Size={table.size}")
    lines.append("Data=" + " ".join(repr(v) for v in table.post_crawford_a))
    lines += ["", "[PreCrawford]", f"Size={table.size}"]
    lines += [
        f"{i + 1:2d}=" + " ".join(repr(v) for v in row) + " "
        for i, row in enumerate(table.pre_crawford)
    ]
    return "\n".join(lines)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_both_formats_round_trip_any_table(table):
    assert parse_gnubg_xml(_as_xml(table)) == table
    assert parse_xg_met(_as_met(table)) == table


@settings(max_examples=60, deadline=None)
@given(tables(), st.data())
def test_lookup_is_the_entry_and_its_mirror_sums_to_one(table, data):
    a = data.draw(st.integers(1, table.size))
    b = data.draw(st.integers(1, table.size))
    assert table.win_chance(a, b) == table.pre_crawford[a - 1][b - 1]
    assert table.win_chance(a, b) + table.win_chance(b, a) == pytest.approx(1.0)
    if a > 1:
        assert table.win_chance(a, 1, post_crawford=True) == table.post_crawford_a[a - 1]
        assert table.win_chance(1, a, post_crawford=True) == 1 - table.post_crawford_b[a - 1]
