"""Domain errors raised by the pure rules and by the services.

Every error carries a stable ``code`` (which rule was broken), a human ``message``
and, where one input is to blame, the ``field`` it came from. The API maps them to
the error body ``{"code": ..., "detail": ..., "field": ...}`` (``core/api_errors.py``).
Pure Python (no Django): the pure rule modules raise them too.
"""

from __future__ import annotations


class BoxcarsError(Exception):
    """Base of every domain error; the API answers 422 unless a subclass says otherwise."""

    status_code = 422

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "detail": self.message, "field": self.field}


class RuleViolation(BoxcarsError):
    """An input the rules of the game make impossible (a double in the Crawford game...)."""

    status_code = 400


class ConflictError(BoxcarsError):
    """The input was valid but the state has moved on (the game was already recorded)."""

    status_code = 409


class StaleVersionError(BoxcarsError):
    """An ``If-Match`` precondition failed: the client saw an older version."""

    status_code = 412


class NotAllowed(BoxcarsError):
    """The actor is known but may not do this (a player writing someone else's match)."""

    status_code = 403
