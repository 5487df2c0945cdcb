"""A ``.mat`` transcript of a match entered game by game (the score sheet, no moves).

See :mod:`games.services.transcripts`; the federation bundles and the match's
transcript download use it for matches entered without a transcript.
"""

from __future__ import annotations

from games.models import Game, Match
from games.rules import variants
from games.rules.matfile import DOUBLE, DROP, TAKE, Action, ParsedGame
from games.rules.types import Ending
from games.rules.variants.transcripts import variation_name_of


def _cube_actions(game: Game, side_of_winner: int) -> list[Action]:
    """Doubles and takes that leave the cube where the game row says, then the drop.

    Takers alternate and the last one owns the cube, so the history is determined by
    the cube value and its owner; a dropped game ends with the winner's refused double.
    """
    owner = {"player1": 0, "player2": 1}.get(game.cube_owner, side_of_winner)
    takes = game.cube.bit_length() - 1
    actions: list[Action] = []
    value = 1
    for index in range(takes):
        taker = owner if (takes - index) % 2 == 1 else 1 - owner
        value *= 2
        actions.append(Action(DOUBLE, 1 - taker, 0, value=value))
        actions.append(Action(TAKE, taker, 0))
    if game.ending == Ending.DROPPED:
        actions.append(Action(DOUBLE, side_of_winner, 0, value=value * 2))
        actions.append(Action(DROP, 1 - side_of_winner, 0))
    return actions


def score_sheet_transcript(match: Match) -> str | None:
    """A ``.mat`` transcript of a match entered game by game: its score lines, cube
    actions and results, without moves (never entered). ``None`` when there is nothing
    to export: no games, or a final score recorded without them."""
    from games.rules.matexport import export_mat
    from games.rules.matfile import ParsedMatch

    rows = list(match.games.order_by("number"))
    if not rows or match.final_score_only:
        return None
    names = (match.player1.display_name, match.player2.display_name)
    games = []
    for row in rows:
        winner = 0 if row.winner_id == match.player1_id else 1
        games.append(
            ParsedGame(
                number=row.number,
                score_before=(row.score1_before, row.score2_before),
                line=0,
                actions=_cube_actions(row, winner)
                if row.cube > 1 or row.ending == "dropped"
                else [],
                declared_winner=winner,
                declared_points=row.points,
                declared_match=row.ending == Ending.MATCH_RESIGNED,
                names=names,
            )
        )
    metadata = {"Transcriber": "Boxcars score sheet (no moves)"}
    if match.variant != variants.DEFAULT:
        metadata["Variation"] = variation_name_of(match.variant)
    if match.played_on:
        metadata["EventDate"] = match.played_on.strftime("%Y.%m.%d")
    return export_mat(ParsedMatch(match.length, names, metadata, games))
