"""No sentence of a browser script escapes translation (issue #41, item 9).

``tests/core/test_catalogs.py`` compares the catalogs with what ``makemessages`` finds,
and ``makemessages -d djangojs`` finds only the strings written inside ``gettext(...)``
and ``ngettext(...)``: the offline queue wrote ``say("Record game %(n)s", ...)``, which
translated at run time but was never extracted, so every one of its messages stayed
English on a German phone while the catalog checks passed. The clock's overtime tag was
a bare ``"OT"``.

This test reads every script of ``static/js`` with a small lexer (comments, strings,
template literals and regular expressions told apart) and fails on

- a string literal that reads as words (two words, or one capitalised) outside a
  ``gettext``-family call, unless it is a machine word listed below with its reason, a
  CSS class list given to ``"class"``, or a selector given to the DOM's query calls;
- a literal inside ``gettext``/``ngettext`` that is not a msgid of every ``djangojs``
  catalog (no gettext tools needed: this runs where ``test_catalogs`` is skipped).

It also reads the catalog the pages load (``/jsi18n/``) and the clock page in German,
and checks that every data attribute a script shows is one the template test reads as
words (``tests/core/test_template_strings.py``, ``SHOWN_DATA_ATTRIBUTES``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from tests.core.test_catalogs import LANGUAGES, catalog, msgids
from tests.core.test_template_strings import SHOWN_DATA_ATTRIBUTES

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))
TRANSLATORS = {"gettext", "ngettext", "pgettext", "npgettext", "gettext_noop"}
MACHINE_WORDS = {
    "use strict",  # the directive
    # HTTP header names and methods the scripts send or read
    "Content-Type",
    "Idempotency-Key",
    "Idempotent-Replayed",
    "If-Match",
    "ETag",
    "X-CSRFToken",
    "X-Score-Link",
    "GET",
    "POST",
    # DOM names: an event and a feature test
    "DOMContentLoaded",
    "PushManager",
    # the product's name (a push notice without a title), the same in every language
    "Boxcars",
}
SELECTOR_CALLS = {"matches", "querySelector", "querySelectorAll", "closest"}
CSS_CLASSES = re.compile(r"[a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)*")
WORD = re.compile(r"[^\W\d_]{2,}")
# A "/" after one of these (or at the start) opens a regular expression, not a division.
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*$")


def literals(source: str) -> list[tuple[int, str, str | None, str]]:
    """Every string literal: (line, its text as written, the function whose call holds
    it or None, the 40 characters before it). A template literal's ``${...}`` is
    replaced by a NUL."""
    found: list[tuple[int, str, str | None, str]] = []
    calls: list[str | None] = []
    i, n, last = 0, len(source), ""
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i) + 2
            continue
        if c == "/" and (last == "" or last in REGEX_AFTER):
            i, in_class = i + 1, False
            while source[i] != "/" or in_class:
                if source[i] == "\\":
                    i += 1
                elif source[i] in "[]":
                    in_class = source[i] == "["
                i += 1
            i, last = i + 1, "/"
            continue
        if c in "\"'`":
            j, text = i + 1, []
            while source[j] != c:
                if source[j] == "\\":
                    text.append(source[j : j + 2])
                    j += 2
                elif c == "`" and source.startswith("${", j):
                    j = source.index("}", j) + 1
                    text.append("\x00")
                else:
                    text.append(source[j])
                    j += 1
            line = source.count("\n", 0, i) + 1
            found.append((line, "".join(text), calls[-1] if calls else None, source[i - 40 : i]))
            i, last = j + 1, "a"
            continue
        if c == "(":
            name = IDENTIFIER.search(source[:i].rstrip())
            calls.append(name.group(0) if name else None)
        elif c == ")" and calls:
            calls.pop()
        if not c.isspace():
            last = "a" if c.isalnum() or c in "_$" else c
        i += 1
    return found


def reads_as_words(text: str) -> bool:
    return bool(WORD.search(text)) and (" " in text.strip() or text[:1].isupper())


def untranslated(source: str) -> list[tuple[int, str]]:
    return [
        (line, text)
        for line, text, call, before in literals(source)
        if call not in TRANSLATORS
        and reads_as_words(text)
        and text not in MACHINE_WORDS
        and not (CSS_CLASSES.fullmatch(text) and '"class"' in before)
        and call not in SELECTOR_CALLS
    ]


def test_the_lexer_tells_strings_from_comments_and_regular_expressions():
    source = (
        '// "Not a string" in a comment\n'
        "var a = s.replace(/%\\(\\w+\\)s/g, f); /* 'nor this' */\n"
        'var b = gettext("Keep theirs") + ngettext("%(n)s point", "%(n)s points", n);\n'
        'el("p", { "class": "big primary" }, "Left in English");\n'
        "var c = `boxcars-${id}`;\n"
    )
    assert [(t, call) for _, t, call, _ in literals(source)] == [
        ("Keep theirs", "gettext"),
        ("%(n)s point", "ngettext"),
        ("%(n)s points", "ngettext"),
        ("p", "el"),
        ("class", "el"),
        ("big primary", "el"),
        ("Left in English", "el"),
        ("boxcars-\x00", None),
    ]
    assert untranslated(source) == [(4, "Left in English")]
    # what the offline queue and the clock wrote before (issue #41): both are found
    assert untranslated('say("Record game %(n)s", {n: 2}); note = "OT";') == [
        (1, "Record game %(n)s"),
        (1, "OT"),
    ]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_sentence_of_a_script_goes_through_gettext(script: Path):
    left = untranslated(script.read_text(encoding="utf-8"))
    assert not left, f"{script.name}: English only (wrap in gettext): {left}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_a_script_translates_is_in_the_catalog(language: str):
    po = catalog(language, "djangojs")
    plurals = re.findall(r'^msgid_plural "(.*)"$', po.read_text(encoding="utf-8"), re.M)
    known = msgids(po) | set(plurals)
    asked = {
        (script.name, line, text)
        for script in SCRIPTS
        for line, text, call, _ in literals(script.read_text(encoding="utf-8"))
        if call in TRANSLATORS
    }
    assert len(asked) > 50  # the offline queue's say(gettext(...)) calls are seen
    missing = sorted(entry for entry in asked if entry[2] not in known)
    assert not missing, f"not in {language}/djangojs.po (make catalogs): {missing[:10]}"


SHOWS_DATA = re.compile(r"(?:textContent|innerText|title)\s*=[^;]*")
DATASET = re.compile(r"dataset\.(\w+)")


def test_every_data_attribute_a_script_shows_is_checked_in_the_templates():
    """A script that shows a data attribute's value (``status.textContent =
    button.dataset.done``) takes its words from the template: the template test must
    read that attribute as words, or an English ``data-done="Saved"`` would pass."""

    def dashed(name: str) -> str:
        return re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), name)

    shown = {
        "data-" + dashed(name)
        for script in SCRIPTS
        for statement in SHOWS_DATA.findall(script.read_text(encoding="utf-8"))
        for name in DATASET.findall(statement)
    }
    assert shown >= {"data-done", "data-failed", "data-blocked"}  # push-subscribe.js
    assert shown <= SHOWN_DATA_ATTRIBUTES, shown - SHOWN_DATA_ATTRIBUTES


needs_js_catalog = pytest.mark.skipif(
    not (ROOT / "locale/de/LC_MESSAGES/djangojs.mo").exists(),
    reason="the German browser catalog is not compiled (make messages)",
)


@needs_js_catalog
def test_the_offline_queues_sentences_come_in_german_from_the_catalog():
    body = Client().get("/jsi18n/?lang=de", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for german in (
        "Offline, zuletzt aktualisiert %(time)s",
        "Spiel %(next_game_number)s eintragen",
        "Abgelehnt: Dieses Match gibt es nicht mehr.",
    ):
        assert f'"{german}"' in body


@pytest.mark.django_db
def test_the_clocks_words_are_german_on_a_german_page(match, director):
    browser = Client()
    browser.force_login(director)
    page = browser.get(f"/matches/{match.pk}/clock/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    words = page.context["clock_text"]
    assert words["overtime_used"] == "Nachspielzeit genutzt"
    assert words["paused"] != "Paused" and "OT" not in words.values()
