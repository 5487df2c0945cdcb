"""What the director's dashboard shows of check-in and calls (reads only).

Per round in play: whether it is called, and when; per match in play: the minutes
since its round's call and, for each player, the late penalty pressing their button
would apply now (``formats.late_penalty``), with the points already applied. A fixed
number of queries whatever the event's size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q, Sum
from django.utils import timezone

from core.models import Job
from games.selectors_addresses import mailable
from tournaments.check_in_links import check_in_token
from tournaments.formats.late_penalty import LatePenalty as Due
from tournaments.formats.late_penalty import (
    minutes_since,
    minutes_until_next_point,
    own_call,
    penalty_to_apply,
)
from tournaments.models import Entry, EntryStatus, LatePenalty, Pairing, RoundCall, Tournament

from .room import RoomMatch


@dataclass(frozen=True)
class SideLateness:
    """One player of a called match: what their penalty button would do now."""

    entry_id: int
    name: str
    applied: int
    due: Due


@dataclass(frozen=True)
class MatchCall:
    """A match in play as the calls column shows it."""

    match_id: int
    called_at: datetime
    minutes: int
    next_point_in: int
    sides: tuple[SideLateness, ...]


def late_call_key(call_id: int, match_id: int) -> str:
    """The dedupe key of the job calling one match made after its round's call
    (``services.calls.call_late_matches`` builds the same in SQL)."""
    return f"round-call:{call_id}:match:{match_id}"


def own_calls(pairs: Iterable[tuple[int, int]]) -> dict[int, datetime]:
    """When each match made after its round's call was called on its own (its job was
    made), by match id, for ``(call id, match id)`` pairs; a match called with its
    round is absent (its round's call counts). One query."""
    keys = {late_call_key(call_id, match_id): match_id for call_id, match_id in pairs}
    if not keys:
        return {}
    rows = Job.objects.filter(dedupe_key__in=keys).values_list("dedupe_key", "created_at")
    return {keys[key]: at for key, at in rows if key is not None}


@dataclass(frozen=True)
class CallSummary:
    call: RoundCall
    sent: int
    failed: int


def round_calls(round_ids: list[int]) -> dict[int, CallSummary]:
    """The call of each round (by round id), with how many emails went out or failed."""
    calls = RoundCall.objects.filter(round_id__in=round_ids).annotate(
        sent=Count("notices", filter=Q(notices__sent_at__isnull=False, notices__channel="email")),
        failed=Count("notices", filter=Q(notices__sent_at__isnull=True, notices__channel="email")),
    )
    return {c.round_id: CallSummary(c, c.sent, c.failed) for c in calls}


def match_calls(
    ready: list[RoomMatch], calls: dict[int, CallSummary], now: datetime | None = None
) -> dict[int, MatchCall]:
    """Each called match in play, by match id: minutes since its own call (a match
    made after its round was called is called when made: :func:`own_calls`),
    penalties due."""
    now = now or timezone.now()
    own = own_calls(
        (calls[m.round_id].call.pk, m.row.match_id)
        for m in ready
        if m.row.match_id and m.round_id in calls
    )
    ids = [m.row.match_id for m in ready if m.row.match_id and m.round_id in calls]
    applied: dict[tuple[int, int], int] = defaultdict(int)
    for row in (
        LatePenalty.objects.filter(match_id__in=ids, game__isnull=False)
        .values("match_id", "late_player_id")
        .annotate(points=Sum("points"))
    ):
        applied[(row["match_id"], row["late_player_id"])] = row["points"] or 0
    board: dict[int, MatchCall] = {}
    for m in ready:
        summary = calls.get(m.round_id)
        if summary is None or not m.row.match_id or m.one is None or m.two is None:
            continue
        called_at = own_call(summary.call.called_at, own.get(m.row.match_id))
        minutes = minutes_since(called_at, now)
        sides = []
        for entry in (m.one, m.two):
            done = applied[(m.row.match_id, entry.player_id)]
            due = penalty_to_apply(minutes, max(1, m.row.match_length), done)
            sides.append(SideLateness(entry.pk, entry.display_name, done, due))
        board[m.row.match_id] = MatchCall(
            match_id=m.row.match_id,
            called_at=called_at,
            minutes=minutes,
            next_point_in=minutes_until_next_point(minutes),
            sides=tuple(sides),
        )
    return board


@dataclass(frozen=True)
class CheckInRow:
    entry: Entry
    link: str


def check_in_rows(tournament: Tournament) -> list[CheckInRow]:
    """Every entry still in (active or waitlisted) with its private check-in link path."""
    from django.urls import reverse

    rows = (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=EntryStatus.WITHDRAWN)
        .select_related("player")
        .order_by("status", "waitlist_position", "pk")
    )
    return [
        CheckInRow(
            e,
            reverse(
                "tournament-check-in-link",
                kwargs={"slug": tournament.slug, "token": check_in_token(e)},
            ),
        )
        for e in rows
    ]


@dataclass(frozen=True)
class CallReach:
    """Who a round call reaches by email, and the names of those it does not."""

    emailed: int
    without: list[str]
    unconfirmed: list[str]


def call_reach(round_ids: list[int]) -> CallReach:
    """Who a round call reaches by email: the number of players of the rounds' matches
    whose address is confirmed for the club (``games.selectors_addresses``), the names
    of those without an address and of those whose address waits for its owner's
    consent (the director tells both in the room). Three queries."""
    pairings = (
        Pairing.objects.filter(round_id__in=round_ids, match__isnull=False)
        .select_related("entry1__player", "entry2__player", "round__stage__tournament__club")
        .order_by("slot")
    )
    seats = [
        (pairing.round.stage.tournament.club, entry.player)
        for pairing in pairings
        for entry in (pairing.entry1, pairing.entry2)
        if entry is not None
    ]
    confirmed = mailable(seats[0][0], [p for _club, p in seats]) if seats else set()
    emailed, without, unconfirmed = 0, [], []
    for _club, player in seats:
        if not player.email:
            without.append(player.display_name)
        elif player.pk in confirmed:
            emailed += 1
        else:
            unconfirmed.append(player.display_name)
    return CallReach(emailed, without, unconfirmed)
