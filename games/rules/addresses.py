"""E-mail addresses in one normal form, so that two spellings of one mailbox are one
address and a look-alike is never taken for somebody else's.

Why: a club founder is a stranger. Matching an invited address with the database's
case folding (``email__iexact``; PostgreSQL's ``UPPER`` folds the dotless ``ı`` to
``I``) took ``victor@maıl.example`` for ``victor@mail.example`` and mailed Victor's
set-password link to the look-alike. Every comparison of addresses now goes through
:func:`normalize` and compares the stored result exactly.

The rule (``docs/directors.md``, "Addresses"):

- the **domain** is IDNA (UTS 46 mapping, then IDNA 2008): its Unicode and its
  ``xn--`` punycode spellings, any case and fullwidth forms, are one domain, kept in
  its ASCII (punycode) form;
- the **local part** is NFKC, then case-folded, then NFKC again (Unicode's
  NFKC_Casefold in effect): ``ſ`` (long s) is ``s``, ``K`` (the Kelvin sign) is ``k``,
  fullwidth letters are their ASCII letters;
- a local part that mixes scripts (a Cyrillic ``а`` in a Latin name) is refused, and so
  is one holding a letter made to look like an ASCII letter (the dotless ``ı``, Latin
  alpha ``ɑ``), or one written wholly in letters that each look like ASCII letters
  (Cyrillic ``аре``). Whether a letter looks like another is Unicode's confusables
  table (UTS 39) as the ``confusable_homoglyphs`` package ships it.

Pure Python (no Django): the services call it, the tests try it exhaustively.
"""

from __future__ import annotations

import unicodedata

import idna
from confusable_homoglyphs import categories, confusables

from core.errors import N_

from .errors import RuleViolation

MAX_ADDRESS = 254
MAX_LOCAL = 64
#: Scripts every local part may hold besides its own: digits and punctuation.
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})


NOT_A_DOMAIN = "The part after @ is not a domain name (example.org)."
INVALID = "That is not an e-mail address (name@example.org)."


def _nfkc_casefold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _looks_ascii(char: str) -> bool:
    """Whether Unicode's confusables table lists an ASCII look-alike for ``char``."""
    found = confusables.is_confusable(char, greedy=True, preferred_aliases=[]) or []
    return any(h["c"].isascii() for item in found for h in item["homoglyphs"])


def _scripts(local: str) -> set[str]:
    return {categories.alias(char) for char in local} - SHARED_SCRIPTS


def check_local(local: str, field: str = "email") -> str:
    """The local part in normal form, or a :class:`RuleViolation` naming ``field``."""
    if not local:
        raise RuleViolation("email_invalid", N_(INVALID), field)
    folded = _nfkc_casefold(local)
    if any(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in folded):
        raise RuleViolation(
            "email_invalid", N_("An e-mail address holds no spaces or control characters."), field
        )
    if "@" in folded or len(folded) > MAX_LOCAL:
        raise RuleViolation("email_invalid", N_(INVALID), field)
    if len(_scripts(folded)) > 1:
        raise RuleViolation(
            "email_mixed_scripts",
            N_(
                "The part before @ mixes alphabets (for instance a Cyrillic letter in a Latin "
                "name): type the address again in one alphabet."
            ),
            field,
        )
    odd = [ch for ch in folded if not ch.isascii()]
    if odd and "LATIN" in _scripts(folded) and any(_looks_ascii(ch) for ch in odd):
        raise RuleViolation(
            "email_confusable",
            N_(
                "The part before @ holds a letter made to look like another (such as a "
                "dotless i): type the address with plain letters."
            ),
            field,
        )
    letters = [ch for ch in folded if ch.isalpha()]
    if odd and letters and all(not ch.isascii() and _looks_ascii(ch) for ch in letters):
        raise RuleViolation(
            "email_confusable",
            N_(
                "The part before @ is written in letters that look like Latin ones: type the "
                "address with plain letters."
            ),
            field,
        )
    return folded


def check_domain(domain: str, field: str = "email") -> str:
    """The domain in its ASCII (punycode) form, or a :class:`RuleViolation`."""
    try:
        ascii_domain = idna.encode(domain.removesuffix("."), uts46=True, std3_rules=True).decode(
            "ascii"
        )
    except (idna.IDNAError, UnicodeError):
        raise RuleViolation("email_invalid", N_(NOT_A_DOMAIN), field) from None
    ascii_domain = ascii_domain.lower()
    if "." not in ascii_domain.strip("."):
        raise RuleViolation("email_invalid", N_(NOT_A_DOMAIN), field)
    return ascii_domain


def normalize(address: str, field: str = "email") -> str:
    """The one form of ``address`` that comparisons and the stored column use.

    Raises :class:`RuleViolation` (naming ``field``) for a malformed, mixed-script or
    confusable address."""
    text = unicodedata.normalize("NFKC", address).strip()  # a fullwidth ＠ is an @
    local, at, domain = text.rpartition("@")
    if not at:
        raise RuleViolation("email_invalid", N_(INVALID), field)
    normal = f"{check_local(local, field)}@{check_domain(domain, field)}"
    if len(normal) > MAX_ADDRESS:
        raise RuleViolation(
            "email_too_long",
            N_("An e-mail address is at most %(n)s characters.", n=MAX_ADDRESS),
            field,
        )
    return normal


def same_address(first: str, second: str) -> bool:
    """Whether two addresses are one (both valid and equal in normal form)."""
    try:
        return normalize(first) == normalize(second)
    except RuleViolation:
        return False
