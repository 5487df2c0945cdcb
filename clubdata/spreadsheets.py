"""The club's matches and its rating history as CSV, for spreadsheets.

Written through :func:`core.csv_files.writer`, so a player named ``=HYPERLINK(...)``
is text, never a formula. Times are the club's wall clock (its time zone is in the
header), amounts and ratings plain numbers. Each file is one query (the players and
events joined), streamed row by row.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from datetime import datetime

from django.db.models import Count, F

from core.csv_files import writer
from games.models import Club, Match, RatingChange

MATCH_COLUMNS = [
    "finished_at",
    "played_on",
    "event",
    "round",
    "player1",
    "player2",
    "length",
    "score1",
    "score2",
    "winner",
    "status",
    "rated",
    "variant",
    "games",
]

RATING_COLUMNS = [
    "at",
    "player",
    "opponent",
    "won",
    "length",
    "rating_before",
    "rating_after",
    "change",
    "experience_after",
]


class _Line:
    """A write target that hands back what was written (one CSV line at a time)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def take(self) -> str:
        text, self.text = self.text, ""
        return text


def _local(value: datetime | None, zone: zoneinfo.ZoneInfo) -> str:
    return "" if value is None else value.astimezone(zone).strftime("%Y-%m-%d %H:%M")


def matches_csv(club: Club) -> Iterator[str]:
    """Every match of the club, oldest first: who, how long, the score, the event."""
    zone = zoneinfo.ZoneInfo(club.time_zone)
    line = _Line()
    out = writer(line)
    out.writerow(
        [f"{name} ({club.time_zone})" if name == "finished_at" else name for name in MATCH_COLUMNS]
    )
    yield line.take()
    rows = (
        Match.objects.filter(club=club)
        .order_by("created_at", "id")
        .annotate(
            p1=F("player1__display_name"),
            p2=F("player2__display_name"),
            won_by=F("winner__display_name"),
            event=F("tournament_pairing__tournament__name"),
            round_number=F("tournament_pairing__round__number"),
            game_count=Count("games"),
        )
        .values_list(
            "finished_at",
            "played_on",
            "event",
            "round_number",
            "p1",
            "p2",
            "length",
            "score1",
            "score2",
            "won_by",
            "status",
            "rated",
            "variant",
            "game_count",
        )
    )
    for row in rows.iterator(chunk_size=2000):
        finished, played, event, number, *rest = row
        out.writerow(
            [
                _local(finished, zone),
                played.isoformat() if played else "",
                event or "",
                number or "",
                *rest,
            ]
        )
        yield line.take()


def rating_history_csv(club: Club) -> Iterator[str]:
    """Every change the club's rating list recorded, in list order."""
    zone = zoneinfo.ZoneInfo(club.time_zone)
    line = _Line()
    out = writer(line)
    out.writerow([f"at ({club.time_zone})" if n == "at" else n for n in RATING_COLUMNS])
    yield line.take()
    rows = (
        RatingChange.objects.filter(rating_list__club=club)
        .order_by("at", "match_id", "player_id")
        .values_list(
            "at",
            "player__display_name",
            "opponent__display_name",
            "won",
            "length",
            "rating_before",
            "rating_after",
            "change",
            "experience_after",
        )
    )
    for at, player, opponent, won, length, before, after, change, experience in rows.iterator(
        chunk_size=2000
    ):
        out.writerow(
            [
                _local(at, zone),
                player,
                opponent,
                "yes" if won else "no",
                length,
                round(before, 2),
                round(after, 2),
                round(change, 2),
                experience,
            ]
        )
        yield line.take()
