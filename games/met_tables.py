"""The match equity tables the repository carries, read once per process.

The parsing is pure (:mod:`games.rules.match_equity`); this module only knows where the
files are (``data/met/``, through :mod:`games.datafiles`) and which of them a club may
choose: the symmetric tables that list their entries (not the Jacobs-Trice tables with
a favourite, nor the ``mec``/``zadeh`` parameter files gnubg computes). Kazaross-XG2 is
the default (docs/chances.md).
"""

from __future__ import annotations

from functools import lru_cache

from games.datafiles import MET_DIR
from games.rules.match_equity import MatchEquityTable, parse_gnubg_xml, parse_xg_met

DEFAULT_TABLE = "Kazaross-XG2"

# Choice key (the file's stem) -> label shown to directors. Declared here, once: the
# club setting's choices, the form and the API read it. Ortega-Kleinman is carried but
# not offered: its printed table is inconsistent (p(7, 8) + p(8, 7) = 1.002).
CHOOSABLE_TABLES: dict[str, str] = {
    "Kazaross-XG2": "Kazaross-XG2 (25 points, default)",
    "Rockwell-Kazaross": "Rockwell-Kazaross (25 points)",
    "g11": "GNU Backgammon g11 (25 points)",
    "jacobs": "Jacobs-Trice (25 points)",
    "mec26": "MEC, Claes Tornberg (25 points)",
    "snowie": "Snowie 2.1 (15 points)",
    "woolsey": "Kit Woolsey (15 points)",
}


def table_path(key: str):
    """The file of a bundled table: ``<key>.xml`` (gnubg) or ``<key>.met`` (XG)."""
    for suffix in (".xml", ".met"):
        path = MET_DIR / f"{key}{suffix}"
        if path.is_file():
            return path
    raise KeyError(f"No bundled match equity table {key!r} in {MET_DIR}.")


@lru_cache(maxsize=32)
def load_table(key: str) -> MatchEquityTable:
    """Parse one bundled table (cached: the files never change while the process runs)."""
    path = table_path(key)
    if path.suffix == ".met":
        # XG writes its .met files in Windows-1252 (the copyright sign of the header).
        return parse_xg_met(path.read_bytes().decode("cp1252"))
    return parse_gnubg_xml(path.read_text(encoding="utf-8"))


def default_table() -> MatchEquityTable:
    """Kazaross-XG2, the table a club uses unless it chose another."""
    return load_table(DEFAULT_TABLE)


def club_table(key: str | None) -> MatchEquityTable:
    """The table a club's setting names, the default for an empty or unknown key."""
    return load_table(key if key in CHOOSABLE_TABLES else DEFAULT_TABLE)
