"""A club's own master-points table: points per place by field size, or per match won.

Many clubs award their own points instead of the USBGF's: a table of points for each
finishing place, by field-size bracket (8-15 players: 1st 10, 2nd 6, 3rd-4th 3;
16-31 players: ...), and a number of points for every match won. A player receives
**the higher of the two** (placement or match wins), never their sum: a player who
won many matches without placing still earns something, and a placed player is not
paid twice.

Players tied over ranks R..R+k-1 (two semi-final losers) share those ranks' points
equally, as the USBGF formula spreads ties. Points are Decimals rounded half-up to
0.01 (never floats).

The table is data: the club edits it, and each edit is a new version (the event keeps
the version it awarded with), so this module only checks and applies one version.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from core.errors import RuleViolation

Person = Hashable
HUNDREDTH = Decimal("0.01")
MAX_PLACES = 64
MAX_BRACKETS = 32


@dataclass(frozen=True)
class Bracket:
    """Points by finishing rank (index 0 is first) for fields of ``min_players`` up to
    ``max_players`` (None: no upper bound)."""

    min_players: int
    max_players: int | None
    points: tuple[Decimal, ...]


@dataclass(frozen=True)
class ClubTable:
    """One version of a club's table: its brackets (by field size) and points per win."""

    brackets: tuple[Bracket, ...]
    per_match_won: Decimal = Decimal(0)


def _points(value: object, field: str) -> Decimal:
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        try:
            value = Decimal(value)
        except ArithmeticError:
            value = None
    if not isinstance(value, Decimal) or not value.is_finite() or value < 0 or value >= 10**6:
        raise RuleViolation("invalid_points", "Points are a number from 0 below 1,000,000.", field)
    if value != value.quantize(HUNDREDTH):
        raise RuleViolation("invalid_points", "Points have at most two decimals.", field)
    return value


def check_table(table: ClubTable) -> ClubTable:
    """Refuse a table that cannot be applied: overlapping or unordered brackets, a
    bracket without places, places paying more than the place above them, bad points.

    Returns the table with every number as a Decimal.
    """
    if not table.brackets:
        raise RuleViolation("no_brackets", "A club table has at least one bracket.", "brackets")
    if len(table.brackets) > MAX_BRACKETS:
        raise RuleViolation(
            "too_many_brackets", f"A club table has at most {MAX_BRACKETS} brackets.", "brackets"
        )
    brackets = []
    previous_max: int | None = 1
    for i, bracket in enumerate(table.brackets):
        field = f"brackets[{i}]"
        low, high = bracket.min_players, bracket.max_players
        if not isinstance(low, int) or low < 2:
            raise RuleViolation(
                "invalid_bracket", "A bracket starts at 2 players or more.", f"{field}.min_players"
            )
        if high is not None and (not isinstance(high, int) or high < low):
            raise RuleViolation(
                "invalid_bracket",
                "A bracket ends at or above where it starts.",
                f"{field}.max_players",
            )
        if previous_max is None or low <= previous_max:
            raise RuleViolation(
                "overlapping_brackets",
                "Brackets go from small fields to large ones without overlapping.",
                f"{field}.min_players",
            )
        if not bracket.points or len(bracket.points) > MAX_PLACES:
            raise RuleViolation(
                "invalid_places",
                f"A bracket pays from 1 to {MAX_PLACES} places.",
                f"{field}.points",
            )
        points = tuple(
            _points(value, f"{field}.points[{j}]") for j, value in enumerate(bracket.points)
        )
        for j in range(1, len(points)):
            if points[j] > points[j - 1]:
                raise RuleViolation(
                    "place_pays_more",
                    "A place never earns more points than the place above it.",
                    f"{field}.points[{j}]",
                )
        brackets.append(Bracket(low, high, points))
        previous_max = high
    return ClubTable(tuple(brackets), _points(table.per_match_won, "per_match_won"))


def bracket_for(table: ClubTable, players: int) -> Bracket | None:
    """The bracket of a field of ``players`` (None: no bracket covers it)."""
    for bracket in table.brackets:
        if bracket.min_players <= players and (
            bracket.max_players is None or players <= bracket.max_players
        ):
            return bracket
    return None


def placement(
    table: ClubTable, players: int, places: Sequence[Sequence[Person]]
) -> dict[Person, Decimal]:
    """Placement points of every placed person (``places`` best first, ties grouped).

    A group over ranks R..R+k-1 shares the sum of those ranks' points equally; ranks
    beyond the bracket's list (or a field outside every bracket) earn 0.
    """
    bracket = bracket_for(table, players)
    scale = bracket.points if bracket else ()
    points: dict[Person, Decimal] = {}
    rank = 0
    for place in places:
        group = list(place)
        if not group:
            continue
        total = sum(scale[rank : rank + len(group)], Decimal(0))
        share = (total / len(group)).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)
        for person in group:
            if person in points:
                raise RuleViolation("place_listed_twice", f"{person!r} holds two places.", "places")
            points[person] = share
        rank += len(group)
    return points


def award(
    table: ClubTable,
    *,
    players: int,
    places: Sequence[Sequence[Person]],
    wins: Mapping[Person, int],
) -> dict[Person, Decimal]:
    """Each person's points: the higher of their placement points and their match wins
    times the table's points per match won (people with neither are left out)."""
    by_place = placement(table, players, places)
    result: dict[Person, Decimal] = {}
    for person in set(by_place) | set(wins):
        won = table.per_match_won * wins.get(person, 0)
        value = max(by_place.get(person, Decimal(0)), won)
        if value > 0:
            result[person] = value
    return result


def table_from_data(data: Mapping[str, object]) -> ClubTable:
    """A table from its stored (JSON) shape, checked:
    ``{"per_match_won": "1", "brackets": [{"min_players": 8, "max_players": 15,
    "points": ["10", "6", "3", "3"]}]}``."""
    raw = data.get("brackets")
    if not isinstance(raw, list):
        raise RuleViolation("no_brackets", "A club table has a list of brackets.", "brackets")
    brackets = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise RuleViolation("invalid_bracket", "A bracket is an object.", f"brackets[{i}]")
        points = item.get("points")
        if not isinstance(points, list):
            raise RuleViolation(
                "invalid_places", "A bracket's points are a list.", f"brackets[{i}].points"
            )
        brackets.append(
            Bracket(
                min_players=item.get("min_players"),  # type: ignore[arg-type]  # checked by check_table
                max_players=item.get("max_players"),  # checked by check_table
                points=tuple(points),
            )
        )
    return check_table(
        ClubTable(tuple(brackets), data.get("per_match_won", Decimal(0)))  # type: ignore[arg-type]  # checked
    )


def table_to_data(table: ClubTable) -> dict[str, object]:
    """The stored (JSON) shape of a checked table: numbers as strings."""
    return {
        "per_match_won": str(table.per_match_won),
        "brackets": [
            {
                "min_players": b.min_players,
                "max_players": b.max_players,
                "points": [str(p) for p in b.points],
            }
            for b in table.brackets
        ],
    }
