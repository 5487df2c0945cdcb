"""Domain errors raised by the pure rules and by the services.

Every error carries a stable ``code`` (which rule was broken), a human ``message``
and, where one input is to blame, the ``field`` it came from. The API maps them to
the error body ``{"code": ..., "detail": ..., "field": ...}`` (``core/api_errors.py``).
Pure Python (no Django): the pure rule modules raise them too. A message is written in
English through :func:`N_`, which keeps its template and values apart so the API can
answer in the client's language (``core/api_errors.py`` translates the template, then
fills it in); the ``code`` and ``field`` never change with the language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# The catalog lookup, installed by the Django side (core/apps.py) when translation is on.
_translators: list[Callable[[str], str]] = []


def install_translator(translate: Callable[[str], str]) -> None:
    """Let ``str(text)`` answer in the active language (pages and API show it so)."""
    _translators[:] = [translate]


class Text(str):
    """An English message that remembers its template and values, for translation later.

    It *is* the English sentence (so logs, tests and ``str()`` read as before); the
    API's error handler looks the ``template`` up in the catalog and fills in ``params``.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Text:
        # A value that is itself a Text (a stage's name in a match's label) is taken in
        # English here: ``%`` would call its ``__str__``, the active language's wording.
        english = {k: str.__str__(v) if isinstance(v, Text) else v for k, v in params.items()}
        text = super().__new__(cls, template % english if params else template)
        text.template = template
        text.params = params
        return text

    def __str__(self) -> str:
        """The message in the active language: the template translated, then filled in.

        Comparison, hashing and JSON see the English sentence; only rendering (a page,
        the API's error body) asks for the translation.
        """
        if not _translators:
            return str.__str__(self)
        template = _translators[0](self.template)
        if not self.params:
            return template
        try:
            return template % self.params
        except (KeyError, TypeError, ValueError):
            return str.__str__(self)


def listing(items: Iterable[str], separator: str = ", ") -> Text:
    """Items one after the other, each translated when the whole is: a plain
    ``separator.join`` of Texts would keep only their English."""
    parts = list(items)
    template = separator.join(f"%(item{k})s" for k in range(len(parts)))
    return Text(template, **{f"item{k}": part for k, part in enumerate(parts)})


def N_(template: str, /, **params: Any) -> Text:
    """Mark an error message for translation (``makemessages`` extracts ``N_("...")``).

    Placeholders are ``%(name)s`` filled from keyword arguments, never concatenation, so
    a translation can move them where its grammar wants them.
    """
    return Text(template, **params)


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
