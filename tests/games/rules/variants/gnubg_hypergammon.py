"""A hypergammon match played in GNU Backgammon's text mode, for the transcript tests.

GNU Backgammon writes the transcript (``export match mat``), so its ``Variation`` tag,
its layout and its notation are gnubg's own. gnubg cannot play hypergammon by itself
here: its hypergammon evaluator needs the ``hyper`` databases Debian does not ship
(``BearoffEval: assertion 'pbc' failed``). So both sides are "human": the dice come from
a seeded generator (``set dice``) and each play is one the variant engine lists (a
hitting play when there is one), and gnubg checks every play as it is entered, refusing
an illegal one with ``Illegal or unparsable move`` (which :func:`play_match` turns into
an error). Game 1 has a double and a take, so the cube is written too.

The checked-in ``data/gnubg-hypergammon-3.mat`` and ``data/gnubg-hypergammon-1.mat``
were made by::

    .venv/bin/python -m tests.games.rules.variants.gnubg_hypergammon 3 7 \\
        > tests/games/rules/variants/data/gnubg-hypergammon-3.mat
    .venv/bin/python -m tests.games.rules.variants.gnubg_hypergammon 1 3 \\
        > tests/games/rules/variants/data/gnubg-hypergammon-1.mat

(GNU Backgammon 1.07.001, Debian's ``/usr/games/gnubg``).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from games.rules.board import Position, game_over
from games.rules.matfile import ROLL, parse_mat
from games.rules.variants import REGISTRY
from games.rules.variants.engine import stage_plays
from games.rules.variants.position import VariantPosition

LENGTH = 5
GAMES = 2 * LENGTH  # every game is worth a point at least
_NAMES = {25: "bar", 0: "off"}


def gnubg_program() -> str | None:
    """The ``gnubg`` program (Debian installs it in ``/usr/games``), or ``None``."""
    found = shutil.which("gnubg")
    if found:
        return found
    debian = "/usr/games/gnubg"
    return debian if os.access(debian, os.X_OK) else None


def _roll(rng: random.Random, opening: bool) -> tuple[int, int]:
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if not (opening and d1 == d2):  # an opening roll is never a double
            return d1, d2


def commands(checkers: int, seed: int) -> list[str]:
    """gnubg's commands for a ``LENGTH``-point match of hypergammon-``checkers``.

    Positions are kept from the side on roll (gnubg reads a play in the mover's own
    numbering), so who opens each game (gnubg's opening roll decides) does not matter
    here; not knowing it, we cannot tell when the match ends, so ``GAMES`` games are
    written, more than any match to ``LENGTH`` lasts, and gnubg answers the commands
    after its end with ``No game in progress``.
    """
    variant = REGISTRY[f"hypergammon-{checkers}"]
    rng = random.Random(seed)
    out = [
        f"set variation {checkers}-chequer-hypergammon",
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "set automatic game on",
        f"set seed {seed}",  # gnubg's own opening rolls decide who opens each game
        f"new match {LENGTH}",
    ]
    for game in range(1, GAMES + 1):
        start = variant.start_side()
        pos = VariantPosition(start, start)
        turn = 0
        while True:
            turn += 1
            if game == 1 and turn == 3:
                out += ["double", "take"]
            dice = _roll(rng, opening=turn == 1)
            out.append(f"set dice {dice[0]} {dice[1]}")
            ds = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
            plays = stage_plays(variant, pos, ds)
            hitting = [p for p in plays if p.hits]
            play = rng.choice(hitting or plays)
            if play.steps:  # a dance is passed by gnubg itself
                out.append(
                    " ".join(f"{_NAMES.get(a, a)}/{_NAMES.get(b, b)}" for a, b in play.steps)
                )
            if game_over(Position(play.after.me[:26], play.after.opp[:26])):
                break
            pos = play.after.flip()
    return out


def play_match(checkers: int, seed: int) -> str:
    """The ``.mat`` gnubg writes for the match of :func:`commands`."""
    program = gnubg_program()
    if program is None:
        raise RuntimeError("GNU Backgammon (gnubg) is not installed")
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "match.mat"
        script = [*commands(checkers, seed), f"export match mat {target}", "quit"]
        ran = subprocess.run(
            [program, "-t", "-q", "-r"],
            input="\n".join(script) + "\n",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=folder,
        )
        if "Illegal or unparsable move" in ran.stdout:
            raise RuntimeError("gnubg refused a play:\n" + ran.stdout[-2000:])
        text = target.read_text(encoding="utf-8")
    # gnubg followed the script to the end of the match: the dice it wrote are ours, in
    # order, the higher die first as gnubg writes them (a command it ignored would shift
    # every later roll)
    written = [a.dice for g in parse_mat(text).games for a in g.actions if a.kind == ROLL]
    ours = [
        tuple(sorted(map(int, c.split()[2:]), reverse=True))
        for c in script
        if c.startswith("set dice ")
    ]
    if not written or written != ours[: len(written)] or "has won the match" not in ran.stdout:
        raise RuntimeError("gnubg did not play the script through:\n" + ran.stdout[-2000:])
    return text


if __name__ == "__main__":
    sys.stdout.write(play_match(int(sys.argv[1]), int(sys.argv[2])))
