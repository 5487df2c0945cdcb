"""No machine identifier goes through the catalogs (issue #41, item 4).

The big screen's body class was ``{% translate "screen" %}``: German, French and Danish
pages got ``class="Bildschirm"`` (``écran``, ``skærm``) and none of the screen's styles
applied. A class, an id, a ``for``/``name`` reference, a path, an htmx target, a data
attribute's *name* or a ``{% block %}`` whose content lands inside such an attribute is
for the browser and the scripts, not for people: translating it breaks the page in every
language but English, and no catalog check can see it.

This test reads every template with Django's lexer, replaces each ``{% translate %}`` /
``{% blocktranslate %}`` with a marker, and parses the result as HTML. It fails on a
marker inside an identifier attribute, inside an attribute *name*, or inside a
``{% block %}`` that some template places inside an identifier attribute
(``<body class="{% block body_class %}{% endblock %}">``). Words people read stay
translatable wherever they sit: ``title``, ``alt``, ``aria-label``, ``placeholder``,
``hx-confirm``, and data attributes whose value a script shows (``data-label``,
``data-done``...).

It also scans the Python sources for a gettext call whose result is put into a CSS
class (``"class": _("...")``, ``css_class = _(...)``, ``classes.append(_(...))``).
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
APPS = ("analysis", "chouette", "clubdata", "config", "core", "games", "money", "tournaments")
PY_SOURCES = sorted(
    p
    for top in (
        "analysis",
        "chouette",
        "clubdata",
        "config",
        "core",
        "games",
        "money",
        "tournaments",
    )
    for p in (ROOT / top).rglob("*.py")
    if "migrations" not in p.parts
)
TRANSLATED = "\x01"
"""Where a translated string was."""
BLOCK_OPEN = "\x02"
"""Where ``{% block NAME %}`` opened: followed by its name and another ``BLOCK_OPEN``."""

IDENTIFIER_ATTRIBUTES = {
    "class",
    "id",
    "for",
    "name",
    "form",
    "list",
    "headers",
    "href",
    "src",
    "action",
    "formaction",
    "method",
    "type",
    "rel",
    "role",
    "lang",
    "itemprop",
    "slot",
    "aria-controls",
    "aria-describedby",
    "aria-labelledby",
    "aria-owns",
}
"""Attributes the browser, the CSS or a script reads as a name, never as text."""
IDENTIFIER_PREFIXES = ("hx-", "data-")
"""htmx targets and swaps, and data attributes: identifiers unless listed below."""
WORD_ATTRIBUTES = {"hx-confirm", "hx-prompt"}
"""htmx attributes whose value a person reads."""
WORD_DATA = re.compile(
    r"data-(label|done|failed|blocked|text|message|msg|confirm|title|hint|help|"
    r"[a-z-]*-(label|text|message|title|hint|word|words|prompt))"
)
"""Data attributes whose value a script shows to people (a label, a message)."""
TRANSLATE_TAGS = {"translate", "trans"}
BLOCK_TRANSLATE = {"blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans"}
SKIPPED = {"comment": "endcomment", "verbatim": "endverbatim"}


def marked_source(source: str) -> str:
    """The template with translations as ``TRANSLATED``, block openings marked, tags blank."""
    out: list[str] = []
    closing: str | None = None
    for token in Lexer(source).tokenize():
        words = token.contents.split()
        if closing is not None:
            if token.token_type == TokenType.BLOCK and words and words[0] == closing:
                closing = None
            continue
        if token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif token.token_type != TokenType.BLOCK or not words:
            out.append("0")
        elif words[0] in TRANSLATE_TAGS:
            out.append(" " if "as" in words[2:] else TRANSLATED)
        elif words[0] in BLOCK_TRANSLATE:
            closing = BLOCK_TRANSLATE[words[0]]
            out.append(" " if "asvar" in words else TRANSLATED)
        elif words[0] in SKIPPED:
            closing = SKIPPED[words[0]]
        elif words[0] == "block" and len(words) > 1:
            out.append(f"{BLOCK_OPEN}{words[1]}{BLOCK_OPEN}")
        else:
            out.append(" ")
    return "".join(out)


def is_identifier_attribute(name: str) -> bool:
    if name in WORD_ATTRIBUTES or WORD_DATA.fullmatch(name):
        return False
    return name in IDENTIFIER_ATTRIBUTES or name.startswith(IDENTIFIER_PREFIXES)


BLOCK_NAME = re.compile(f"{BLOCK_OPEN}([^{BLOCK_OPEN}]+){BLOCK_OPEN}")


class _Finder(HTMLParser):
    """Translated markers in identifier places, and the blocks that sit in such places."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hook_blocks: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            shown = name.replace(TRANSLATED, "{% translate %}")
            if BLOCK_OPEN in name:
                self.hook_blocks.update(BLOCK_NAME.findall(name))
            if TRANSLATED in name:
                self.found.append(f"<{tag}> attribute name {shown!r}")
            if TRANSLATED in name or BLOCK_OPEN in name:
                continue
            if not value or not is_identifier_attribute(name):
                continue
            self.hook_blocks.update(BLOCK_NAME.findall(value))
            if TRANSLATED in value:
                self.found.append(
                    f'<{tag} {name}="{value.replace(TRANSLATED, "{% translate %}")}">'
                )

    handle_startendtag = handle_starttag


def scan(source: str) -> tuple[list[str], set[str]]:
    """What the template translates in identifier places, and its hook blocks."""
    finder = _Finder()
    finder.feed(marked_source(source))
    finder.close()
    return finder.found, finder.hook_blocks


def translated_blocks(source: str) -> set[str]:
    """The ``{% block %}`` names whose own content holds a translation."""
    found: set[str] = set()
    stack: list[str] = []
    for token in Lexer(source).tokenize():
        if token.token_type != TokenType.BLOCK:
            continue
        words = token.contents.split()
        if words[0] == "block" and len(words) > 1:
            stack.append(words[1])
        elif words[0] == "endblock" and stack:
            stack.pop()
        elif stack and (words[0] in TRANSLATE_TAGS or words[0] in BLOCK_TRANSLATE):
            found.add(stack[-1])
    return found


def _all_hook_blocks() -> set[str]:
    hooks: set[str] = set()
    for template in TEMPLATES:
        hooks |= scan(template.read_text(encoding="utf-8"))[1]
    return hooks


HOOK_BLOCKS = _all_hook_blocks()


def test_the_body_class_block_is_known_as_a_hook() -> None:
    """The scan must see base.html's ``<body class="{% block body_class %}">``."""
    assert "body_class" in HOOK_BLOCKS


@pytest.mark.parametrize(
    "template", TEMPLATES, ids=[str(p.relative_to(ROOT / "templates")) for p in TEMPLATES]
)
def test_no_identifier_of_the_template_is_translated(template: Path) -> None:
    source = template.read_text(encoding="utf-8")
    found, _hooks = scan(source)
    found += [
        f"{{% block {name} %}} (it lands in an identifier attribute)"
        for name in sorted(translated_blocks(source) & HOOK_BLOCKS)
    ]
    assert not found, (
        f"{template.relative_to(ROOT)} translates a machine identifier (a class, id, "
        f"path or data key must read the same in every language): {found}"
    )


CLASS_GETTEXT = re.compile(
    r"""(?x)
    (?:["'](?:class|css|css_class|classes|tone|style)["']\s*:\s*   # "class": _("...")
      |\b(?:css_class|class_name|classes|tone|body_class)\s*=\s*    # css_class = _(...)
      |\bclasses\.(?:append|add)\(\s*                               # classes.append(_(...))
    )
    (?:gettext(?:_lazy)?|pgettext(?:_lazy)?|_|N_)\s*\(
    """
)


@pytest.mark.parametrize("source", PY_SOURCES, ids=[str(p.relative_to(ROOT)) for p in PY_SOURCES])
def test_no_python_code_translates_a_css_class(source: Path) -> None:
    found = [
        f"{source.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1)
        if CLASS_GETTEXT.search(line)
    ]
    assert not found, f"a CSS class goes through gettext: {found}"


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ('<div class="{% translate "screen" %}">', ['<div class="{% translate %}">']),
        ('<a href="/{% trans "events" %}/">x</a>', ['<a href="/{% translate %}/">']),
        ("<p id='{% translate \"x\" %}'></p>", ['<p id="{% translate %}">']),
        ('<p data-{% translate "kind" %}="1"></p>', ["<p> attribute name 'data-{% translate %}'"]),
        (
            '<b data-state="{% blocktranslate %}on{% endblocktranslate %}">',
            ['<b data-state="{% translate %}">'],
        ),
        ('<b data-label="{% translate "Table" %}" title="{% translate "T" %}">', []),
        ('<b aria-label="{% translate "Close" %}" data-done="{% translate "Done" %}">', []),
        ('<b class="tag{% if x %} ok{% endif %}">{% translate "open" %}</b>', []),
        ('{% translate "x" as label %}<b class="{{ label }}">', []),
    ],
)
def test_the_scan_flags_translated_identifiers_only(source: str, flagged: list[str]) -> None:
    assert scan(source)[0] == flagged


def test_a_translated_hook_block_is_flagged() -> None:
    base = '<body class="{% block body_class %}{% endblock %}">'
    child = (
        '{% block body_class %}{% translate "screen" %}{% endblock %}'
        '{% block title %}{% translate "T" %}{% endblock %}'
    )
    assert scan(base)[1] == {"body_class"}
    assert translated_blocks(child) == {"body_class", "title"}
    assert translated_blocks(child) & scan(base)[1] == {"body_class"}
