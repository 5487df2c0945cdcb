"""No visible template text escapes translation (issue #27: a German club saw English).

``tests/core/test_catalogs.py`` checks the catalogs hold a translation for every string
*marked* for translation; this test catches the strings nobody marked. It reads every
template under ``templates/`` with Django's own lexer, drops what is translated
(``{% translate %}``, the inside of ``{% blocktranslate %}``), comments and
``{% verbatim %}``, puts a placeholder where a variable or tag was, and parses what is
left as HTML: every text node outside ``<script>`` and ``<style>``, and every attribute a
person sees or hears (``title``, ``alt``, ``placeholder``, ``aria-label``, the
``hx-confirm`` question), must hold no letter. Numbers, punctuation and symbols
("·", "–", "#", "%") are fine.

The allowlist is small and each entry says why:

- ``Boxcars``: the product's name, the same in every language;
- a hyphenated lowercase name alone (``data-offline-page``, ``clock-page``): an
  attribute or class a ``{% block %}`` puts into the ``<body>`` tag, not text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(
    p for p in (ROOT / "templates").rglob("*") if p.suffix in (".html", ".txt") and p.is_file()
)
MARK = "\x00"
"""Where a variable or a translated block was: no letters."""
SKIPPED_BLOCKS = {
    "blocktranslate": "endblocktranslate",
    "blocktrans": "endblocktrans",
    "comment": "endcomment",
    "verbatim": "endverbatim",
}
HOOK_BLOCKS = {"body_class", "offline_page"}
"""Blocks whose content base.html puts inside the ``<body>`` tag: classes and attribute
names, never text (``tests/core/test_template_identifiers.py`` keeps them untranslated)."""
SHOWN_DATA_ATTRIBUTES = {"data-done", "data-failed", "data-blocked", "data-label"}
"""Data attributes whose value people read: a script puts it on the page (push-subscribe.js:
``data-done``, ``data-failed``, ``data-blocked``; ``tests/core/test_script_strings.py``
fails when a script shows another one not listed here) or the stylesheet does
(``content: attr(data-label)``, a narrow table's column name)."""
SEEN_ATTRIBUTES = {
    "title",
    "alt",
    "placeholder",
    "aria-label",
    "hx-confirm",
} | SHOWN_DATA_ATTRIBUTES
LETTER = re.compile(r"[^\W\d_]")
ALLOWED_WORDS = {"Boxcars"}
ATTRIBUTE_NAME = re.compile(r"[a-z]+(?:-[a-z]+)+")


def is_hook(words: list[str]) -> bool:
    return len(words) > 1 and words[1] in HOOK_BLOCKS


def untranslated_source(source: str) -> str:
    """The template with everything translated, and every tag and variable, blanked.

    A tag becomes a space (so ``<li{% if x %} class="a"{% endif %}>`` still parses as
    a tag), a variable or a skipped block a placeholder with no letters.
    """
    out: list[str] = []
    closing: str | None = None
    for token in Lexer(source).tokenize():
        words = token.contents.split()
        if closing is not None:
            if token.token_type == TokenType.BLOCK and words and words[0] == closing:
                closing = None
            out.append(MARK)
        elif token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif (
            token.token_type == TokenType.BLOCK
            and words[:1] == ["block"]
            and words[1:2]
            and words[1] in HOOK_BLOCKS
        ):
            closing = "endblock"
            out.append(MARK)
        elif token.token_type == TokenType.BLOCK and words and words[0] in SKIPPED_BLOCKS:
            closing = SKIPPED_BLOCKS[words[0]]
            out.append(MARK)
        elif token.token_type == TokenType.BLOCK:
            out.append(" ")
        else:
            out.append(MARK)
    return "".join(out)


def has_words(text: str) -> bool:
    rest = text.replace(MARK, " ").strip()
    if ATTRIBUTE_NAME.fullmatch(rest):
        return False
    for word in ALLOWED_WORDS:
        rest = rest.replace(word, "")
    return bool(LETTER.search(rest))


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_code = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.in_code += 1
        for name, value in attrs:
            if name in SEEN_ATTRIBUTES and value and has_words(value):
                self.found.append(f'{name}="{value.replace(MARK, "{…}")}"')

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.in_code:
            self.in_code -= 1

    def handle_data(self, data: str) -> None:
        if not self.in_code and has_words(data):
            self.found.append(" ".join(data.replace(MARK, "{…}").split()))


def untranslated(source: str) -> list[str]:
    finder = _Finder()
    finder.feed(untranslated_source(source))
    finder.close()
    return finder.found


@pytest.mark.parametrize(
    "template", TEMPLATES, ids=[str(p.relative_to(ROOT / "templates")) for p in TEMPLATES]
)
def test_every_visible_string_of_the_template_is_translated(template: Path) -> None:
    found = untranslated(template.read_text(encoding="utf-8"))
    assert not found, (
        f"{template.relative_to(ROOT)} shows text outside {{% translate %}} / "
        f"{{% blocktranslate %}} (wrap it, then `make catalogs` and translate): {found}"
    )


DEFAULT_LITERAL = re.compile(r"""\|default(?:_if_none)?:(?:"([^"]*)"|'([^']*)')""")
"""A filter's fallback text (``|default:"in play"``): shown to people, never translated."""
IDENTIFIER_DEFAULTS = {"main"}
"""Fallbacks that are identifiers, not text: the money page's pool key field."""


def untranslated_defaults(source: str) -> list[str]:
    found = []
    for match in DEFAULT_LITERAL.finditer(source):
        text = match[1] if match[1] is not None else match[2]
        if LETTER.search(text) and text not in IDENTIFIER_DEFAULTS:
            found.append(match[0])
    return found


@pytest.mark.parametrize(
    "template", TEMPLATES, ids=[str(p.relative_to(ROOT / "templates")) for p in TEMPLATES]
)
def test_no_fallback_text_of_the_template_is_english(template: Path) -> None:
    """``{{ s.place|default:"in play" }}`` showed "in play" on German standings; a
    fallback with words is written ``{% if %}...{% else %}{% translate %}``."""
    found = untranslated_defaults(template.read_text(encoding="utf-8"))
    assert not found, f"{template.relative_to(ROOT)} falls back to English text: {found}"


def test_the_fallback_scan_flags_words_only() -> None:
    source = """{{ a|default:"in play" }}{{ b|default:'0' }}{{ c|default_if_none:"–" }}"""
    assert untranslated_defaults(source) == ['|default:"in play"']


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ("<p>Hello</p>", ["Hello"]),
        ('<button aria-label="Close {{ name }}">×</button>', ['aria-label="Close {…}"']),
        ('<p>{% translate "Hello" %} · {{ n }}</p>', []),
        ("{% blocktranslate %}Hello {{ name }}{% endblocktranslate %}", []),
        ("{% comment %}A note{% endcomment %}<script>let a = 1;</script>", []),
        ('<li{% if mine %} class="mine"{% endif %}>{{ name }}</li>', []),
        ("{% if x %}Yes{% else %}{% translate 'No' %}{% endif %}", ["Yes"]),
        ("<title>{% block title %}Boxcars{% endblock %} · Boxcars</title>", []),
        ("{% block offline_page %} data-offline-page{% endblock %}", []),
        ("{% block body_class %}screen{% endblock %}", []),
        # a data attribute a script or the stylesheet shows is words; another is data
        ('<button data-done="Saved" data-api="/api/">', ['data-done="Saved"']),
        ('<button data-done="{% translate \'Saved\' %}" data-key="Abc">', []),
    ],
)
def test_the_finder_flags_untranslated_text_only(source: str, flagged: list[str]) -> None:
    assert untranslated(source) == flagged
