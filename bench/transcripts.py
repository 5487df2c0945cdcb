"""Benchmark: replay the real ``.mat`` corpus through the rules engine.

Every move of every transcript in ``shared/data/mat`` is checked against the rules of
``../shared/rules/backgammon-rules-cube-crawford.txt`` (via :mod:`games.rules.replay`);
the figure that matters is transcript moves validated per second (target >= 2,000 on the
2-core machine). ``quick`` replays one file in ten.

The data folder is ``$BOXCARS_SHARED_DATA`` or, by default, ``shared/data`` beside the
repository (CI clones the repository next to ``shared/``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from games.rules.replay import check_file

SHARED_DATA = Path(
    os.environ.get("BOXCARS_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


def corpus_files(root: Path | None = None) -> list[Path]:
    """Every ``.mat`` file of the corpus, in a stable order."""
    base = (root or SHARED_DATA) / "mat"
    return sorted(base.glob("*/*.mat"))


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    """Replay the corpus (one file in ten when ``quick``) and report the throughput."""
    files = corpus_files()
    if quick:
        files = files[::10]
    moves = errors = warnings = 0
    started = time.perf_counter()
    for path in files:
        result = check_file(path)
        moves += result.moves_checked
        errors += len(result.errors)
        warnings += len(result.warnings)
    seconds = time.perf_counter() - started
    return {
        "files": len(files),
        "moves": moves,
        "seconds": round(seconds, 3),
        "moves_per_second": round(moves / seconds) if seconds > 0 else 0,
        "errors": errors,
        "warnings": warnings,
    }
