"""One chouette game scored: its validation, and who pays whom how many points.

The record and the score live in :mod:`chouette.rules.records`, the partner rule in
:mod:`chouette.rules.partner`.

Sources: ``docs/rules.md``, "The chouette" and the money-play sections (normative); the
modern rules, *Doubling cube* (the cube, beavers, raccoons, the Jacoby rule, automatic
doubles); Thorne 1930, *Chouette* and *Scoring* (one cube; "the rejector
must pay his loss up to the time of the double, and the Captain of the team takes
over his position"; the Philadelphia method; "The man in the box ... plays against all
the others", so the box scores separately with each member).

Decisions on points the sources leave open (each is tested):

- **Positions.** The box wins or loses against each member separately. Each member's
  position is worth ``level multiplier x cube x stake multiple``; the level multiplier
  comes from :func:`games.rules.money.level_multiplier` with the member's own cube
  deciding Jacoby (turned = the member's cube is above the automatic doubles).
- **Stake multiple, not cube.** A member who "starts with the cube at 2 or 4"
  (``allow_starting_cube``) is recorded with ``stake=2`` or ``4`` and a cube that
  starts at 1 as everyone's does. Why: the cube face is what the cube limit,
  beavers and "the box must treat equal cubes alike" talk about, and a stake agreed
  before the game is not a double made in play, so it must neither lift Jacoby nor
  count under Philadelphia.
- **Drops.** A member who refuses the box's double pays ``cube before the double x
  stake`` and is out; if the box refuses a member's double, the box pays that member
  the same way. A drop is always single.
- **The board.** Members still in at the end share the board's result. The board's
  captain at the end is the first member in line still in (if the captain dropped,
  the next member in line still in took over the board). When every member is out,
  the board ended on the last drop: the first member the box dropped beat the box;
  if the box dropped nobody, the box beat the captain. A winner recorded against that
  is refused: the member who drops loses.
- **Beavers** are recorded on the member's final cube: a beaver by the member is the
  member's cube doubled twice and owned by the member (``beaver=Side.TEAM``). They
  need beavers agreed; a raccoon needs raccoons agreed and a beaver to answer.
- **Automatic doubles** raise every member's cube without turning it (Jacoby still
  applies). Under Philadelphia "only doubles made in play are counted", so the stake
  is the cube without its automatic doubles (the reading of ``games.rules.money``).
- **Single cube** (Thorne): every member still in holds the same cube; a member who
  refused a double paid at half or less of it; a drop by the box ends the game for
  everyone still in, at one cube value.
- **Captain takeover** (Thorne's option): the board's captain at the end holds the
  dropped position at the doubled stake (multiple cubes: twice the refused cube;
  single cube: the one cube, which moves on with the game) and settles it as his own
  position (board result, or his own drop). The refuser still pays his own loss.
- **Partner:** the box's total (its net against every member) is shared with the
  partner: split evenly, the odd point to the box, in both directions (on a loss of
  5 the box pays 3 and the partner 2).
"""

from __future__ import annotations

from collections.abc import Mapping

from core.errors import N_
from games.rules.errors import RuleViolation
from games.rules.money import check_cube, level_multiplier
from games.rules.types import Ending, Level

from .house_rules import STARTING_MULTIPLES, BoxRetention, ChouetteRules, CubeMode
from .order import Lineup
from .partner import partner_for_game, split_with_partner
from .records import GameRecord, GameScore, MemberRecord, Position
from .types import Player, Side


def _violation(code: str, message: str, where: str) -> RuleViolation:
    return RuleViolation(code, message, field=where)


def _check_member(record: MemberRecord, rules: ChouetteRules, initial: int, where: str) -> int:
    """Validate one member's record alone; return the member's cube."""
    money = rules.money
    cube = initial if record.cube is None else record.cube
    if isinstance(cube, bool) or not isinstance(cube, int):
        raise _violation(
            "cube_not_power_of_two",
            f"The cube value {cube!r} is not a power of two (1, 2, 4, 8, ...).",
            f"{where}.cube",
        )
    check_cube(cube, money, field=f"{where}.cube")
    if cube < initial:
        raise _violation(
            "cube_below_automatic_doubles",
            f"The automatic doubles put every cube at {initial} or more, not {cube}.",
            f"{where}.cube",
        )
    stake = record.stake
    if isinstance(stake, bool) or stake not in STARTING_MULTIPLES:
        raise _violation(
            "invalid_stake_multiple",
            f"A member plays at 1, 2 or 4 times the stake, not {stake!r}.",
            f"{where}.stake",
        )
    if stake != 1 and not rules.allow_starting_cube:
        raise _violation(
            "starting_cube_not_allowed",
            "The house rules do not let a member start with the cube at 2 or 4.",
            f"{where}.stake",
        )
    for name in ("drop", "beaver", "owner"):
        value = getattr(record, name)
        if value is not None and not isinstance(value, Side):
            try:
                Side(value)
            except ValueError:
                raise _violation(
                    f"invalid_{name}", f"{value!r} is not 'box' or 'team'.", f"{where}.{name}"
                ) from None
    drop = None if record.drop is None else Side(record.drop)
    if record.beaver is not None and not money.beavers:
        raise _violation(
            "beavers_not_agreed", "Beavers were not agreed for this table.", f"{where}.beaver"
        )
    if record.raccoon:
        if not money.raccoons:
            raise _violation(
                "raccoons_not_agreed",
                "Raccoons were not agreed for this table.",
                f"{where}.raccoon",
            )
        if record.beaver is None:
            raise _violation(
                "raccoon_without_beaver",
                "A raccoon is the doubler's immediate redouble of a beaver.",
                f"{where}.raccoon",
            )
    if record.beaver is not None:
        # double + beaver quadruples the cube; a raccoon doubles it once more
        least = initial * (8 if record.raccoon else 4)
        if cube < least:
            # Said in words (issue 41: a beaver entered as cube 2 read as a bare code):
            # the cube a member enters is the cube as the game ended, and a beaver is
            # a second turn of it.
            if record.raccoon:
                message = N_(
                    "A raccoon turns the cube a third time: the double takes it to "
                    "%(doubled)s, the beaver to %(beavered)s, the raccoon to %(least)s. "
                    "Enter the cube as the game ended (%(least)s or more), not %(cube)s.",
                    doubled=initial * 2,
                    beavered=initial * 4,
                    least=least,
                    cube=cube,
                )
            else:
                message = N_(
                    "A beaver turns the cube a second time: the double takes it to "
                    "%(doubled)s and the beaver at once to %(least)s. Enter the cube as "
                    "the game ended (%(least)s or more), not %(cube)s, or no beaver.",
                    doubled=initial * 2,
                    least=least,
                    cube=cube,
                )
            raise _violation("cube_too_low_for_beaver", message, f"{where}.cube")
    if drop is not None and money.cube_limit is not None and cube * 2 > money.cube_limit:
        raise _violation(
            "cube_above_limit",
            f"The refused double would have taken the cube to {cube * 2}, above the "
            f"agreed limit of {money.cube_limit}.",
            f"{where}.cube",
        )
    if record.owner is not None and drop is None and cube == initial:
        raise _violation(
            "owner_of_centred_cube",
            "Nobody owns a cube that was never turned: it stays in the middle.",
            f"{where}.owner",
        )
    if record.taken_over:
        if not rules.captain_takeover:
            raise _violation(
                "captain_takeover_not_allowed",
                "The house rules do not let the captain take over a dropped position.",
                f"{where}.taken_over",
            )
        if drop is not Side.TEAM:
            raise _violation(
                "takeover_without_drop",
                "The captain takes over only a position whose member refused the box's double.",
                f"{where}.taken_over",
            )
    return cube


def _position(
    *,
    holder: Player,
    source: Player,
    cube: int,
    stake: int,
    drop: Side | None,
    turned: bool,
    automatic: int,
    board_winner: Side,
    level: Level,
    rules: ChouetteRules,
    takeover: bool = False,
) -> Position:
    money = rules.money
    stake_cube = cube >> automatic if money.philadelphia else cube
    if drop is not None:
        winner, multiplier = drop.other, 1
    else:
        winner = board_winner
        multiplier = level_multiplier(level, money, cube_turned=turned)
    return Position(
        holder=holder,
        source=source,
        cube=cube,
        stake=stake,
        multiplier=multiplier,
        winner=winner,
        points=multiplier * stake_cube * stake,
        dropped=drop is not None,
        takeover=takeover,
    )


def _check_single_cube(
    team: tuple[Player, ...],
    records: Mapping[Player, MemberRecord],
    cubes: Mapping[Player, int],
    where: Mapping[Player, str],
) -> None:
    """Thorne's one cube: the records of the members must describe the same cube."""
    still_in = [p for p in team if records[p].drop is None]
    box_dropped = [p for p in team if records[p].drop is Side.BOX]
    for group in (still_in, box_dropped):
        values = {cubes[p] for p in group}
        if len(values) > 1:
            raise _violation(
                "single_cube_differs",
                "With a single cube every member still in plays for the same cube, "
                f"not {sorted(values)}.",
                f"{where[group[0]]}.cube",
            )
    if still_in and box_dropped:
        raise _violation(
            "single_cube_box_drop",
            "With a single cube, the box refusing the team's double ends the game for "
            "every member still in.",
            f"{where[box_dropped[0]]}.drop",
        )
    final = still_in or box_dropped
    if final:
        cube = cubes[final[0]]
        for player in team:
            if records[player].drop is Side.TEAM and cubes[player] * 2 > cube:
                raise _violation(
                    "single_cube_drop_above",
                    f"A member who refused the double at {cubes[player]} left the cube at "
                    f"{cubes[player] * 2} or more, yet the game went on at {cube}.",
                    f"{where[player]}.cube",
                )


def score_game(rules: ChouetteRules, lineup: Lineup, record: GameRecord) -> GameScore:
    """Validate one game against the house rules and the lineup, and score it.

    Every impossible record is refused with a :class:`RuleViolation` naming the rule
    (its ``field`` says which part of the record, e.g. ``members[2].cube``).
    """
    money = rules.money
    if len(lineup.players) < 3:
        raise _violation(
            "too_few_players", "A chouette is played by three or more players.", "members"
        )
    if record.box is not None and record.box != lineup.box:
        raise _violation(
            "lineup_mismatch", f"The box is {lineup.box!r}, not {record.box!r}.", "box"
        )
    if record.captain is not None and record.captain != lineup.captain:
        raise _violation(
            "lineup_mismatch",
            f"The captain is {lineup.captain!r}, not {record.captain!r}.",
            "captain",
        )
    partner = partner_for_game(rules, lineup, record.partner)
    team = tuple(p for p in lineup.team if p != partner)

    automatic = record.automatic_doubles
    if isinstance(automatic, bool) or not isinstance(automatic, int) or automatic < 0:
        raise _violation(
            "automatic_doubles_invalid",
            f"The number of automatic doubles must be 0 or more, not {automatic!r}.",
            "automatic_doubles",
        )
    if automatic and not money.automatic_doubles:
        raise _violation(
            "automatic_doubles_not_agreed",
            "Automatic doubles were not agreed for this table.",
            "automatic_doubles",
        )
    if automatic > money.automatic_double_limit:
        raise _violation(
            "automatic_doubles_above_limit",
            f"{automatic} automatic doubles is more than the agreed limit of "
            f"{money.automatic_double_limit}.",
            "automatic_doubles",
        )
    initial = 2**automatic
    check_cube(initial, money, field="automatic_doubles")

    records: dict[Player, MemberRecord] = {}
    where: dict[Player, str] = {}
    for index, member in enumerate(record.members):
        here = f"members[{index}]"
        player = member.player
        if player in records:
            raise _violation(
                "member_twice", f"{player!r} is recorded twice in one game.", f"{here}.player"
            )
        if player == lineup.box:
            raise _violation(
                "box_as_member", f"{player!r} is the box, not a team member.", f"{here}.player"
            )
        if partner is not None and player == partner:
            raise _violation(
                "partner_as_member",
                f"{player!r} is the box's partner this game and has no cube against the box.",
                f"{here}.player",
            )
        if player not in team:
            raise _violation(
                "not_on_team", f"{player!r} is not seated on the team.", f"{here}.player"
            )
        records[player] = member
        where[player] = here
    missing = [p for p in team if p not in records]
    if missing:
        raise _violation(
            "member_missing",
            "Every team member's cube must be recorded; missing: "
            + ", ".join(repr(p) for p in missing)
            + ".",
            "members",
        )
    cubes = {p: _check_member(records[p], rules, initial, where[p]) for p in team}
    drops = {p: None if (drop := records[p].drop) is None else Side(drop) for p in team}
    if rules.cubes is CubeMode.SINGLE:
        _check_single_cube(team, records, cubes, where)

    still_in = [p for p in team if drops[p] is None]
    level = Level(record.level)
    if still_in:
        board_captain = still_in[0]
        if record.winner is None:
            raise _violation(
                "winner_missing", "Say who won on the board: the box or the team.", "winner"
            )
        board_winner = Side(record.winner)
        ending = Ending.PLAYED if record.ending is None else Ending(record.ending)
        if ending is Ending.DROPPED:
            raise _violation(
                "board_not_dropped",
                "Members were still in at the end: the board was played out or resigned. "
                "Record each drop on the member's cube.",
                "ending",
            )
    else:
        box_dropped = [p for p in team if drops[p] is Side.BOX]
        board_captain = box_dropped[0] if box_dropped else team[0]
        board_winner = Side.TEAM if box_dropped else Side.BOX
        if record.winner is not None and Side(record.winner) is not board_winner:
            raise _violation(
                "drop_by_winning_side",
                "Every member was out: the side that refused the last double lost the "
                "board, so it cannot be the winner (the one who drops loses).",
                "winner",
            )
        if record.ending not in (None, Ending.DROPPED):
            raise _violation(
                "no_board_result",
                "Every member was out: the game ended on a drop, not on the board.",
                "ending",
            )
        ending = Ending.DROPPED
        if level is not Level.SINGLE:
            raise _violation(
                "dropped_game_is_single",
                "A dropped double always scores single: the doubler wins the cube value.",
                "level",
            )

    positions: list[Position] = []
    for player in team:
        member = records[player]
        positions.append(
            _position(
                holder=player,
                source=player,
                cube=cubes[player],
                stake=member.stake,
                drop=drops[player],
                turned=cubes[player] > initial,
                automatic=automatic,
                board_winner=board_winner,
                level=level,
                rules=rules,
            )
        )
    for player in team:
        member = records[player]
        if not member.taken_over:
            continue
        if player == board_captain:
            raise _violation(
                "takeover_by_dropper",
                f"{player!r} captained the board to the end and cannot take over his own "
                "dropped position.",
                f"{where[player]}.taken_over",
            )
        if rules.cubes is CubeMode.SINGLE:
            takeover_cube = cubes[board_captain]
        else:
            takeover_cube = cubes[player] * 2
        check_cube(takeover_cube, money, field=f"{where[player]}.cube")
        if takeover_cube < cubes[player] * 2:
            raise _violation(
                "takeover_cube",
                f"The captain takes over at the doubled stake ({cubes[player] * 2}) or "
                f"more, not {takeover_cube}.",
                f"{where[player]}.cube",
            )
        positions.append(
            _position(
                holder=board_captain,
                source=player,
                cube=takeover_cube,
                stake=member.stake,
                drop=drops[board_captain],
                turned=True,
                automatic=automatic,
                board_winner=board_winner,
                level=level,
                rules=rules,
                takeover=True,
            )
        )

    box_total = sum(position.box_delta for position in positions)
    payouts: dict[Player, int] = {}
    if partner is None:
        payouts[lineup.box] = box_total
    else:
        box_share, partner_share = split_with_partner(box_total)
        payouts[lineup.box] = box_share
        payouts[partner] = partner_share
    for player in team:
        payouts.setdefault(player, 0)
    for position in positions:
        payouts[position.holder] -= position.box_delta

    if rules.box_retention is BoxRetention.NET_WIN:
        box_keeps = board_winner is Side.BOX and box_total > 0
    else:
        box_keeps = board_winner is Side.BOX
    captain_index = team.index(board_captain)
    dropped_before = tuple(p for p in team[:captain_index] if drops[p] is Side.TEAM)
    return GameScore(
        box=lineup.box,
        partner=partner,
        team=team,
        board_captain=board_captain,
        board_winner=board_winner,
        level=level,
        ending=ending,
        positions=tuple(positions),
        box_total=box_total,
        payouts=payouts,
        box_keeps=box_keeps,
        dropped_before_captain=dropped_before,
    )
