"""Who sits where: the opening order of a chouette, newcomers and players leaving.

Sources: Thorne 1930, *Backgammon in 20 Minutes*, *Chouette* ("Each person
throws a die, and the highest number thrown indicates 'the man in the box' ... The
second highest number thrown elects the Captain of the opposing side, and the
remaining members hold seniority according to the numbers thrown") and ``docs/rules.md``,
"Order at the start" (ties are rolled again only among the tied; a newcomer joins at the
bottom of the team).

Leaving between games is not in the sources; we follow the rotation's logic:

- a leaving box is replaced as if the captain had won: the captain becomes box and
  the next in line captains (the old box is gone instead of going to the bottom);
- a leaving captain is replaced by the next in line;
- any other member simply leaves, and everyone below moves up one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.errors import N_
from games.rules.errors import RuleViolation
from games.rules.limits import MAX_ROLLS

from .types import Player


@dataclass(frozen=True, slots=True)
class Lineup:
    """The seating between games: the box, then the team in line order.

    ``team[0]`` is the captain; ``team[1]`` is next in line to captain, and so on.
    Every seated player appears exactly once. A box's partner is not a seat of its
    own: the partner keeps a place in the team's line (see ``rotation``).
    """

    box: Player
    team: tuple[Player, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "team", tuple(self.team))
        if not self.team:
            raise RuleViolation(
                "too_few_players", N_("A lineup needs a box and at least a captain."), field="team"
            )
        seen: set[Player] = set()
        for player in self.players:
            if player in seen:
                raise RuleViolation(
                    "player_seated_twice",
                    N_(
                        "Player %(player)r is seated twice: every player has one seat.",
                        player=player,
                    ),
                    field="team",
                )
            seen.add(player)

    @classmethod
    def from_order(cls, order: Sequence[Player]) -> Lineup:
        """A lineup given by hand: the first player is box, the second captain, ..."""
        order = tuple(order)
        if len(order) < 2:
            raise RuleViolation(
                "too_few_players", N_("A lineup needs a box and at least a captain."), field="order"
            )
        return cls(order[0], order[1:])

    @property
    def captain(self) -> Player:
        return self.team[0]

    @property
    def players(self) -> tuple[Player, ...]:
        """Every seated player: the box first, then the team in line order."""
        return (self.box, *self.team)

    def __contains__(self, player: object) -> bool:
        return player == self.box or player in self.team

    def join(self, player: Player) -> Lineup:
        """A newcomer joins at the bottom of the team (docs/rules.md, "Order at the start")."""
        if player in self:
            raise RuleViolation(
                "already_seated",
                N_("Player %(player)r is already seated.", player=player),
                field="player",
            )
        return Lineup(self.box, (*self.team, player))

    def leave(self, player: Player) -> Lineup:
        """A player leaves between games (see the module docstring for the rule)."""
        if player not in self:
            raise RuleViolation(
                "not_seated", N_("Player %(player)r is not seated.", player=player), field="player"
            )
        if len(self.team) < 2:
            raise RuleViolation(
                "too_few_players",
                N_("The last two players cannot split: a lineup needs a box and a captain."),
                field="player",
            )
        if player == self.box:
            return Lineup(self.team[0], self.team[1:])
        return Lineup(self.box, tuple(p for p in self.team if p != player))


def _rolls_of(player: Player, value: int | Sequence[int], max_roll: int) -> tuple[int, ...]:
    if isinstance(value, str) or not isinstance(value, int | Sequence):
        value = (value,)
    rolls = (value,) if isinstance(value, int) else tuple(value)
    if not rolls:
        raise RuleViolation(
            "missing_roll", N_("Player %(player)r has no roll.", player=player), field="rolls"
        )
    if len(rolls) > MAX_ROLLS:
        # Each round of re-rolls is one level of ``_rank``: bounding the rounds bounds
        # the recursion (a list of 2,000 tied rolls would exhaust Python's stack).
        raise RuleViolation(
            "too_many_rolls",
            N_(
                "Player %(player)r gave %(count)s rolls: at most %(MAX_ROLLS)s (the "
                "first roll and its re-rolls).",
                player=player,
                count=len(rolls),
                MAX_ROLLS=MAX_ROLLS,
            ),
            field="rolls",
        )
    for roll in rolls:
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= max_roll:
            raise RuleViolation(
                "invalid_roll",
                N_(
                    "Player %(player)r rolled %(roll)r: a roll is 1 to %(max_roll)s.",
                    player=player,
                    roll=roll,
                    max_roll=max_roll,
                ),
                field="rolls",
            )
    return rolls


def _rank(group: list[Player], rolls: Mapping[Player, tuple[int, ...]], depth: int) -> list[Player]:
    """Order ``group`` (players tied through ``depth`` rounds) by their later rolls."""
    if len(group) == 1:
        (player,) = group
        if len(rolls[player]) > depth:
            raise RuleViolation(
                "roll_not_needed",
                N_(
                    "Player %(player)r re-rolled without a tie: only the tied roll again.",
                    player=player,
                ),
                field="rolls",
            )
        return group
    unresolved = [p for p in group if len(rolls[p]) <= depth]
    if unresolved:
        names = ", ".join(repr(p) for p in group)
        raise RuleViolation(
            "unresolved_tie",
            N_(
                "Players %(names)s are tied after %(depth)s roll(s): the tied must roll again.",
                names=names,
                depth=depth,
            ),
            field="rolls",
        )
    buckets: dict[int, list[Player]] = {}
    for player in group:
        buckets.setdefault(rolls[player][depth], []).append(player)
    ranked: list[Player] = []
    for roll in sorted(buckets, reverse=True):
        ranked.extend(_rank(buckets[roll], rolls, depth + 1))
    return ranked


def order_from_rolls(rolls: Mapping[Player, int | Sequence[int]], *, max_roll: int = 6) -> Lineup:
    """The opening lineup from each player's rolls: highest box, next captain, ...

    ``rolls[p]`` is one roll, or the list of p's rolls round by round. Only the tied
    re-roll, and a re-roll only orders the tied among themselves ("re-roll ties only
    among the tied"): a later round never moves a player past someone who beat them
    earlier. A tie left unresolved, or a re-roll by a player who was not tied, is
    refused. ``max_roll`` is 6 for one die (Thorne); a table rolling two dice says 12.
    """
    players = list(rolls)
    if len(players) < 2:
        raise RuleViolation(
            "too_few_players", N_("A lineup needs a box and at least a captain."), field="rolls"
        )
    normalized = {p: _rolls_of(p, rolls[p], max_roll) for p in players}
    return Lineup.from_order(_rank(players, normalized, 0))
