"""The databases GNU Backgammon needs beyond its neural nets to analyse a variant at all.

Kept apart from :mod:`analysis.engine` (which alone imports the gnubg binding): this
module finds the binding's data folder without importing it (``importlib``), so asking
whether a match can be analysed never loads the engine.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


def _data_dir() -> Path:
    spec = importlib.util.find_spec("gnubg")
    origin = spec.origin if spec is not None else None
    return Path(origin).resolve().parent / "data" if origin else Path("/nonexistent")


#: Where the binding reads its databases (its weights, bearoff and hypergammon files).
DATA_DIR = _data_dir()

#: The database gnubg needs to evaluate a variant's positions at all, beyond its neural
#: nets: hypergammon is played from its own bearoff-style database alone, which the
#: binding does not ship. Without it gnubg's analysis of a hypergammon match has no
#: candidate plays, no luck and no cube figures (and Debian's gnubg program stops on
#: ``BearoffEval: assertion 'pbc' failed``). ``make install`` builds hyper1.bd and
#: hyper2.bd with Debian's ``makehyper``; ``make gnubg-hyper GNUBG_HYPER=3`` builds the
#: third (docs/rules.md, "Analysis of variants").
VARIANT_DATABASES = {
    "hypergammon-1": "hyper1.bd",
    "hypergammon-2": "hyper2.bd",
    "hypergammon-3": "hyper3.bd",
}


def missing_database(variant_key: str) -> str | None:
    """The file gnubg lacks on this server to analyse ``variant_key`` (None: none)."""
    name = VARIANT_DATABASES.get(variant_key)
    if name is None or (DATA_DIR / name).is_file():
        return None
    return name
