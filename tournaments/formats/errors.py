"""Errors raised by the pure tournament formats (DESIGN.md section 3.6).

They subclass the project's domain error so the API maps them to the usual body
``{"code": ..., "detail": ..., "field": ...}`` (DESIGN.md section 2) without the Django
layer knowing anything about formats.
"""

from __future__ import annotations

from games.rules.errors import RuleViolation


class FormatError(RuleViolation):
    """A format asked for something its rules cannot give (a bracket of one entry...)."""
