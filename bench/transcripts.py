"""Benchmark: replay the real ``.mat`` corpus through the rules engine.

Every move of every transcript in ``data/mat`` is checked against the rules of
``docs/rules.md`` (movement, bearing off, the cube, Crawford; via :mod:`games.rules.replay`);
the figure that matters is transcript moves validated per second (target >= 2,000 on the
2-core machine). ``quick`` replays one file in ten.

The corpus is the repository's own ``data/mat`` (see ``data/README.md``).
"""

from __future__ import annotations

import time
from pathlib import Path

from games.datafiles import DATA_DIR
from games.rules.replay import check_file


def corpus_files(root: Path | None = None) -> list[Path]:
    """Every ``.mat`` file of the corpus, in a stable order."""
    base = (root or DATA_DIR) / "mat"
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
