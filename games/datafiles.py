"""Where the data the repository carries lives (``data/`` at the repository root).

The match equity tables in ``data/met/`` are read at run time by the rules of match
equity; the transcripts in ``data/mat/`` and the tables in ``data/ratings/`` are read by
the tests and the benchmarks. Paths are computed from this file, so a checkout (or an
image that copies ``data/`` beside ``games/``) needs nothing else: no environment
variable points outside the repository. ``data/README.md`` gives each file's source and
licence.
"""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
MAT_DIR = DATA_DIR / "mat"
MET_DIR = DATA_DIR / "met"
RATINGS_DIR = DATA_DIR / "ratings"


def mat_files(folder: str | None = None) -> list[Path]:
    """Every ``.mat`` transcript under ``data/mat`` (or one dialect folder of it), sorted."""
    pattern = f"{folder}/*.mat" if folder else "*/*.mat"
    return sorted(MAT_DIR.glob(pattern))
