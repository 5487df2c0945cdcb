"""Names and titles are one line of text: the rule, and the cleaning of old rows.

A name typed by a user reaches places where a line break is structure, not text: an
email's subject (``Evil\\r\\nBcc: x@example.net`` would be a second header, so Django
refuses to send with ``BadHeaderError``), a CSV or ``.mat`` file, a log line. So every
name and title a user gives (players, clubs, tournaments, pools and Calcutta lots,
chouette sessions, match labels) refuses *control characters*: Unicode category Cc (C0
and C1 controls: CR, LF, tab, NUL, ESC, NEL...) and the line and paragraph separators
U+2028 and U+2029 (categories Zl, Zp), which some readers break lines on too.

:func:`one_line` is the cleaning, for what was stored before the rule (the data
migrations) and for an email subject built from stored text (``core.mail.subject``):
each such character becomes a space and runs of whitespace one space.

Pure code: no Django (``core.validators.single_line`` is the same rule as a Django
validator; :func:`require_single_line` as a domain error for the services).
"""

from __future__ import annotations

import unicodedata

from core.errors import N_, RuleViolation

#: The Unicode categories refused in a name: controls, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})

#: The same characters as a regular expression for the database's ``__regex`` lookup
#: (PostgreSQL's and Python's syntax alike): Cc is U+0000-001F and U+007F-009F, Zl is
#: U+2028, Zp U+2029 (NUL left out: PostgreSQL text cannot hold it anyway).
CONTROL_PATTERN = r"[\x01-\x1f\x7f-\x9f\u2028\u2029]"

#: The message shown next to the field (and in the API's ``detail``).
MESSAGE = N_("A name is one line of text: no line breaks, tabs or other control characters.")

CODE = "control_characters"


def is_control(character: str) -> bool:
    """Whether ``character`` may not appear in a name (see the module)."""
    return unicodedata.category(character) in REFUSED_CATEGORIES


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds any character a name may not."""
    return any(is_control(c) for c in text)


def one_line(text: str) -> str:
    """``text`` with each control character a space, whitespace runs single, trimmed."""
    return " ".join("".join(" " if is_control(c) else c for c in text).split())


def require_single_line(text: str, *, field: str) -> str:
    """``text`` unchanged, or a 400 ``control_characters`` naming ``field``."""
    if has_control_characters(text):
        raise RuleViolation(CODE, MESSAGE, field=field)
    return text
