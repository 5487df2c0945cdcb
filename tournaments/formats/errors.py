"""Errors raised by the pure tournament formats (``docs/rules.md``, "Tournaments").

They subclass the project's domain error so the API maps them to the usual body
``{"code": ..., "detail": ..., "field": ...}`` (``core/api_errors.py``) without the Django
layer knowing anything about formats.
"""

from __future__ import annotations

from games.rules.errors import RuleViolation


class FormatError(RuleViolation):
    """A format asked for something its rules cannot give (a bracket of one entry...)."""
