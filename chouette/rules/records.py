"""What the table records for one chouette game and what scoring it answers.

The records (:class:`MemberRecord`, :class:`GameRecord`) are the input of
:func:`chouette.rules.payouts.score_game`; :class:`Position` and :class:`GameScore` its
answer, read by the rotation and the session replay. Kept apart from the scoring so the
callers that only carry records need not import the validation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from games.rules.types import Ending, Level

from .types import Player, Side


@dataclass(frozen=True, slots=True)
class MemberRecord:
    """One team member's cube in one game.

    ``cube``: the member's final cube value; for a drop, the value before the refused
    double. None means the cube as the game started (``2**automatic_doubles``).
    ``drop``: who refused a double on this cube: ``Side.TEAM`` (the member refused the
    box's double) or ``Side.BOX`` (the box refused the member's double); None if the
    member played on to the end. ``beaver``: who beavered on this cube, if anyone;
    ``raccoon``: the other side answered that beaver with a raccoon. ``owner``: who
    holds the cube at the end (optional, None = centred or not recorded).
    ``stake``: the member's stake multiple (1; 2 or 4 with ``allow_starting_cube``).
    ``taken_over``: the captain took over this dropped position (Thorne's option).
    """

    player: Player
    cube: int | None = None
    drop: Side | None = None
    beaver: Side | None = None
    raccoon: bool = False
    owner: Side | None = None
    stake: int = 1
    taken_over: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the table records for one game.

    ``members``: one record per member who played (the team without the partner).
    ``winner``, ``level``, ``ending``: the result on the board, for every member still
    in at the end (``ending`` PLAYED or RESIGNED). When every member was out (all drops)
    ``winner`` and ``ending`` may be left out: they follow from the drops.
    ``partner``: the box's partner (required when the partner is chosen by hand).
    ``box`` and ``captain``: optional cross-checks against the lineup.
    """

    members: tuple[MemberRecord, ...]
    winner: Side | None = None
    level: Level = Level.SINGLE
    ending: Ending | None = None
    automatic_doubles: int = 0
    partner: Player | None = None
    box: Player | None = None
    captain: Player | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "members", tuple(self.members))


@dataclass(frozen=True, slots=True)
class Position:
    """One settlement between the box and a team member (or a taken-over position)."""

    holder: Player  # who settles it with the box
    source: Player  # whose position it was (differs from holder for a takeover)
    cube: int
    stake: int
    multiplier: int  # the level multiplier applied (1 for a drop)
    winner: Side
    points: int  # what the winner of this position gets
    dropped: bool
    takeover: bool

    @property
    def box_delta(self) -> int:
        """The box's gain on this position (negative when the box loses it)."""
        return self.points if self.winner is Side.BOX else -self.points


@dataclass(frozen=True, slots=True)
class GameScore:
    """A scored game: the sides, the positions, the payouts and the rotation inputs.

    ``payouts`` holds every seated player of the game (box, partner, members), each
    with the points won (positive) or lost (negative); it sums to zero.
    ``box_total`` is the box side's net before the partner's share.
    ``box_keeps`` applies the table's box-retention rule.
    ``dropped_before_captain``: members in line before the board's captain who
    refused a double (they lost their place in line: see ``rotation``).
    """

    box: Player
    partner: Player | None
    team: tuple[Player, ...]
    board_captain: Player
    board_winner: Side
    level: Level
    ending: Ending
    positions: tuple[Position, ...]
    box_total: int
    payouts: Mapping[Player, int] = field(default_factory=dict)
    box_keeps: bool = True
    dropped_before_captain: tuple[Player, ...] = ()
