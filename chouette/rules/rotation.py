"""Who is box and who captains the next game.

Sources: Thorne 1930, *Backgammon in 20 Minutes*, *Chouette* ("'The man in
the box' remains there until defeated, and then takes a position at the foot of the
team that opposed him. The Captain of the team defeating 'the man in the box' then
takes that position ... the second in command of the team now becomes the Captain.
Should 'the man in the box' win, the Captain of the team takes the junior position and
the second in command takes charge.") and ``docs/rules.md``, "Rotation" ("The result
that decides rotation is the one on the board, against whoever captained it at the end").

The rules as implemented, with the decisions the sources leave open:

1. **Decisive result**: the box against the board's captain at the end (see
   ``payouts`` for how that captain is found when the captain dropped).
2. **Box keeps the box** (``beat_captain``: the box beat the board's captain;
   ``net_win``: the box beat the board's captain *and* its net over the whole team in
   that game, before any partner's share, is above zero): the board's captain goes to
   the bottom of the team, and the next in line captains.
3. **The board's captain beat the box**: he becomes box, the old box goes to the
   bottom of the team, and the next in line captains.
4. **``net_win`` and the box beat the board's captain without a net win** (both
   lose their seats: the box "did not win enough to stay"): the board's captain goes
   to the bottom, the old box below him, and the next two in line become box and
   captain. This is the "double stand-up" of clubs that play the net-win rule.
5. **A captain who refused the box's double loses his place** (the board passed to
   the next member in line still in): every member in line before the board's
   captain who refused a double goes to the bottom too, in line order, just above
   the player(s) of rules 2-4. A member whose double the box refused won his cube
   and keeps his place.
6. **Partner**: the box's partner sits out of the team for the game but keeps his
   place in the line: he rejoins where he was (with ``PartnerChoice.BOTTOM`` that is
   the bottom, above whoever rule 2-4 sends down, so the partnership passes on each
   game to the player who just lost his seat). This is the common modern practice of
   the partner being "next in line to be partner" rather than stuck at the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import N_
from games.rules.errors import RuleViolation

from .order import Lineup
from .records import GameScore
from .types import Player, Side


def rotate(
    lineup: Lineup,
    *,
    board_captain: Player,
    board_winner: Side,
    box_keeps: bool,
    dropped_before_captain: Sequence[Player] = (),
) -> Lineup:
    """The lineup after a game, from the game's decisive facts (rules 2-6 above)."""
    board_winner = Side(board_winner)
    if board_captain not in lineup.team:
        raise RuleViolation(
            "not_on_team",
            N_("%(board_captain)r is not on the team.", board_captain=board_captain),
            field="board_captain",
        )
    if box_keeps and board_winner is Side.TEAM:
        raise RuleViolation(
            "box_keeps_after_losing",
            N_("A box beaten on the board cannot keep the box."),
            field="box_keeps",
        )
    dropped = tuple(dropped_before_captain)
    for player in dropped:
        if player not in lineup.team or player == board_captain:
            raise RuleViolation(
                "not_on_team",
                N_("%(player)r is not a member in line before the board's captain.", player=player),
                field="dropped_before_captain",
            )
    moving = {*dropped, board_captain}
    kept = [p for p in lineup.team if p not in moving]
    if box_keeps:
        return Lineup(lineup.box, (*kept, *dropped, board_captain))
    if board_winner is Side.TEAM:
        return Lineup(board_captain, (*kept, *dropped, lineup.box))
    line = (*kept, *dropped, board_captain, lineup.box)
    return Lineup(line[0], line[1:])


def lineup_after(lineup: Lineup, score: GameScore) -> Lineup:
    """The lineup after a scored game (see :func:`chouette.rules.payouts.score_game`)."""
    return rotate(
        lineup,
        board_captain=score.board_captain,
        board_winner=score.board_winner,
        box_keeps=score.box_keeps,
        dropped_before_captain=score.dropped_before_captain,
    )
