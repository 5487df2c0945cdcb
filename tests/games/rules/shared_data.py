"""Where the shared real data lives for the rules tests.

``$BOXCARS_SHARED_DATA`` or ``shared/data`` beside the repository (``/work/shared/data``
for a checkout at ``/work/main``; CI clones the repository next to ``shared/``).
"""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATA = Path(
    os.environ.get("BOXCARS_SHARED_DATA", Path(__file__).resolve().parents[4] / "shared" / "data")
)
MAT = SHARED_DATA / "mat"


def mat_files(folder: str | None = None) -> list[Path]:
    """Every ``.mat`` file of the corpus (or of one dialect folder), sorted."""
    pattern = f"{folder}/*.mat" if folder else "*/*.mat"
    return sorted(MAT.glob(pattern))
