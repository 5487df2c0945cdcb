"""What every email the project sends has in common: a subject stored text cannot break.

A subject is built from names users typed (a tournament, a club, a player). Names are
checked when they are written (``core.text``), but a row stored before that rule, or
written by a door that forgot it, must still not stop the email: Django refuses a
header with CR or LF (``BadHeaderError``), so a round call would fail for every player,
and a dispute notice forever. Every sender builds its subject with :func:`subject`.
"""

from __future__ import annotations

from core.text import one_line


def subject(text: str) -> str:
    """``text`` as an email subject: one line, control characters made spaces."""
    return one_line(str(text))


#: How much of a user's text a subject or a greeting carries: a name, not a message.
QUOTED_LENGTH = 60


def quoted(text: str) -> str:
    """A user's text (a club's, a tournament's name) inside our own words: one line,
    control characters made spaces, cut to :data:`QUOTED_LENGTH`, in quotation marks.

    A subject is our sentence with a name in it; quoting the name shows the reader which
    words a user chose, and the cut keeps a sender from writing a message of their own
    into our subject line (issue #37, item 3).
    """
    clean = one_line(str(text))
    if len(clean) > QUOTED_LENGTH:
        clean = clean[: QUOTED_LENGTH - 1].rstrip() + "…"
    return f"“{clean}”"
