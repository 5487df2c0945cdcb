"""The one module of Boxcars that talks to GNU Backgammon (the ``gnubg`` Python binding).

Everything else in the project asks this module and never imports ``gnubg`` itself
(an import-linter contract checks it), so the engine can be replaced, pinned or faked in
one place. What it offers:

* :func:`analyse_mat` - gnubg's own analysis of a ``.mat`` transcript at a given depth:
  the binding's ``import mat`` and ``analyse match`` (the same code as the gnubg program),
  read back per decision from the analysed match (``gnubg.match`` for the records and
  gnubg's own boards, the SGF that gnubg saves for the equities, the luck and the cube
  analysis). Reading gnubg's own analysis, rather than re-deriving it from single
  evaluations, is what makes our figures gnubg's figures: the same move filters, the same
  cube handling (match equity table, Crawford, post-Crawford), the same luck.
* :func:`position_id`, :func:`match_id` - gnubg's identifiers of a position and of the
  match state, for storage and for the position check over the corpus.
* :func:`best_play` - gnubg's best play for a roll (used to generate matches played by
  gnubg itself, whose PR must be 0).
* :func:`error_rating`, :func:`luck_rating` - gnubg's verbal ratings.

The binding keeps one global match and prints to the process's standard output, so every
call holds a lock and silences file descriptors 1 and 2 while gnubg runs.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import gnubg

# The rolling player's checkers in gnubg's SGF: 'a'..'x' are points, 'y' the bar, 'z' off.
_BAR, _OFF = 25, 0
_LOCK = threading.RLock()
# the records gnubg writes as a move node of its SGF (a resignation is not one)
_SAVED_ACTIONS = ("move", "double", "take", "drop")
_CACHE_ENTRIES = 1 << 20
# a size gnubg's cache is set to for a moment so that setting it back really empties it
_CACHE_FLUSH_ENTRIES = 1 << 10

ENGINE_NAME = "GNU Backgammon"


class EngineError(Exception):
    """gnubg could not analyse the transcript (it read it differently, or failed)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play gnubg considered: its steps (mover's numbering) and its equity (EMG)."""

    steps: tuple[tuple[int, int], ...]
    equity: float


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """gnubg's cube analysis of a position, in normalised equity of the player on roll.

    ``double_pass`` is always 1.0 (winning the current cube value is the unit).
    """

    no_double: float
    double_take: float
    double_pass: float = 1.0

    @property
    def optimal(self) -> float:
        return max(self.no_double, min(self.double_take, self.double_pass))


@dataclass(slots=True)
class EngineRecord:
    """One action of the transcript as gnubg analysed it."""

    player: int  # 0 = the left column of the .mat (gnubg's player 0)
    action: str  # "move", "double", "take", "drop", "resign", ...
    dice: tuple[int, int] | None = None
    played: tuple[tuple[int, int], ...] | None = None
    board: str = ""  # gnubg's position ID before the action, from the actor's side
    match_id: str = ""  # gnubg's match ID before the action (score, cube, dice)
    cube_value: int = 1
    cube_owner: int | None = None  # None: centred
    candidates: tuple[Candidate, ...] = ()
    played_index: int | None = None
    luck: float | None = None
    cube: CubeAnalysis | None = None  # the cube decision before this move / of this double


@dataclass(slots=True)
class EngineGame:
    number: int
    score: tuple[int, int]
    crawford: bool
    records: list[EngineRecord] = field(default_factory=list)


@dataclass(slots=True)
class EngineMatch:
    length: int
    players: tuple[str, str]
    plies: int
    games: list[EngineGame] = field(default_factory=list)


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    """Hold the engine lock and send gnubg's console output to /dev/null."""
    with _LOCK:
        saved = [os.dup(1), os.dup(2)]
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
            os.dup2(null, 2)
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in (*saved, null):
                os.close(fd)


@dataclass(frozen=True, slots=True)
class MoveFilter:
    """Which candidate plays of a 2-ply analysis gnubg looks at 2 plies deep.

    gnubg ranks every legal play at 0-ply and keeps up to ``extra_0`` within
    ``threshold_0`` of the best; those are evaluated at 1-ply, and up to ``extra_1``
    within ``threshold_1`` of the best there go on to 2-ply (``extra_1`` < 0: no 1-ply
    step, all go to 2-ply). The played move is always evaluated at the full depth.
    """

    extra_0: int
    threshold_0: float
    extra_1: int
    threshold_1: float

    def commands(self) -> tuple[str, ...]:
        second = (
            "set analysis movefilter 2 1 -1 0 0"
            if self.extra_1 < 0
            else f"set analysis movefilter 2 1 0 {self.extra_1} {self.threshold_1}"
        )
        return (f"set analysis movefilter 2 0 0 {self.extra_0} {self.threshold_0}", second)


# the binding's own default for 2 plies (up to 8 plays evaluated 2 plies deep)
BINDING_FILTER = MoveFilter(16, 0.32, 8, 0.16)
# Boxcars's: up to 4 plays within 0.08 of the best at 1-ply go on to 2-ply (the 1-ply
# step of gnubg's "large" filter). A play 0.08 behind at 1-ply is rarely best at 2-ply;
# it costs about a third less (docs/analysis.md, Speed, states the figures it moved).
BOXCARS_FILTER = MoveFilter(16, 0.32, 4, 0.08)


@dataclass(slots=True)
class _Configured:
    """What gnubg was last set to (the binding is one global engine)."""

    plies: int | None = None
    move_filter: MoveFilter | None = None


_configured = _Configured()


def _configure(plies: int, move_filter: MoveFilter = BOXCARS_FILTER) -> None:
    """Set gnubg's analysis depth and move filter (and one thread: the binding's pool
    stalls otherwise)."""
    if (_configured.plies, _configured.move_filter) == (plies, move_filter):
        return
    for command in (
        "set threads 1",
        "set sound enable off",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        "set analysis luck on",
        "set analysis luckanalysis plies 0",
        *move_filter.commands(),
    ):
        gnubg.command(command)
    _configured.plies = plies
    _configured.move_filter = move_filter


def _empty_cache() -> None:
    """Empty gnubg's evaluation cache, so an analysis never depends on earlier ones.

    gnubg keeps evaluations in a cache that outlives an analysis; in a long-lived process
    an analysis then reads positions cached by earlier matches and its figures move in
    the last digits (``boxcars_crawford_7p.mat`` at 0-ply: an error rate of 120.082
    instead of 120.083 mEMG after 25 other matches; CI once saw the checker error rate
    at 52.5 instead of 53.3). ``set cache N`` with the size it already has leaves the
    cache as it is, so the size goes down and back up: a resize allocates a new, empty
    cache, which is the state of a fresh process.
    """
    gnubg.command(f"set cache {_CACHE_FLUSH_ENTRIES}")
    gnubg.command(f"set cache {_CACHE_ENTRIES}")


def board_of(me: tuple[int, ...], opp: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """gnubg's board from a position in our numbering (index 0 off, 1..24, 25 bar)."""
    return (list(opp[1:26]), list(me[1:26]))


def position_id(me: tuple[int, ...], opp: tuple[int, ...]) -> str:
    """gnubg's position ID of the position with ``me`` on roll."""
    return str(gnubg.position_id(board_of(me, opp)))


def _cube_info(
    *,
    cube: int,
    owner: int | None,
    mover: int,
    length: int,
    score: tuple[int, int],
    crawford: bool,
) -> dict[str, object]:
    return gnubg.cube_info(
        cube, -1 if owner is None else owner, mover, length, score, int(crawford), 0
    )


def match_id(
    *,
    cube: int,
    owner: int | None,
    mover: int,
    length: int,
    score: tuple[int, int],
    crawford: bool,
    dice: tuple[int, int] | None,
    doubled: bool = False,
) -> str:
    """gnubg's match ID (score, cube, Crawford, the player on roll, the dice)."""
    ci = _cube_info(
        cube=cube, owner=owner, mover=mover, length=length, score=score, crawford=crawford
    )
    pi = gnubg.pos_info(mover, 0, int(doubled), 1, dice or (0, 0))
    return str(gnubg.match_id(ci, pi))


def best_play(
    me: tuple[int, ...],
    opp: tuple[int, ...],
    dice: tuple[int, int],
    *,
    mover: int,
    length: int,
    score: tuple[int, int],
    cube: int = 1,
    owner: int | None = None,
    crawford: bool = False,
    plies: int = 0,
) -> tuple[tuple[int, int], ...]:
    """gnubg's best play for the roll (steps in the mover's numbering)."""
    ci = _cube_info(
        cube=cube, owner=owner, mover=mover, length=length, score=score, crawford=crawford
    )
    ec = gnubg.eval_context(1, plies, 1, 0, 0.0)
    with _LOCK:
        move = gnubg.find_best_move(board_of(me, opp), ci, ec, dice)
    flat = [int(x) for x in move]
    if len(flat) % 2:  # the binding drops the final "off" (0) of a play that bears off last
        flat.append(_OFF)
    return tuple((int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2))


def error_rating(error_per_move: float) -> str:
    """gnubg's words for an error rate (EMG per decision, positive)."""
    names = [
        "Awful!",
        "Beginner",
        "Casual player",
        "Intermediate",
        "Advanced",
        "Expert",
        "World class",
        "Supernatural",
    ]
    return names[int(gnubg.error_rating(-abs(error_per_move)))]


def luck_rating(luck_per_move: float) -> str:
    """gnubg's words for a luck rate (EMG per move)."""
    names = ["Go to bed", "Bad dice, man!", "Neutral", "Good dice, man!", "Cheater :-)"]
    index = int(gnubg.luck_rating(luck_per_move))
    return names[index] if 0 <= index < len(names) else "Neutral"


# ---------------------------------------------------------------------------------------
# reading gnubg's saved analysis


_NODE = re.compile(r";((?:[A-Z]+(?:\[(?:[^\]\\]|\\.)*\])+)+)")
_PROP = re.compile(r"([A-Z]+)((?:\[(?:[^\]\\]|\\.)*\])+)")
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]")


def _sgf_games(text: str) -> list[list[dict[str, list[str]]]]:
    """The nodes of each game tree of a gnubg SGF file, each node {property: values}."""
    games: list[list[dict[str, list[str]]]] = []
    for tree in text.split("(;")[1:]:
        nodes = []
        for raw in (";" + tree).split("\n;"):
            raw = raw.strip()
            if raw.startswith(";"):
                raw = raw[1:]
            node: dict[str, list[str]] = {}
            for name, values in _PROP.findall(raw.rstrip(")")):
                node[name] = _VALUE.findall(values)
            nodes.append(node)
        games.append(nodes[1:])  # the first node is the game's header
    return games


def _point(letter: str, player: int) -> int:
    index = ord(letter) - ord("a")
    if index == 24:
        return _BAR
    if index == 25:
        return _OFF
    return index + 1 if player == 0 else 24 - index


def _steps(letters: str, player: int) -> tuple[tuple[int, int], ...]:
    return tuple(
        (_point(letters[i], player), _point(letters[i + 1], player))
        for i in range(0, len(letters) - 1, 2)
    )


def _candidate(text: str, player: int) -> Candidate:
    # "agln E ver 3 p1 p2 p3 p4 p5 equity 0C ..." (an evaluation) or a rollout ("R ...")
    parts = text.split()
    letters = parts[0] if parts and parts[0].isalpha() and parts[0].islower() else ""
    equity = float(parts[9]) if len(parts) > 9 and parts[1] == "E" else float("nan")
    return Candidate(_steps(letters, player), equity)


def _cube(text: str, ci: dict[str, object], length: int) -> CubeAnalysis | None:
    """gnubg's saved cube analysis ``DA[...]`` in normalised equity of the player on roll.

    The text is "E ver 3 <plies>C <det> <noise> <prune>", then 7 outputs for no double and
    7 for double/take (5 probabilities, cubeless equity, cubeful equity); in match play the
    cubeful figure is a match-winning chance, converted at the match score with ``ci``.
    """
    parts = text.split()
    if len(parts) < 21 or parts[0] != "E":
        return None
    numbers = [float(x) for x in parts[-14:]]
    no_double, double_take = numbers[6], numbers[13]
    if length:
        no_double = float(gnubg.mwc2eq(no_double, ci))
        double_take = float(gnubg.mwc2eq(double_take, ci))
    return CubeAnalysis(no_double, double_take)


def _is_crawford(score: tuple[int, int], length: int, played: bool) -> bool:
    if length <= 1 or played:
        return False
    return (score[0] == length - 1) != (score[1] == length - 1)


def analyse_mat(text: str, *, plies: int, move_filter: MoveFilter = BOXCARS_FILTER) -> EngineMatch:
    """gnubg's analysis of a ``.mat`` transcript, decision by decision, in a child process.

    A fresh process per analysis, for two reasons found the hard way: the binding's
    ``import mat`` crashes the whole process (a segmentation fault) when called from any
    thread but the main one (a threaded server, a thread-pool worker), and gnubg's state
    outlives an analysis (its evaluation cache: see :func:`_empty_cache`), so figures
    must not depend on what the process analysed before. The child costs a Python start
    and the binding's import against seconds of analysis. ``move_filter`` matters at 2
    plies and more; the bench passes :data:`BINDING_FILTER` to compare with the
    binding's default.
    """
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="boxcars-gnubg-") as tmp:
        job, answer = Path(tmp) / "job.pickle", Path(tmp) / "answer.pickle"
        job.write_bytes(pickle.dumps((text, plies, move_filter)))
        path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(job), str(answer)],
            cwd=root,
            env={**os.environ, "PYTHONPATH": path},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
        )
        if done.returncode != 0 or not answer.exists():
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
            raise EngineError(f"gnubg stopped (exit {done.returncode}): {' '.join(tail)}")
        result = pickle.loads(answer.read_bytes())
    if isinstance(result, EngineError):
        raise result
    assert isinstance(result, EngineMatch)
    return result


_CHILD = "import sys; from analysis.engine import _child; _child(sys.argv[1], sys.argv[2])"


def _child(job: str, answer: str) -> None:
    """The child's side of :func:`analyse_mat`: analyse here, pickle the answer."""
    text, plies, move_filter = pickle.loads(Path(job).read_bytes())
    result: EngineMatch | EngineError
    try:
        result = analyse_here(text, plies=plies, move_filter=move_filter)
    except EngineError as exc:
        result = exc
    Path(answer).write_bytes(pickle.dumps(result))


def analyse_here(text: str, *, plies: int, move_filter: MoveFilter = BOXCARS_FILTER) -> EngineMatch:
    """gnubg's analysis in this process, only from its main thread (see
    :func:`analyse_mat`); the cache is emptied first, so the figures are a fresh
    process's."""
    with _silenced(), tempfile.TemporaryDirectory(prefix="boxcars-gnubg-") as tmp:
        _configure(plies, move_filter)
        _empty_cache()
        source = Path(tmp) / "match.mat"
        source.write_text(text, encoding="utf-8")
        saved = Path(tmp) / "match.sgf"
        gnubg.command(f'import mat "{source}"')
        gnubg.command("analyse match")
        gnubg.command(f'save match "{saved}"')
        data = gnubg.match(analysis=False, boards=True, statistics=False, verbose=False)
        sgf = _sgf_games(saved.read_text(encoding="utf-8")) if saved.exists() else []
        info = data["match-info"]
        length = int(info.get("match-length", 0))
        result = EngineMatch(
            length=length,
            players=(str(info["X"]["name"]), str(info["O"]["name"])),
            plies=plies,
        )
        if len(sgf) != len(data["games"]):
            raise EngineError(f"gnubg saved {len(sgf)} games of {len(data['games'])}")
        crawford_played = False
        for number, (game, nodes) in enumerate(zip(data["games"], sgf, strict=True), start=1):
            score = (int(game["info"]["score-X"]), int(game["info"]["score-O"]))
            crawford = _is_crawford(score, length, crawford_played)
            crawford_played = crawford_played or crawford
            result.games.append(_read_game(number, game["game"], nodes, score, crawford, length))
        return result


def _read_game(
    number: int,
    records: list[dict[str, object]],
    nodes: list[dict[str, list[str]]],
    score: tuple[int, int],
    crawford: bool,
    length: int,
) -> EngineGame:
    out = EngineGame(number, score, crawford)
    saved = iter(n for n in nodes if "B" in n or "W" in n)
    acted = [r for r in records if r.get("action") in _SAVED_ACTIONS]
    moves = [next(saved, None) for _ in acted]
    if None in moves or next(saved, None) is not None:
        raise EngineError(f"game {number}: gnubg saved another number of actions")
    node_of = {id(r): n for r, n in zip(acted, moves, strict=True)}
    cube, owner = 1, None
    pending_cube: CubeAnalysis | None = None
    pending_board = ""
    for record in records:
        node: dict[str, list[str]] = node_of.get(id(record)) or {}
        player = 0 if record.get("player") == "X" else 1
        action = str(record.get("action", ""))

        ci_now = _cube_info(
            cube=cube, owner=owner, mover=player, length=length, score=score, crawford=crawford
        )
        rec = EngineRecord(
            player=player,
            action=action,
            board=str(record.get("board", "")),
            cube_value=cube,
            cube_owner=owner,
        )
        dice_now = record.get("dice") if action == "move" else None
        rec.match_id = match_id(
            cube=cube,
            owner=owner,
            mover=player,
            length=length,
            score=score,
            crawford=crawford,
            dice=(int(dice_now[0]), int(dice_now[1])) if dice_now else None,  # type: ignore[index]
            doubled=action in ("take", "drop"),
        )
        cube_analysis = _cube(node["DA"][0], ci_now, length) if "DA" in node else None
        if action == "move":
            dice = record.get("dice")
            rec.dice = (int(dice[0]), int(dice[1])) if dice else None  # type: ignore[index]
            rec.played = tuple(
                (int(a), int(b))
                for a, b in record.get("move") or ()  # type: ignore[attr-defined]
            )
            rec.cube = cube_analysis
            if node.get("A"):
                rec.played_index = int(node["A"][0])
                rec.candidates = tuple(_candidate(c, player) for c in node["A"][1:])
            if "LU" in node:
                rec.luck = float(node["LU"][0])
        elif action == "double":
            rec.cube = cube_analysis
            pending_cube = cube_analysis
            pending_board = rec.board
        elif action in ("take", "drop"):
            # the answer is judged on the doubler's analysis, seen from the doubler's side;
            # gnubg keeps no board on the answer: the doubler's, turned to the taker
            rec.cube = pending_cube
            if not rec.board and pending_board:
                rec.board = flip_position_id(pending_board)
            if action == "take":
                cube, owner = cube * 2, player
            pending_cube = None
        out.records.append(rec)
    return out


def gnubg_boards(text: str) -> list[list[tuple[str, int, str]]]:
    """gnubg's own reading of a transcript: per game, (action, player, position ID before).

    Only ``import mat`` (no analysis): the position check over the corpus compares these
    boards with the positions our replay produces.
    """
    with _silenced(), tempfile.TemporaryDirectory(prefix="boxcars-gnubg-") as tmp:
        _configure(_configured.plies or 0)
        source = Path(tmp) / "match.mat"
        source.write_text(text, encoding="utf-8")
        gnubg.command(f'import mat "{source}"')
        data = gnubg.match(analysis=False, boards=True, statistics=False, verbose=False)
    return [
        [
            (
                str(r.get("action", "")),
                0 if r.get("player") == "X" else 1,
                str(r.get("board", "")),
            )
            for r in game["game"]
        ]
        for game in data["games"]
    ]


def flip_position_id(pid: str) -> str:
    """The same position seen from the other side (the other player on roll)."""
    me, opp = board_from_id(pid)
    return position_id(opp, me)


def board_from_id(pid: str, checkers: int = 15) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(me, opp) in our numbering (0 off, 1..24, 25 bar) from a gnubg position ID; a
    side's men off are ``checkers`` (the variant's: 1-3 in hypergammon) less those on
    the board (a position ID holds only the board)."""
    opp, me = gnubg.position_from_id(pid)

    def side(points: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        counts = [int(x) for x in points]
        return (checkers - sum(counts), *counts)

    return side(me), side(opp)


def self_play_mat(*, length: int, seed: int, plies: int = 0) -> str:
    """A ``.mat`` of a match gnubg plays against itself (both players gnubg at ``plies``).

    Such a match is played by gnubg's own best choices, so analysed at the same depth its
    PR must be 0: the property test of the analysis.
    """
    with _silenced(), tempfile.TemporaryDirectory(prefix="boxcars-gnubg-") as tmp:
        _configure(plies if _configured.plies is None else _configured.plies)
        out = Path(tmp) / "self.mat"
        for player in (0, 1):
            gnubg.command(f"set player {player} gnubg")
            gnubg.command(f"set player {player} name gnubg{player}")
            gnubg.command(f"set player {player} chequerplay evaluation plies {plies}")
            gnubg.command(f"set player {player} cubedecision evaluation plies {plies}")
        gnubg.command("set rng mersenne")
        gnubg.command(f"set seed {int(seed)}")
        gnubg.command(f"new match {int(length)}")
        gnubg.command(f'export match mat "{out}"')
        return out.read_text(encoding="utf-8")


def version() -> str:
    """The binding's version (its gnubg engine)."""
    return str(getattr(gnubg, "__version__", "unknown"))
