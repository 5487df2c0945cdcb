"""The format registry: every tournament format declared in one place (pure, no Django).

Each format is one module in :mod:`tournaments.formats.catalog` that builds a
:class:`FormatSpec` and hands it to :func:`register`. The services, the forms, the
create page, the odds and the simulator ask :func:`spec` (or :func:`specs`) about the
event's format instead of comparing ``format ==``; so adding a format is one new module
plus its tests (``docs/development.md``, "Adding a tournament format"), and
``tests/tournaments/formats/test_registry.py`` fails when a registered format lacks a
part.

What the declaration holds, part by part:

* how it is played: ``kind`` (a bracket drawn once, or rounds paired one at a time),
  its bracket ``graph`` (a bracket format, or the playoff after a rounds format), the
  ``rounds`` engine that pairs it (``"swiss"`` or ``"round_robin"``, the services'
  :data:`ROUND_ENGINES` over the database) with its pure ``pair`` and ``finished``;
* its configuration: the ``options`` it reads (the others are refused or ignored, see
  :data:`FOREIGN_OPTION_ERRORS`), their defaults, its own ``check``, its default
  ``tie_breaks``, whether it takes late entries;
* what people see: its ``label``, the ``stages`` whose rounds get their own match length
  (with the create page's legends and help), whether the create page has a ``preview``
  (and how many rounds it shows, ``preview_rounds``) and the dashboard a drop map, its
  ``odds`` model;
* how its field is split: ``group_count`` (round robin's groups; one for the others);
* an ``example`` configuration (the simulator's and the registry test's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.errors import N_

from .bracket_graph import BracketGraph
from .errors import FormatError
from .odds import EventOdds
from .swiss import SwissPairing, SwissPlayer


class FormatKind(StrEnum):
    BRACKET = "bracket"  # drawn once at the start; results advance players by themselves
    ROUNDS = "rounds"  # paired one round at a time (perhaps followed by a playoff bracket)


class OddsModel(StrEnum):
    BRACKET = "bracket"  # Monte Carlo over the bracket graph (tournaments.formats.odds)
    SWISS = "swiss"  # the Swiss simulator (fixed rounds)
    RECORDS = "records"  # the format's own ``simulate`` from the players' records


@dataclass(frozen=True)
class RecordsInput:
    """A rounds event part-way, for a format's own simulator (entries are 0-based seed
    indices): ``wins`` (byes among them) and ``losses`` so far; ``current``: the pairs of
    the round being played without a result, ``(a, b, chance of a or None)``;
    ``matrix[a, b]``: the chance that a beats b in the current round, ``later`` in the
    rounds after it; ``active``: who is still paired; ``options``: the format's options.
    """

    wins: Sequence[int]
    losses: Sequence[int]
    current: Sequence[tuple[int, int, float | None]]
    matrix: Any  # numpy arrays (n × n)
    later: Any
    active: Sequence[bool]
    options: Mapping[str, Any]
    places: int = 8


#: A format's own odds: ``simulate(event, simulations, progress)``.
Simulator = Callable[[RecordsInput, int, Callable[[int, int], None] | None], EventOdds]


@dataclass(frozen=True)
class GraphOptions:
    """What a bracket graph is built from besides the number of entries."""

    consolation_from: tuple[int, ...] = ()
    last_chance_from: tuple[int, ...] = ()
    reset: bool = True
    feed_orders: tuple[str, ...] = ()
    last_chance_drawn: tuple[int, ...] = ()


#: A pure pairer of one round from the players' records and the event's options.
Pairer = Callable[[Sequence[SwissPlayer[int]], Mapping[str, Any]], SwissPairing[int]]
#: Whether a rounds event is over after ``rounds_played`` rounds, from the records.
Finished = Callable[[int, Sequence[SwissPlayer[int]], Mapping[str, Any]], bool]
#: Who plays the playoff (entry ids in seed order) once the rounds are over, from the
#: records in standings order; None: the format has no playoff after its rounds.
PlayoffField = Callable[[Sequence[SwissPlayer[int]], Mapping[str, Any]], list[int]]


def _no_check(config: Mapping[str, Any]) -> None:
    """Nothing beyond the common checks."""


def _one_group(entries: int, options: Mapping[str, Any]) -> int:
    """Everyone in one field."""
    return 1


@dataclass(frozen=True)
class FormatSpec:
    """One tournament format: every part the rest of the code asks for."""

    key: str
    label: str
    kind: FormatKind
    #: where the format comes in lists (the create page's choices)
    position: int
    #: the stages whose rounds can have their own match length: (stage kind, legend)
    stages: tuple[tuple[str, str], ...]
    #: the create page's help under "Match length by round"
    lengths_help: str
    #: the options (``Tournament`` fields) the format reads, beyond every event's
    options: tuple[str, ...]
    #: default tie-breaks (``TieBreak`` values), when the director gives none
    tie_breaks: tuple[str, ...]
    #: an example configuration: the simulator's and the registry test's
    example: Mapping[str, Any]
    #: an option's value when the create page's field is left blank
    option_defaults: Mapping[str, Any] = field(default_factory=dict)
    #: the format's own configuration checks (raise FormatError naming the field)
    check: Callable[[Mapping[str, Any]], None] = _no_check
    #: the bracket: the format's own (a bracket format) or its playoff (rounds + playoff)
    graph: Callable[[int, GraphOptions], BracketGraph] | None = None
    #: a rounds format's engine in the services: "swiss" (``pair`` and ``finished``
    #: over the players' records) or "round_robin" (Berger tables in groups)
    rounds: str | None = None
    pair: Pairer | None = None
    finished: Finished | None = None
    #: a Swiss-engine format followed by a playoff: who plays it
    playoff_field: PlayoffField | None = None
    late_entries: bool = True
    odds: OddsModel | None = None
    #: the simulator of ``OddsModel.RECORDS`` (before a playoff; the playoff's are a
    #: bracket's)
    simulate: Simulator | None = None
    #: why the odds cannot be computed for this configuration (None: they can)
    odds_unsupported: Callable[[Mapping[str, Any]], str | None] = lambda config: None
    #: how many groups a rounds format plays in, from the number of entries and its
    #: options (round robin: its ``groups``); the services ask this, never the option
    group_count: Callable[[int, Mapping[str, Any]], int] = _one_group
    #: the create page's preview: the options it reads, with their defaults; None: none
    preview: Mapping[str, Any] | None = None
    #: a rounds format whose options fix its number of rounds (Swiss: ``swiss_rounds``):
    #: that number, which the preview shows as rounds of its first stage; None: the
    #: preview draws the format's bracket
    preview_rounds: Callable[[Mapping[str, Any]], int] | None = None
    #: the director's dashboard shows where losers drop (single elimination)
    drop_map: bool = False

    @property
    def is_bracket(self) -> bool:
        return self.kind == FormatKind.BRACKET


#: An option given to a format that does not read it: the error, by option. Options not
#: listed here are ignored by the formats that do not read them.
FOREIGN_OPTION_ERRORS: dict[str, tuple[str, str]] = {
    "consolation_from": (
        "consolation_from_needs_single_elimination",
        N_("Consolation and last chance brackets go with single elimination."),
    ),
    "last_chance_from": (
        "last_chance_from_needs_single_elimination",
        N_("Consolation and last chance brackets go with single elimination."),
    ),
    "playoff_qualifiers": (
        "playoff_needs_round_robin",
        N_("A playoff follows round-robin groups."),
    ),
}

_REGISTRY: dict[str, FormatSpec] = {}


def register(format_spec: FormatSpec) -> FormatSpec:
    """Add a format (a catalog module calls this once, at import)."""
    if format_spec.key in _REGISTRY:
        raise ValueError(f"format {format_spec.key!r} is registered twice")
    _REGISTRY[format_spec.key] = format_spec
    return format_spec


def specs() -> tuple[FormatSpec, ...]:
    """Every registered format, in the order the create page lists them."""
    _load()
    return tuple(sorted(_REGISTRY.values(), key=lambda s: s.position))


def format_keys() -> tuple[str, ...]:
    """The registered formats' keys, in list order."""
    return tuple(s.key for s in specs())


def spec(key: str) -> FormatSpec:
    """The format ``key``; FormatError (400, field ``format``) for an unknown one."""
    _load()
    found = _REGISTRY.get(key)
    if found is None:
        raise FormatError(
            "format_unknown",
            N_("The format is one of %(join)s.", join=", ".join(_REGISTRY)),
            "format",
        )
    return found


def check_foreign_option(config: Mapping[str, Any], option: str) -> None:
    """Refuse ``option`` when it is set and the configuration's format does not read it."""
    code, message = FOREIGN_OPTION_ERRORS[option]
    if config.get(option) and option not in spec(str(config.get("format"))).options:
        raise FormatError(code, message, option)


def _load() -> None:
    if not _REGISTRY:
        import importlib
        import pkgutil

        from . import catalog

        for module in pkgutil.iter_modules(catalog.__path__):
            importlib.import_module(f"{catalog.__name__}.{module.name}")
