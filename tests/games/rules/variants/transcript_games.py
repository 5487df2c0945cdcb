"""Random legal matches of a variant, written as ``.mat`` transcripts: every play is one
the registry's engine lists for random dice, every stage of a throw (complementary
doublets, the doublets a 1-2 names, a further throw) taken as the engine says it is due.
Used by the transcript tests to build transcripts from plays the engine confirms legal."""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.rules.matexport import export_mat
from games.rules.matfile import ROLL, Action, ParsedGame, ParsedMatch
from games.rules.variant_moves import write_play
from games.rules.variants.position import VariantPosition
from games.rules.variants.scoring import game_result
from games.rules.variants.throws import Next, Stage, Throw, legal_plays
from games.rules.variants.transcripts import TranscriptGame, transcript_game

NAMES = ("alice", "bob")


@dataclass
class Played:
    """A game as generated: its cells and result (winner 0/1, points)."""

    actions: list[Action]
    winner: int
    points: int
    finished: bool  # played out (else resigned after ``max_cells``)


def random_game(
    played: TranscriptGame, number: int, rng: random.Random, max_cells: int = 400
) -> Played:
    variant = played.game(number)
    position = VariantPosition.start(variant)
    mover = rng.randint(0, 1)
    doublets: set[int] = set()
    due: Throw | None = None
    actions: list[Action] = []
    for _ in range(max_cells):
        if due is None:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            throw = Throw((d1, d2), earlier_doublets=mover in doublets)
            if d1 == d2:
                doublets.add(mover)
            written = (d1, d2)
        elif due.stage is Stage.CHOSEN:
            c = rng.randint(1, 6)
            throw = Throw(due.dice, Stage.CHOSEN, c, due.earlier_doublets)
            written = (c, c)
        else:
            throw = due
            n = 7 - (due.chosen if due.chosen is not None else due.dice[0])
            written = (n, n)
        stage = legal_plays(variant, position, throw)
        play = rng.choice(stage.plays)
        move = write_play(variant, position, play.steps)
        actions.append(Action(ROLL, mover, 0, written, move))
        position = play.after
        over = game_result(variant, position)
        if over is not None:
            winner = mover if over.winner == "mover" else 1 - mover
            return Played(actions, winner, over.points, True)
        due = None
        if stage.next is Next.COMPLEMENTARY:
            due = Throw(throw.dice, Stage.COMPLEMENTARY, throw.chosen, throw.earlier_doublets)
        elif stage.next is Next.CHOOSE_DOUBLETS:
            due = Throw(throw.dice, Stage.CHOSEN, earlier_doublets=throw.earlier_doublets)
        elif stage.next is not Next.THROW_AGAIN:
            mover, position = 1 - mover, position.flip()
    # long enough: the player not on roll is declared the winner (his opponent resigns)
    return Played(actions, 1 - mover, 1, False)


def random_match(
    variation: str,
    rng: random.Random,
    *,
    length: int = 3,
    house_rules: str = "",
    max_cells: int = 400,
) -> tuple[str, list[Played]]:
    """A whole match of ``length`` points as our export writes it, and its games."""
    metadata = {"Variation": variation}
    if house_rules:
        metadata["HouseRules"] = house_rules
    played = transcript_game(metadata)
    score = [0, 0]
    games: list[ParsedGame] = []
    plays: list[Played] = []
    while max(score) < length:
        number = len(games) + 1
        game = random_game(played, number, rng, max_cells)
        plays.append(game)
        games.append(
            ParsedGame(
                number=number,
                score_before=(score[0], score[1]),
                line=0,
                actions=game.actions,
                declared_winner=game.winner,
                declared_points=game.points,
                names=NAMES,
            )
        )
        score[game.winner] += game.points
    return export_mat(ParsedMatch(length, NAMES, metadata, games)), plays
