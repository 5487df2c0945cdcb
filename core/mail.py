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
