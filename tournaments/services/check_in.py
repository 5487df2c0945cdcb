"""Check-in before the draw, dropping no-shows, and the waitlist of a capped field.

Players check in from a phone (signed in, or with their entry's check-in link) or a
director ticks them on the dashboard; before the draw the director drops the no-shows
(active entries that did not check in are withdrawn, nothing is deleted). A capped
event (``Tournament.capacity``) puts registrations beyond the cap on a waitlist; a
place freed before the draw (a withdrawal, an entry taken off, no-shows dropped) moves
the waitlist up in its order (``tournaments.formats.waitlist``). Each use case is one
transaction under the tournament's lock.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core import access
from core.actors import Actor
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from tournaments.check_in_links import check_in_token as check_in_token  # re-exported
from tournaments.check_in_links import read_check_in_token
from tournaments.formats import waitlist
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus

from .common import bump, lock_tournament, require_director, require_status

BEFORE_THE_DRAW = (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION)


# --- the waitlist ---------------------------------------------------------------------


def place_for_new_entry(tournament: Tournament) -> tuple[str, int | None]:
    """(status, waitlist position) for a registration now (under the tournament's lock).

    Before the draw a full capped field puts the newcomer at the back of the waitlist;
    a late entry (the event is running) is the director's own decision and never waits.
    """
    if tournament.status not in BEFORE_THE_DRAW or tournament.capacity is None:
        return EntryStatus.ACTIVE, None
    entries = Entry.objects.filter(tournament=tournament)
    active = entries.filter(status=EntryStatus.ACTIVE).count()
    if not waitlist.joins_waitlist(tournament.capacity, active):
        return EntryStatus.ACTIVE, None
    positions = entries.filter(status=EntryStatus.WAITLISTED).values_list(
        "waitlist_position", flat=True
    )
    return EntryStatus.WAITLISTED, waitlist.next_position([p or 0 for p in positions])


def move_waitlist_up(tournament: Tournament) -> list[Entry]:
    """Fill the free places of the field from the waitlist, in its order (before the
    draw only; the caller holds the tournament's lock). Returns the entries moved up."""
    if tournament.status not in BEFORE_THE_DRAW:
        return []
    entries = Entry.objects.filter(tournament=tournament)
    waiting_rows = list(entries.filter(status=EntryStatus.WAITLISTED))
    if not waiting_rows:
        return []
    queue = [
        waitlist.Waiting(e.pk, e.waitlist_position or 0, e.checked_in_at is not None)
        for e in waiting_rows
    ]
    active = entries.filter(status=EntryStatus.ACTIVE).count()
    promoted = waitlist.moving_up(
        tournament.capacity, active, queue, require_check_in=tournament.check_in_required
    )
    positions = waitlist.renumbered(queue, promoted)
    moved = []
    for entry in waiting_rows:
        if entry.pk in promoted:
            entry.status = EntryStatus.ACTIVE
            entry.waitlist_position = None
            moved.append(entry)
        else:
            entry.waitlist_position = positions[entry.pk]
        entry.save(update_fields=["status", "waitlist_position"])
    return moved


# --- check-in -------------------------------------------------------------------------


def _may_check_in(actor: Actor, tournament: Tournament, entry: Entry, token: str | None) -> None:
    """The player themself (their account or their entry's link) or a director."""
    if token:
        if read_check_in_token(token) == (tournament.pk, entry.pk):
            return
        raise NotAllowed("check_in_link_invalid", _("This check-in link is not valid."))
    if actor.player is not None and actor.player.pk == entry.player_id and not actor.via_score_link:
        return
    if actor.user is not None and (
        actor.is_admin or access.is_director(actor.user, tournament.club)
    ):
        return
    raise NotAllowed(
        "not_your_entry", _("Only the player themself or the club's directors check them in.")
    )


@transaction.atomic
def check_in_entry(
    *,
    actor: Actor,
    tournament_id: int,
    entry_id: int,
    token: str | None = None,
    checked_in: bool = True,
) -> Entry:
    """Check an entry in (``checked_in=False``: a director takes the tick back).

    Allowed before the draw only; checking in twice changes nothing (the first time
    stands). A waitlisted player may check in too, to be ready to move up.
    """
    tournament = lock_tournament(tournament_id)
    entry = (
        Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("player").first()
    )
    if entry is None:
        raise RuleViolation("entry_not_found", _("There is no entry %d here.") % entry_id, "entry")
    if checked_in:
        _may_check_in(actor, tournament, entry, token)
    else:
        require_director(actor, tournament)
    require_status(tournament, *BEFORE_THE_DRAW, doing="check in")
    if entry.status == EntryStatus.WITHDRAWN:
        raise ConflictError(
            "entry_withdrawn", _("%s has withdrawn: there is nothing to check in.") % entry.player
        )
    if checked_in and entry.checked_in_at is None:
        entry.checked_in_at = timezone.now()
    elif not checked_in:
        entry.checked_in_at = None
    else:
        return entry  # already checked in: nothing to write
    entry.save(update_fields=["checked_in_at"])
    if checked_in and entry.status == EntryStatus.WAITLISTED:
        # a place freed while they had not checked in (no-shows dropped) is theirs now,
        # in the waitlist's order
        move_waitlist_up(tournament)
        entry.refresh_from_db(fields=["status", "waitlist_position"])
    bump(tournament)
    return entry


class Dropped(list[Entry]):
    """The entries dropped, with ``moved_up``: the waitlisted entries that took their
    places (a list, so callers that only count the dropped need nothing more)."""

    moved_up: list[Entry]


@transaction.atomic
def drop_no_shows(*, actor: Actor, tournament_id: int) -> Dropped:
    """Withdraw every active entry that has not checked in, then move the waitlist up.

    Before the draw only, and only for an event that asks for check-in (otherwise no
    one has checked in and everyone would be dropped). Returns the entries dropped and
    (``moved_up``) those the waitlist moved into the field, so the page can name both.
    """
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    require_status(tournament, *BEFORE_THE_DRAW, doing="drop no-shows")
    if not tournament.check_in_required:
        raise ConflictError(
            "check_in_not_required",
            _("This event does not ask players to check in: no one is a no-show."),
        )
    dropped = Dropped(no_show_entries(tournament))
    now = timezone.now()
    for entry in dropped:
        entry.status = EntryStatus.WITHDRAWN
        entry.withdrawn_at = now
        entry.save(update_fields=["status", "withdrawn_at"])
    moved = move_waitlist_up(tournament)
    players = Entry.objects.select_related("player").in_bulk([e.pk for e in moved])
    dropped.moved_up = [players[e.pk] for e in moved]
    bump(tournament)
    return dropped


def no_show_entries(tournament: Tournament) -> QuerySet[Entry]:
    """Active entries that have not checked in, with their players: whom "drop no-shows"
    withdraws (and names first, on the dashboard's confirmation)."""
    return Entry.objects.filter(
        tournament=tournament, status=EntryStatus.ACTIVE, checked_in_at__isnull=True
    ).select_related("player")


def no_shows_left(tournament: Tournament) -> int:
    """Active entries that have not checked in (the draw waits for them to be dropped)."""
    if not tournament.check_in_required:
        return 0
    return no_show_entries(tournament).count()
