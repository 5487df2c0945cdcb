"""The tournament options registry: every option of an event declared once (pure, no Django).

An option is a ``Tournament`` field a director sets when creating or changing an event:
its name, its type, its bounds, the create page's starting value, its words (label and
help, as lazy translations, and the schema's description) and where it shows. The
declarations are :mod:`tournaments.option_catalog`; ``tournaments/wiring.py`` hands them
to :func:`register`. From them come the services' configuration read
(``services.events``: which fields a configuration holds, which may change once the
event has started), the API's input fields (``api.serializers.ConfigSerializer``), the
create and settings pages' fields (``forms``, ``event_settings_form``) and the create
page's groups of format options (``templates/tournaments/new.html`` loops over them).
Which formats read an option is the formats' own declaration
(``FormatSpec.options``); :func:`formats_reading` reads it from there, so adding a
format changes no option. ``tests/tournaments/test_options.py`` fails when a registered
option lacks a part.

Adding an option: a ``Tournament`` field and its migration, one declaration in the
catalog, its name in the ``options`` of the formats that read it
(``docs/development.md``, "Adding a tournament option").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class OptionKind(StrEnum):
    """How an option is typed, in the API and on the page."""

    TEXT = "text"  # a single line
    DATE = "date"
    BOOL = "bool"
    INT = "int"  # bounded by minimum and maximum
    CHOICE = "choice"  # one of ``choices``
    ROUNDS = "rounds"  # a list of round numbers (typed "1, 2" on the page)
    NAMES = "names"  # a list of names (typed "reversed, half_swapped" on the page)
    SHAPE = "shape"  # a JSON column of its own shape (``api.config_shapes.<shape>``)


#: The kinds a page shows as one text field and a list in the API.
LIST_KINDS = (OptionKind.ROUNDS, OptionKind.NAMES)


@dataclass(frozen=True)
class OptionGroup:
    """A fieldset of the create page's format options: its legend and the words saying
    which formats it serves; ``pair`` shows its fields side by side."""

    key: str
    legend: Any  # a lazy translation
    serves: Any  # a lazy translation: "(single elimination)"
    pair: bool = False


@dataclass(frozen=True)
class TournamentOption:
    """One option of an event, as every layer needs it.

    ``label`` and ``help`` are the page's words (lazy translations; no label: no field
    of its own on a page, as ``tie_breaks``, ``match_lengths`` and ``clock_rounds``,
    which the pages build from several fields); ``api_help`` is the schema's description
    (English, as the API's readers have it). ``minimum`` and ``maximum`` bound an
    integer; ``nullable`` makes None a value ("no cap"). ``choices`` gives the API's
    values and names, ``page_choices`` the page's when they differ. ``group`` places a
    format option in a fieldset of the create page (:class:`OptionGroup`); ``page``
    says which form shows the others (``"event"``: the create page's own fieldsets,
    ``"settings"``: the create and settings pages' weekend settings, ``""``: none).
    ``any_time`` options may change once the event has started (the name, the dates,
    the prize order, the clocks). ``shape`` names the ``api.config_shapes`` field of a
    JSON column (and of a list kind).
    """

    name: str
    kind: OptionKind
    label: Any = ""
    help: Any = ""
    api_help: str = ""
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    nullable: bool = False
    initial: Any = None
    choices: Callable[[], Sequence[tuple[str, Any]]] | None = None
    page_choices: Callable[[], Sequence[tuple[str, Any]]] | None = None
    group: str = ""
    page: str = ""
    any_time: bool = False
    shape: str = ""

    def __post_init__(self) -> None:
        if self.kind == OptionKind.INT and (self.minimum is None or self.maximum is None):
            raise ValueError(f"{self.name}: an integer option states its bounds.")
        if self.kind == OptionKind.TEXT and self.max_length is None:
            raise ValueError(f"{self.name}: a text option states its length.")
        if self.kind == OptionKind.CHOICE and self.choices is None:
            raise ValueError(f"{self.name}: a choice option states its choices.")
        if self.kind in (OptionKind.SHAPE, *LIST_KINDS) and not self.shape:
            raise ValueError(f"{self.name}: a list or JSON option names its shape.")
        if self.group and self.page:
            raise ValueError(f"{self.name}: an option shows in a format group or on a page.")
        if (self.group or self.page) and self.kind != OptionKind.SHAPE and not self.label:
            raise ValueError(f"{self.name}: an option shown on a page has a label.")


_OPTIONS: dict[str, TournamentOption] = {}
_GROUPS: dict[str, OptionGroup] = {}
#: Other apps' rules on when an option may change, by option (see register_change_guard).
_GUARDS: dict[str, dict[str, Callable[[Any], None]]] = {}


def register(groups: Sequence[OptionGroup], options: Sequence[TournamentOption]) -> None:
    """Declare the create page's groups and the options (``tournaments/wiring.py``, once)."""
    for group in groups:
        if group.key in _GROUPS:
            raise ValueError(f"option group {group.key!r} is registered twice")
        _GROUPS[group.key] = group
    for option in options:
        if option.name in _OPTIONS:
            raise ValueError(f"option {option.name!r} is registered twice")
        if option.group and option.group not in _GROUPS:
            raise ValueError(f"option {option.name!r}: no group {option.group!r}")
        _OPTIONS[option.name] = option


def register_change_guard(option_name: str, key: str, guard: Callable[[Any], None]) -> None:
    """Let another app refuse a change of ``option_name`` (its ``wiring.py``, once).

    Why: some options are fixed by what another app recorded, and ``tournaments`` may not
    read that app. Money pays prizes by the prize order, so once a prize is handed over
    the order must not change (``money.option_guards``); the change is refused by the
    guard, which raises the rule broken, whatever door the change came through (the
    API's PATCH, the settings page, the money page). ``guard(tournament)`` runs under
    the tournament's lock, only when the value actually changes. Registered under
    ``key`` so a second registration replaces the first.
    """
    _GUARDS.setdefault(option_name, {})[key] = guard


def change_guards(option_name: str) -> tuple[Callable[[Any], None], ...]:
    return tuple(_GUARDS.get(option_name, {}).values())


def options() -> tuple[TournamentOption, ...]:
    """Every option, in declaration order (the API's order)."""
    if not _OPTIONS:
        raise LookupError("no tournament option is registered (tournaments/wiring.py)")
    return tuple(_OPTIONS.values())


def names() -> tuple[str, ...]:
    """The fields a configuration holds."""
    return tuple(_OPTIONS) if _OPTIONS else tuple(o.name for o in options())


def option(name: str) -> TournamentOption:
    options()
    return _OPTIONS[name]


def groups() -> tuple[OptionGroup, ...]:
    """The create page's groups of format options, in page order."""
    options()
    return tuple(_GROUPS.values())


def in_group(key: str) -> tuple[TournamentOption, ...]:
    return tuple(o for o in options() if o.group == key)


def on_page(page: str) -> tuple[TournamentOption, ...]:
    """The options a page's form shows as a field of their own."""
    return tuple(o for o in options() if o.page == page and o.label)


def any_time() -> frozenset[str]:
    """The options that may change once the event has started."""
    return frozenset(o.name for o in options() if o.any_time)


def formats_reading(name: str, format_options: dict[str, Sequence[str]]) -> list[str]:
    """The formats (keys, in the given order) whose ``options`` hold ``name``."""
    return [key for key, read in format_options.items() if name in read]
