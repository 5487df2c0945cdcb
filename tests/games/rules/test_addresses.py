"""The one normal form of an e-mail address (games.rules.addresses), tried exhaustively:
every spelling of one mailbox gives one form, and no look-alike survives it."""

from __future__ import annotations

import string
import sys
import unicodedata

import idna
import pytest
from confusable_homoglyphs import categories
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.addresses import normalize, same_address
from games.rules.errors import RuleViolation

LOCAL_CHARS = string.ascii_letters + string.digits + ".+-_"
ascii_local = st.text(LOCAL_CHARS, min_size=1, max_size=20).filter(
    lambda s: not s.startswith(".") and not s.endswith(".") and ".." not in s
)
label = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=12)
ascii_domain = st.lists(label, min_size=1, max_size=3).map(lambda ls: ".".join([*ls, "example"]))
unicode_label = st.sampled_from(["maıl", "bücher", "café", "почта", "例え", "straße", "ñandú"])


def fullwidth(text: str) -> str:
    """The fullwidth forms (U+FF01..U+FF5E) of the printable ASCII in ``text``."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("Victor@Mail.Example", "victor@mail.example"),
        ("victor@maıl.example", "victor@xn--mal-kua.example"),  # dotless ı: another domain
        ("victor@xn--mal-kua.example", "victor@xn--mal-kua.example"),
        ("VICTOR@XN--MAL-KUA.EXAMPLE", "victor@xn--mal-kua.example"),
        ("ſam@mail.example", "sam@mail.example"),  # long s is s
        ("\u212aate@mail.example", "kate@mail.example"),  # the Kelvin sign is k
        ("ｖｉｃｔｏｒ@ｍａｉｌ.example", "victor@mail.example"),  # fullwidth
        ("ADMIN@example.org", "admin@example.org"),
        (" admin@example.org. ", "admin@example.org"),
        ("Straße@x.example", "strasse@x.example"),
        ("jörg@bücher.example", "jörg@xn--bcher-kva.example"),
        ("иван@почта.рф", "иван@xn--80a1acny.xn--p1ai"),  # one script, not look-alikes
    ],
)
def test_spellings_of_one_mailbox_give_one_form(typed, normal):
    assert normalize(typed) == normal


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("vıctor@mail.example", "email_confusable"),  # dotless ı in the local part
        ("vаsya@mail.example", "email_mixed_scripts"),  # Cyrillic а in a Latin name
        ("аре@mail.example", "email_confusable"),  # wholly Cyrillic look-alikes of "ape"
        ("ɑdmin@example.org", "email_confusable"),  # Latin alpha
        ("a b@example.org", "email_invalid"),
        ("a\u200bb@example.org", "email_invalid"),  # zero-width space
        ("a\x00@example.org", "email_invalid"),
        ("admin", "email_invalid"),
        ("@example.org", "email_invalid"),
        ("admin@localhost", "email_invalid"),
        ("admin@-x-.org", "email_invalid"),
        ("x" * 65 + "@example.org", "email_invalid"),
        ("x" * 64 + "@" + ".".join(["a" * 47] * 4) + ".org", "email_too_long"),
    ],
)
def test_look_alikes_and_malformed_addresses_are_refused_in_words_naming_the_field(typed, code):
    with pytest.raises(RuleViolation) as refused:
        normalize(typed, field="director-email")
    assert refused.value.code == code
    assert refused.value.field == "director-email"
    assert str(refused.value.message).endswith(".")


@given(ascii_local, ascii_domain)
def test_case_and_fullwidth_spellings_are_one_address(local, domain):
    address = f"{local}@{domain}"
    expected = address.lower()
    assert normalize(address) == expected
    assert normalize(address.upper()) == expected
    assert normalize(address.swapcase()) == expected
    assert normalize(fullwidth(address)) == expected
    assert same_address(address, fullwidth(address.upper()))


@given(ascii_local, unicode_label, ascii_domain)
def test_unicode_and_punycode_domains_are_one_domain(local, unicode, rest):
    domain = f"{unicode}.{rest}"
    punycode = idna.encode(domain, uts46=True).decode()
    assert normalize(f"{local}@{domain}") == normalize(f"{local}@{punycode}")
    assert normalize(f"{local}@{domain}") == normalize(f"{local.upper()}@{punycode.upper()}")
    assert normalize(f"{local}@{domain}").isascii()


@settings(max_examples=400)
@given(st.text(max_size=40))
def test_anything_typed_is_either_refused_in_words_or_a_stable_form(typed):
    try:
        normal = normalize(typed)
    except RuleViolation as refused:
        assert refused.code.startswith("email_") and refused.field == "email"
        return
    assert normalize(normal) == normal  # idempotent: the stored form is its own form
    local, _, domain = normal.rpartition("@")
    assert domain.isascii() and domain == domain.lower()
    assert unicodedata.normalize("NFKC", local.casefold()) == local
    assert len({categories.alias(c) for c in local} - {"COMMON", "INHERITED"}) <= 1


@settings(max_examples=300)
@given(st.text(min_size=1, max_size=12), ascii_domain)
def test_a_stored_form_matches_only_addresses_with_that_form(local, domain):
    """Two addresses are one exactly when their normal forms are equal (no other path)."""
    address = f"{local}@{domain}"
    try:
        normal = normalize(address)
    except RuleViolation:
        assert not same_address(address, address)
        return
    assert same_address(address, normal)
    assert same_address(address, address.upper()) == (normalize_or_none(address.upper()) == normal)


def normalize_or_none(address: str) -> str | None:
    try:
        return normalize(address)
    except RuleViolation:
        return None


def test_no_character_turns_into_an_ascii_look_alike_in_a_latin_name():
    """Every code point of the Basic Multilingual Plane, one at a time inside a Latin
    name: either it is refused, or what is stored is plain ASCII, or it holds no
    character Unicode lists as a look-alike of an ASCII one (exhaustive, not sampled)."""
    from games.rules.addresses import _looks_ascii

    kept = 0
    for point in range(0x80, 0x10000):
        char = chr(point)
        if unicodedata.category(char) in ("Cs", "Co", "Cn"):
            continue
        normal = normalize_or_none(f"ab{char}cd@example.org")
        if normal is None:
            continue
        local = normal.rpartition("@")[0]
        odd = [c for c in local if not c.isascii()]
        assert not any(_looks_ascii(c) for c in odd), (hex(point), normal)
        kept += bool(odd)
    assert kept > 100  # accented letters (é, ö, ø ...) are kept: names are not ASCII only
    assert sys.maxunicode > 0xFFFF
