"""The files the bodies receive: CSVs (formula-safe, ``core.csv_files``) and the zip.

None of the bodies publishes a file format for these submissions (the WBGF's results
are entered at results.wbgf.info, the others by email), so each file is a CSV with the
columns the body asks for, one header row, UTF-8, comma-separated; the columns are
listed in docs/federations.md with a sample of each. The match bundle is a zip of the
``.mat`` files (the project's own export) plus ``manifest.csv``.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from core.csv_files import writer

from .abt import Award
from .matches import MatchFacts, clock_face
from .people import Person, place_labels
from .wbgf import Check

WBGF_COLUMNS = ["place", "place_label", "player", "event", "date", "players", "qualifies"]
ABT_COLUMNS = [
    "place",
    "place_label",
    "player",
    "division",
    "division_factor",
    "attendance",
    "points",
]
UKBGF_COLUMNS = [
    "date", "event", "round", "player1", "player2", "length", "score1", "score2", "winner",
    "clock", "clock_reserve", "player1_time_left", "player2_time_left",
]  # fmt: skip
MANIFEST_COLUMNS = [
    "file", "event", "date", "round", "player1", "player2", "length", "score1", "score2",
    "winner", "clocked", "clock",
]  # fmt: skip


@dataclass(frozen=True)
class EventInfo:
    """The event as every file names it."""

    name: str
    slug: str
    date: date | None

    @property
    def day(self) -> str:
        return self.date.isoformat() if self.date else ""


def _csv(columns: list[str], rows: Sequence[Sequence[object]]) -> bytes:
    out = io.StringIO(newline="")
    csv_out = writer(out)
    csv_out.writerow(columns)
    csv_out.writerows(rows)
    return out.getvalue().encode("utf-8")


def wbgf_csv(event: EventInfo, places: list[list[Person]], checks: list[Check]) -> bytes:
    """Every entrant with their finishing place (ties share the first rank of the group)."""
    players = sum(len(group) for group in places)
    qualifies = "yes" if all(check.passed for check in checks) else "no"
    rows = [
        [rank, label, person.name, event.name, event.day, players, qualifies]
        for rank, label, person in place_labels(places)
    ]
    return _csv(WBGF_COLUMNS, rows)


def abt_csv(division: str, factor: object, attendance: int, awards: list[Award]) -> bytes:
    rows = [
        [
            a.place,
            a.label,
            a.person.name if isinstance(a.person, Person) else a.person,
            division,
            factor,
            attendance,
            a.points,
        ]
        for a in awards
    ]
    return _csv(ABT_COLUMNS, rows)


def _clock_cells(match: MatchFacts) -> list[object]:
    clock = match.clock
    if clock is None:
        return ["", "", "", ""]
    return [
        clock.preset,
        clock_face(clock.reserve_ms),
        clock_face(clock.left1_ms),
        clock_face(clock.left2_ms),
    ]


def ukbgf_csv(event: EventInfo, matches: list[MatchFacts]) -> bytes:
    """The completed rated matches, in the order played, with clock times where kept."""
    rows = [
        [
            (m.played_on.isoformat() if m.played_on else event.day),
            event.name,
            m.round_label,
            m.player1,
            m.player2,
            m.length,
            m.score1,
            m.score2,
            m.winner or "",
            *_clock_cells(m),
        ]
        for m in matches
    ]
    return _csv(UKBGF_COLUMNS, rows)


def mat_name(match: MatchFacts) -> str:
    """The bundle's file name of a match: its id keeps every name distinct."""
    return f"match-{match.match_id}.mat"


def bundle_zip(event: EventInfo, matches: list[tuple[MatchFacts, str]]) -> bytes:
    """A zip of every ``(match, .mat text)`` and ``manifest.csv`` describing them."""
    rows = [
        [
            mat_name(m),
            event.name,
            (m.played_on.isoformat() if m.played_on else event.day),
            m.round_label,
            m.player1,
            m.player2,
            m.length,
            m.score1,
            m.score2,
            m.winner or "",
            "yes" if m.clock else "no",
            m.clock.preset if m.clock else "",
        ]
        for m, _text in matches
    ]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.csv", _csv(MANIFEST_COLUMNS, rows))
        for match, text in matches:
            archive.writestr(mat_name(match), text.encode("utf-8"))
    return out.getvalue()
