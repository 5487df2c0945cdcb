"""Registering a club night's players in bulk, walk-ins, and taking an entry off again.

One service each, called by the director's pages and by the API alike:

* ``register_many``: a pasted list of names and/or ticked players. With ``dry_run``
  it only says what it would do (the preview); without, it does exactly that, all or
  nothing: one bad line (an ambiguous or over-long name) and nothing is written.
* ``enter_walk_in``: a newcomer becomes a club member and is entered, in one step;
  ``register_walk_in`` (the doors') then asks the owner of their address to confirm it
  (``games.services.player_addresses``).
* ``unregister_entry``: before the draw an entry is simply taken off; once the event
  runs the entry can only be withdrawn (``entries.withdraw_entry``), which keeps its
  results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from django.db import transaction
from django.utils.text import slugify
from simple_history.utils import bulk_create_with_history

from core.actors import Actor
from core.errors import N_
from games.models import Membership, Player
from games.rules.errors import BoxcarsError, ConflictError, NotAllowed, RuleViolation
from games.rules.limits import MAX_BULK_NAMES, MAX_PLAYER_NAME, MAX_PLAYER_SLUG
from games.rules.names import clean_name, name_key
from games.services import clubs as club_services
from games.services import player_addresses
from tournaments.formats import waitlist
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus

from .check_in import BEFORE_THE_DRAW, move_waitlist_up
from .common import bump, lock_tournament, require_director, require_status
from .entries import register_entry


class LineAction(StrEnum):
    """What a bulk registration does with one line (or one ticked player)."""

    REGISTER = "register"  # a club member, entered
    CREATE = "create"  # a new player, made a member and entered
    ALREADY_ENTERED = "already_entered"  # skipped: in the event already
    DUPLICATE = "duplicate"  # skipped: the same player earlier in the list
    AMBIGUOUS = "ambiguous"  # refused: two or more members have this name; pick one
    INVALID = "invalid"  # refused: the name breaks a rule (too long...)
    NOT_MEMBER = "not_member"  # refused: a ticked player of another club (tenancy)


REFUSED = {LineAction.AMBIGUOUS, LineAction.INVALID, LineAction.NOT_MEMBER}


@dataclass
class Line:
    """One line of the preview: the name as typed, what happens to it and why."""

    index: int  # position in ``names`` (0-based), or None for a ticked player
    name: str
    action: LineAction
    player_id: int | None = None
    candidates: list[tuple[int, str]] = field(default_factory=list)
    message: str = ""
    source: str = "names"  # "names" or "player_ids"
    player_name: str = ""  # the member's name as the club has it, when matched

    @property
    def where(self) -> str:
        """The input it came from, as the API names fields: ``names[3]``."""
        return f"{self.source}[{self.index}]"

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "index": self.index,
            "name": self.name,
            "action": str(self.action),
            "player": self.player_id,
            "player_name": self.player_name,
            "candidates": [{"id": pk, "display_name": n} for pk, n in self.candidates],
            "message": self.message,
        }


@dataclass
class BulkResult:
    lines: list[Line]
    dry_run: bool
    entries: list[Entry] = field(default_factory=list)

    def count(self, action: LineAction) -> int:
        return sum(1 for line in self.lines if line.action == action)

    @property
    def refused(self) -> list[Line]:
        return [line for line in self.lines if line.action in REFUSED]

    def as_dict(self) -> dict[str, object]:
        return {
            "dry_run": self.dry_run,
            "to_register": self.count(LineAction.REGISTER),
            "to_create": self.count(LineAction.CREATE),
            "skipped": self.count(LineAction.ALREADY_ENTERED) + self.count(LineAction.DUPLICATE),
            "refused": len(self.refused),
            "lines": [line.as_dict() for line in self.lines],
            "entries": [e.pk for e in self.entries],
        }


def _plan(tournament: Tournament, names: list[str], player_ids: list[int]) -> list[Line]:
    """What each line would do, reading the roster and the entries once."""
    if len(names) + len(player_ids) > MAX_BULK_NAMES:
        raise RuleViolation(
            "too_many_names",
            N_(
                "One registration takes at most %(MAX_BULK_NAMES)s names; split the list.",
                MAX_BULK_NAMES=MAX_BULK_NAMES,
            ),
            "names",
        )
    roster = club_services.roster_by_name(tournament.club)
    entered = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    seen: set[int] = set()
    new_keys: set[str] = set()
    lines: list[Line] = []

    def place(line: Line, player: Player) -> None:
        line.player_id = player.pk
        line.player_name = player.display_name
        if player.pk in seen:
            line.action, line.message = LineAction.DUPLICATE, "Listed twice: entered once."
        elif player.pk in entered:
            line.action, line.message = LineAction.ALREADY_ENTERED, "Already entered."
        seen.add(player.pk)

    ticked = {p.pk: p for p in Player.objects.filter(pk__in=player_ids)}
    members = set(
        Membership.objects.filter(club=tournament.club, player_id__in=list(ticked)).values_list(
            "player_id", flat=True
        )
    )
    for index, player_id in enumerate(player_ids):
        player = ticked.get(player_id)
        if player is None:
            lines.append(
                Line(
                    index,
                    str(player_id),
                    LineAction.INVALID,
                    source="player_ids",
                    message=f"There is no player {player_id}.",
                )
            )
            continue
        if player.pk not in members:  # nobody joins a club by being named: tenancy
            lines.append(
                Line(
                    index,
                    player.display_name,
                    LineAction.NOT_MEMBER,
                    player_id=player.pk,
                    source="player_ids",
                    message="Not a member of the club: they join it themself first.",
                )
            )
            continue
        line = Line(index, player.display_name, LineAction.REGISTER, source="player_ids")
        place(line, player)
        lines.append(line)
    for index, raw in enumerate(names):
        name = clean_name(raw)
        if not name:
            continue  # blank lines are layout, not players
        if len(name) > MAX_PLAYER_NAME:
            lines.append(
                Line(
                    index,
                    name[:40] + "…",
                    LineAction.INVALID,
                    message=f"A name is at most {MAX_PLAYER_NAME} characters.",
                )
            )
            continue
        key = name_key(name)
        matches = roster.get(key, [])
        if len(matches) > 1:
            lines.append(
                Line(
                    index,
                    name,
                    LineAction.AMBIGUOUS,
                    candidates=[(p.pk, p.display_name) for p in matches],
                    message=f"{len(matches)} players of the club are called {name}: pick one.",
                )
            )
        elif matches:
            line = Line(index, name, LineAction.REGISTER)
            place(line, matches[0])
            lines.append(line)
        elif key in new_keys:
            lines.append(
                Line(index, name, LineAction.DUPLICATE, message="Listed twice: one new player.")
            )
        else:
            new_keys.add(key)
            lines.append(Line(index, name, LineAction.CREATE, message="New player."))
    return lines


def register_many(
    *,
    actor: Actor,
    tournament_id: int,
    names: list[str] = (),  # type: ignore[assignment]
    player_ids: list[int] = (),  # type: ignore[assignment]
    dry_run: bool = False,
) -> BulkResult:
    """Enter many players at once: names (matched on the club's roster, ignoring case
    and accents; unknown names become new players) and ticked player ids.

    The dry run changes nothing and returns the preview. The real run plans again
    under the tournament's lock (the roster may have moved since the preview), refuses
    the whole list if any line is refused, then creates and enters everyone in one
    transaction. Before the draw that is a fixed number of statements however long the
    list (:func:`_enter_in_bulk`: up to ``MAX_BULK_NAMES``, 1,024, in one request);
    late entries into a running event go line by line, each may fill a bye. If any
    entry is refused (a bracket with no bye left for a late entry) nothing at all is
    written, and the error names the line.
    """
    names, player_ids = list(names), list(player_ids)
    with transaction.atomic():
        tournament = (
            lock_tournament(tournament_id)
            if not dry_run
            else Tournament.objects.select_related("club").get(pk=tournament_id)
        )
        require_director(actor, tournament)
        require_status(
            tournament,
            TournamentStatus.DRAFT,
            TournamentStatus.REGISTRATION,
            TournamentStatus.RUNNING,
            doing="register players",
        )
        lines = _plan(tournament, names, player_ids)
        result = BulkResult(lines=lines, dry_run=dry_run)
        if dry_run:
            return result
        if result.refused:
            first = result.refused[0]
            if first.action == LineAction.NOT_MEMBER:
                raise NotAllowed(
                    "player_not_in_club",
                    N_("%(name)s: %(message)s", name=first.name, message=first.message),
                    first.where,
                )
            code = "ambiguous_name" if first.action == LineAction.AMBIGUOUS else "invalid_name"
            raise RuleViolation(
                code,
                N_("%(name)s: %(message)s", name=first.name, message=first.message),
                first.where,
            )
        if tournament.status in BEFORE_THE_DRAW:
            result.entries = _enter_in_bulk(tournament, lines)
            return result
        for line in lines:  # late entries: each may fill a bye of the running bracket
            if line.action not in (LineAction.REGISTER, LineAction.CREATE):
                continue
            try:
                if line.action == LineAction.CREATE:
                    player = club_services.create_player(
                        display_name=line.name, clubs=[tournament.club]
                    )
                    line.player_id = player.pk
                assert line.player_id is not None  # the plan named the player, or it was made
                entry = register_entry(
                    actor=actor, tournament_id=tournament.pk, player_id=line.player_id
                )
            except BoxcarsError as error:
                raise type(error)(error.code, f"{line.name}: {error.message}", line.where) from None
            result.entries.append(entry)
        return result


def _enter_in_bulk(tournament: Tournament, lines: list[Line]) -> list[Entry]:
    """Create the new players, their memberships and every entry with a few bulk
    inserts (with their audit rows), and bump the tournament once.

    The caller holds the tournament's lock and has refused the list if any line was
    refused. New players get slugs like :func:`games.services.clubs.create_player`'s
    (the name, then ``-2``, ``-3``...), read in one query; a slug taken by someone else
    at the same moment fails the unique index and the whole registration with it
    (a retry reads the slugs again).
    """
    wanted = [line for line in lines if line.action in (LineAction.REGISTER, LineAction.CREATE)]
    if not wanted:
        return []
    new = [line for line in wanted if line.action == LineAction.CREATE]
    if new:
        slugs = _free_slugs([line.name for line in new])
        players = bulk_create_with_history(
            [
                Player(display_name=line.name, slug=slug)
                for line, slug in zip(new, slugs, strict=True)
            ],
            Player,
            batch_size=BULK_BATCH,
        )
        if any(p.pk is None for p in players):  # a backend that returns no keys
            by_slug = dict(Player.objects.filter(slug__in=slugs).values_list("slug", "pk"))
            for player, slug in zip(players, slugs, strict=True):
                player.pk = by_slug[slug]
        for line, player in zip(new, players, strict=True):
            line.player_id = player.pk
    ids = [line.player_id for line in wanted if line.player_id is not None]  # all are named
    members = set(
        Membership.objects.filter(club=tournament.club, player_id__in=ids).values_list(
            "player_id", flat=True
        )
    )
    Membership.objects.bulk_create(
        [Membership(club=tournament.club, player_id=pk) for pk in ids if pk not in members],
        batch_size=BULK_BATCH,
    )
    entries = [Entry(tournament=tournament, player_id=pk) for pk in ids]
    _place(tournament, entries)
    created = bulk_create_with_history(entries, Entry, batch_size=BULK_BATCH)
    bump(tournament)
    if any(e.pk is None for e in created):
        by_player = dict(
            Entry.objects.filter(tournament=tournament, player_id__in=ids).values_list(
                "player_id", "pk"
            )
        )
        for entry in created:
            entry.pk = by_player[entry.player_id]
    return list(created)


#: Rows per INSERT: one statement on PostgreSQL for the longest list (1,024 names).
BULK_BATCH = 2000


def _place(tournament: Tournament, entries: list[Entry]) -> None:
    """Active, or at the back of the waitlist once a capped field is full (the rule of
    ``check_in.place_for_new_entry``, for many newcomers at once)."""
    if tournament.capacity is None:
        return
    existing = Entry.objects.filter(tournament=tournament)
    active = existing.filter(status=EntryStatus.ACTIVE).count()
    positions = [
        p or 0
        for p in existing.filter(status=EntryStatus.WAITLISTED).values_list(
            "waitlist_position", flat=True
        )
    ]
    for entry in entries:
        if waitlist.joins_waitlist(tournament.capacity, active):
            entry.status = EntryStatus.WAITLISTED
            entry.waitlist_position = waitlist.next_position(positions)
            positions.append(entry.waitlist_position)
        else:
            active += 1


def _free_slugs(names: list[str]) -> list[str]:
    """A free slug for each new player, reading the taken ones in one query."""
    roots = [(slugify(name) or "x")[: MAX_PLAYER_SLUG - 6] for name in names]
    pattern = "^(" + "|".join(sorted(set(roots))) + ")(-[0-9]+)?$"  # slugify: [a-z0-9_-]
    taken = set(Player.objects.filter(slug__regex=pattern).values_list("slug", flat=True))
    slugs = []
    for root in roots:
        slug, counter = root, 2
        while slug in taken:
            slug = f"{root}-{counter}"
            counter += 1
        taken.add(slug)
        slugs.append(slug)
    return slugs


@transaction.atomic
def enter_walk_in(
    *,
    actor: Actor,
    tournament_id: int,
    display_name: str,
    email: str = "",
    rating: int | None = None,
) -> Entry:
    """A walk-in: a new club member (``clubs.add_walk_in``) entered in the event, both
    or neither."""
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    require_status(
        tournament,
        TournamentStatus.DRAFT,
        TournamentStatus.REGISTRATION,
        TournamentStatus.RUNNING,
        doing="register a player",
    )
    player = club_services.add_walk_in(
        club=tournament.club, display_name=display_name, email=email, rating=rating, by=actor
    )
    return register_entry(actor=actor, tournament_id=tournament.pk, player_id=player.pk)


@dataclass(frozen=True)
class WalkIn:
    entry: Entry
    link: player_addresses.Asked


def register_walk_in(
    *,
    actor: Actor,
    tournament_id: int,
    display_name: str,
    email: str = "",
    rating: int | None = None,
    site: str = "",
) -> WalkIn:
    """:func:`enter_walk_in`, then the one link to the address given (a spent mail cap
    holds the link back and says so; the entry stands)."""
    player_addresses.check_address(email)
    entry = enter_walk_in(
        actor=actor,
        tournament_id=tournament_id,
        display_name=display_name,
        email=email,
        rating=rating,
    )
    club = Tournament.objects.select_related("club").get(pk=tournament_id).club
    link = player_addresses.ask_owner(actor=actor, club=club, player=entry.player, site=site)
    return WalkIn(entry, link)


@transaction.atomic
def unregister_entry(*, actor: Actor, tournament_id: int, entry_id: int) -> Player:
    """Take an entry off before the draw (the player stays in the club).

    Once the event has started the entry is part of the draw: it is refused with
    ``entry_drawn`` and the director withdraws the player instead.
    """
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    entry = (
        Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("player").first()
    )
    if entry is None:
        raise RuleViolation(
            "entry_not_found",
            N_("There is no entry %(entry_id)s here.", entry_id=entry_id),
            "entry",
        )
    if tournament.status not in (TournamentStatus.DRAFT, TournamentStatus.REGISTRATION):
        raise ConflictError(
            "entry_drawn",
            N_(
                "%(player)s is in the draw already: withdraw them instead of unregistering.",
                player=entry.player,
            ),
            "entry",
        )
    player = entry.player
    entry.delete()
    move_waitlist_up(tournament)
    bump(tournament)
    return player
