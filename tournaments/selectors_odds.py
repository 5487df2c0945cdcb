"""Reads of the event odds: the latest snapshot, its history and the job computing more.

What the odds API, the bracket, standings and big-screen pages and the odds chart
show, in a fixed number of queries (the entries, the latest snapshot, the history,
the running job).

"Latest" is the highest tournament version, not the last stored: two odds jobs can run
side by side (a round's end asks at once while an earlier one still computes), and the
older one, finishing last, once replaced the newer odds on every page and left them
``up_to_date: false`` until the next result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.formats import number_format

from core.models import Job, JobStatus
from tournaments.job_kinds import ODDS
from tournaments.models import OddsSnapshot, Pairing, Tournament, TournamentStatus
from tournaments.selectors import EntryRow, entry_rows

HISTORY_LIMIT = 200
"""Snapshots the chart reads at most (the latest ones)."""

LEADERS = 5
"""Entries the chart follows: the best chances in the latest snapshot."""


def odds_supported(tournament: Tournament) -> str | None:
    """Why the odds of this event cannot be computed, or None if they can."""
    if tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        return "The odds are computed once the event has started."
    format_spec = tournament.format_spec
    if format_spec.odds is None:
        return "Odds are computed for elimination and Swiss events."
    if tournament.is_elimination:
        return None if tournament.bracket_order else "The bracket is not drawn yet."
    return format_spec.odds_unsupported(tournament.format_options())


@dataclass(frozen=True)
class OddsRow:
    """One entry's chances: ``places`` pairs each place label with its probability."""

    entry: EntryRow
    win: float
    final: float | None
    places: list[tuple[str, float]]

    @property
    def win_percent(self) -> str:
        return percent(self.win)

    @property
    def final_percent(self) -> str | None:
        return None if self.final is None else percent(self.final)

    @property
    def place_percents(self) -> list[tuple[str, str]]:
        return [(label, percent(p)) for label, p in self.places]


@dataclass(frozen=True)
class HistoryPoint:
    computed_at: datetime
    results: int
    win: dict[int, float]  # entry id -> chance to win, for the leaders


@dataclass(frozen=True)
class OddsView:
    """The odds as pages and the API show them; ``snapshot`` None until computed."""

    tournament: Tournament
    reason: str | None
    snapshot: OddsSnapshot | None
    rows: list[OddsRow] = field(default_factory=list)
    history: list[HistoryPoint] = field(default_factory=list)
    leaders: list[EntryRow] = field(default_factory=list)
    job: Job | None = None
    latest_job: Job | None = None
    decided: int | None = None  # the event's decided pairings now (with the job)

    @property
    def by_entry(self) -> dict[int, OddsRow]:
        return {row.entry.pk: row for row in self.rows}

    @property
    def error_points(self) -> str:
        """Two standard errors in percentage points ("0.4"), the margin pages state."""
        if self.snapshot is None:
            return "0"
        return number_format(round(200 * self.snapshot.standard_error, 1), 1, use_l10n=True)

    @property
    def simulations_text(self) -> str:
        """ "50,000" in English, "50.000" in German, "50 000" in French: the count
        grouped as the reader's language groups it (``USE_THOUSAND_SEPARATOR`` is off
        site-wide, so it is forced here)."""
        if not self.snapshot:
            return "0"
        return number_format(self.snapshot.simulations, 0, use_l10n=True, force_grouping=True)

    @property
    def marker(self) -> str:
        """What :func:`odds_marker` answers for these odds."""
        return str(self.snapshot.pk) if self.snapshot else "0"

    @property
    def win_chances(self) -> dict[int, str]:
        return {row.entry.pk: row.win_percent for row in self.rows}

    @property
    def up_to_date(self) -> bool:
        """The odds take in every result: computed from the event as it is now, or by
        the latest odds job, with nothing asked since. Seventeen kinds of director edit
        bump the version without touching a chance (a call, a clock, a table); only
        results, entries and draws ask for odds. Before, any such edit after a round's
        last result left the odds ``up_to_date: false`` until the next result."""
        if self.snapshot is None:
            return False
        if self.decided is not None and self.decided != self.snapshot.results:
            # a result committed and not yet settled (the version moves with the
            # settling, half a second later): the odds do not take it in yet
            return False
        if self.snapshot.version == self.tournament.version:
            return True
        latest = self.latest_job
        return (
            latest is not None
            and latest.status == JobStatus.SUCCEEDED
            and (latest.result or {}).get("snapshot") == self.snapshot.pk
        )


def percent(p: float) -> str:
    """A chance for people: "37%", "0.4%", "<0.1%", "0%" only when it is impossible;
    the decimal mark is the reader's ("0,4%" in German)."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.001:
        return f"<{number_format(0.1, 1, use_l10n=True)}%"
    if p < 0.1:
        return f"{number_format(round(p * 100, 1), 1, use_l10n=True)}%"
    return f"{p * 100:.0f}%"


def odds_view(
    tournament: Tournament, *, with_history: bool = True, with_job: bool = False
) -> OddsView:
    """The latest odds (one query), its entries and history (two more once computed),
    and with ``with_job`` the odds job queued or running and the decided pairings (two
    more: the API shows them, and whether the odds take in every result)."""
    reason = odds_supported(tournament)
    latest = latest_job(tournament) if with_job else None
    job = latest if latest is not None and latest.status in PENDING else None
    snapshot = (
        OddsSnapshot.objects.filter(tournament=tournament).order_by("-version", "-id").first()
    )
    if snapshot is None:
        return OddsView(tournament, reason, None, job=job, latest_job=latest)
    decided = decided_pairings(tournament) if with_job else None
    entries = entry_rows(tournament)
    labels = [p["label"] for p in snapshot.places]
    rows = [
        OddsRow(
            entry=entries[int(entry_id)],
            win=data["win"],
            final=data["final"],
            places=list(zip(labels, data["places"], strict=True)),
        )
        for entry_id, data in snapshot.entries.items()
        if int(entry_id) in entries
    ]
    rows.sort(key=lambda r: (-r.win, -(r.final or 0), r.entry.seed or 10**9))
    leaders = [r.entry for r in rows[:LEADERS]]
    history: list[HistoryPoint] = []
    if with_history:
        ids = [str(e.pk) for e in leaders]
        recent = list(
            OddsSnapshot.objects.filter(tournament=tournament)
            .order_by("-version", "-id")
            .values_list("computed_at", "results", "entries")[:HISTORY_LIMIT]
        )
        for computed_at, results, data in reversed(recent):
            history.append(
                HistoryPoint(
                    computed_at,
                    results,
                    {int(i): data[i]["win"] for i in ids if i in data},
                )
            )
    return OddsView(tournament, reason, snapshot, rows, history, leaders, job, latest, decided)


PENDING = (JobStatus.QUEUED, JobStatus.RUNNING)


def decided_pairings(tournament: Tournament) -> int:
    """The event's pairings with a winner: what a snapshot's ``results`` counts when it
    is stored, and what ``up_to_date`` compares it with (one count query)."""
    return Pairing.objects.filter(tournament=tournament, winner__isnull=False).count()


def latest_job(tournament: Tournament) -> Job | None:
    """The event's latest odds job (one per burst of results), whatever its state."""
    return Job.objects.filter(kind=ODDS, params__tournament=tournament.pk).order_by("-id").first()


def odds_marker(tournament: Tournament) -> str:
    """Changes when the odds shown change (a new snapshot): one query."""
    latest = (
        OddsSnapshot.objects.filter(tournament=tournament)
        .order_by("-version", "-id")
        .values_list("pk", flat=True)
        .first()
    )
    return str(latest or 0)


def latest_win_chances(tournament: Tournament) -> tuple[int, dict[int, str]]:
    """(the latest snapshot's id or 0, each entry's chance to win as shown): one query."""
    found = (
        OddsSnapshot.objects.filter(tournament=tournament)
        .order_by("-version", "-id")
        .values_list("pk", "entries")
        .first()
    )
    if found is None:
        return 0, {}
    pk, entries = found
    return pk, {int(entry_id): percent(data["win"]) for entry_id, data in entries.items()}
