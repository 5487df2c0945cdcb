"""The one-line rule for names (``core.text``), without a database."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import RuleViolation
from core.text import CONTROL_PATTERN, has_control_characters, one_line, require_single_line


@given(st.text())
def test_one_line_leaves_no_control_character_and_no_double_space(text):
    cleaned = one_line(text)
    assert not has_control_characters(cleaned)
    assert "  " not in cleaned and cleaned == cleaned.strip()
    assert one_line(cleaned) == cleaned


@given(st.characters())
def test_the_database_pattern_is_the_same_rule(character):
    """The migrations filter with CONTROL_PATTERN: it finds what the rule refuses (NUL aside)."""
    if character == "\x00":
        return
    expected = unicodedata.category(character) in ("Cc", "Zl", "Zp")
    assert bool(re.search(CONTROL_PATTERN, character)) is expected


@pytest.mark.parametrize("name", ["Ann\r\nBcc: x", "a\tb", "\x1b[2J", "x\u2029y", "\x85"])
def test_require_single_line_names_the_field(name):
    with pytest.raises(RuleViolation) as refused:
        require_single_line(name, field="name")
    assert (refused.value.code, refused.value.field) == ("control_characters", "name")


@pytest.mark.parametrize("name", ["Ann Smith", "Søren Ærø", "=HYPERLINK()", "名前", "O'Brien"])
def test_ordinary_names_pass(name):
    assert require_single_line(name, field="name") == name
