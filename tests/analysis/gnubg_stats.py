"""Read the per-player figures of gnubg's ``show statistics match`` (either program)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROWS = {
    "Total moves": "moves",
    "Unforced moves": "unforced",
    "Moves marked doubtful": "doubtful",
    "Moves marked bad": "bad",
    "Moves marked very bad": "very_bad",
    "Close or actual cube decisions": "close_cube",
}
_NUMBER = r"([+-]?\d+(?:\.\d+)?)"


def parse_statistics(text: str) -> list[dict[str, float]]:
    """Both players' figures; error and luck rates in mEMG (error rates positive)."""
    players: list[dict[str, float]] = [{}, {}]
    section = ""
    for line in text.splitlines():
        head = line.strip()
        if head in ("Chequerplay statistics", "Luck statistics", "Cube statistics"):
            section = head.split()[0].lower()
        elif head == "Overall statistics":
            section = "overall"
        for label, key in ROWS.items():
            if line.startswith(label):
                values = re.findall(r"\s(\d+)(?=\s|$)", line[len(label) :])
                for i in (0, 1):
                    players[i][key] = float(values[i])
        if line.startswith("Error rate mEMG") or line.startswith("Luck rate mEMG"):
            values = re.findall(_NUMBER + r"\s+\(", line)
            name = "luck_rate" if line.startswith("Luck") else f"{section}_error_rate"
            for i in (0, 1):
                value = float(values[i])
                players[i][name] = value if name == "luck_rate" else -value
        if line.startswith("Error total EMG") and section == "overall":
            values = re.findall(_NUMBER + r"\s+\(", line)
            for i in (0, 1):
                players[i]["total_error"] = -float(values[i])
    return players


def binding_statistics(mat: Path, plies: int) -> list[dict[str, float]]:
    """The PyPI binding's own ``show statistics match`` (run in a child: it prints)."""
    script = (
        "import gnubg\n"
        "gnubg.command('set threads 1')\n"
        f"gnubg.command('set analysis chequerplay evaluation plies {plies}')\n"
        f"gnubg.command('set analysis cubedecision evaluation plies {plies}')\n"
        f"gnubg.command('import mat \"{mat}\"')\n"
        "gnubg.command('analyse match')\n"
        "gnubg.command('show statistics match')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    return parse_statistics(out.stdout)


def program_statistics(program: str, mat: Path, plies: int) -> list[dict[str, float]]:
    """Debian's ``gnubg`` program in text mode: import, analyse, show statistics."""
    commands = (
        f"set analysis chequerplay evaluation plies {plies}\n"
        f"set analysis cubedecision evaluation plies {plies}\n"
        f'import mat "{mat}"\n'
        "analyse match\n"
        "show statistics match\n"
    )
    out = subprocess.run(
        [program, "-t", "-q"],
        input=commands,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return parse_statistics(out.stdout)


def fresh_process_totals(mat: Path, plies: int) -> list[dict[str, object]]:
    """Our totals of ``mat``, computed by ``analysis.engine`` in a fresh child process.

    The state every analysis must match: the comparison with the binding's own
    statistics (also a fresh child) and the same-process repeat test start from it.
    """
    fields = [
        "moves",
        "unforced",
        "close_cube",
        "checker_error_rate",
        "error_rate",
        "total_error",
        "luck_rate",
    ]
    script = "\n".join(
        [
            "import json, pathlib",
            "from analysis import engine",
            "from analysis.decisions import decisions_of",
            "from analysis.figures import totals",
            f"text = pathlib.Path({str(mat)!r}).read_text(encoding='utf-8')",
            f"a = engine.analyse_mat(text, plies={plies})",
            "rows = totals(r.decision for r in decisions_of(a))",
            f"out = [dict({{k: getattr(t, k) for k in {fields!r}}}, marks=dict(t.checker_marks))",
            "       for t in rows]",
            "print('TOTALS ' + json.dumps(out))",
        ]
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    line = next(x for x in out.stdout.splitlines() if x.startswith("TOTALS "))
    return list(json.loads(line[len("TOTALS ") :]))
