"""The real data the rules tests read, all inside the repository (``data/``).

``data/mat/galaxy``, ``galaxy_coingame`` and ``bgstudio`` are the MIT-licensed
``lassehjorthmadsen/bglab`` transcripts; ``data/mat/boxcars`` holds the GNU Backgammon
dialect fixtures we wrote ourselves (a drops match, a Crawford match with its ``.sgf``
markers, a 1-point roll-then-resign). See ``data/README.md``.
"""

from __future__ import annotations

from games.datafiles import MAT_DIR, RATINGS_DIR, mat_files

MAT = MAT_DIR
BOXCARS = MAT / "boxcars"
DROPS = BOXCARS / "boxcars_drops_7p.mat"
CRAWFORD = BOXCARS / "boxcars_crawford_7p.mat"
ROLL_THEN_RESIGN = BOXCARS / "boxcars_roll_then_resign_1p.mat"
FIBS_TABLE = RATINGS_DIR / "fibs_batting_average_table.csv"

__all__ = [
    "BOXCARS",
    "CRAWFORD",
    "DROPS",
    "FIBS_TABLE",
    "MAT",
    "ROLL_THEN_RESIGN",
    "mat_files",
]
