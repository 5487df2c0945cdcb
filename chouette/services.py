"""Chouette use cases: open a session, record, correct and undo games, join, leave, close.

Each function is one transaction. It locks the session row (``select_for_update``), so
two games posted at once are numbered one after the other; checks the caller's
``expected_version`` (``If-Match``); validates with the pure rules before writing
anything; writes; stores what the rules derived (lineups, payouts) on every game; and
bumps the version. Recording the next game scores it against the stored lineup (one
game's work, whatever the session's length); joins, leaves, corrections and undo
validate by replaying the whole session (``chouette.rules.replay_session``).

A correction or an undo never patches the ledger: it replays the session from its
records and stores the result, so the ledger and the rotation after the corrected
game follow from the records alone (``docs/rules.md``, "The chouette"). Rows inserted in
bulk (seats, member rows) go through ``bulk_create_with_history``, so the audit trail
(``chouette.audit``) sees every row from its creation, with who wrote it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from core import locking
from games import access
from games.models import Club, Player
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from games.services.actors import Actor

from .models import (
    ChouetteGame,
    MemberResult,
    RuleProfile,
    Seat,
    Session,
    SessionEvent,
    SessionStatus,
)
from .records import (
    GameInput,
    build_rules,
    events_from_rows,
    opening_lineup,
    record_from_input,
    rules_values,
    session_rules,
)
from .rules import (
    GameScore,
    Join,
    Leave,
    Ledger,
    Lineup,
    SessionReplay,
    next_game,
    replay_session,
)
from .rules import order_from_rolls as rules_order_from_rolls
from .rules.settlement import stake_in_cents

# --- guards -----------------------------------------------------------------------------------


def _lock(session_id: int) -> Session:
    return locking.lock_row(Session.objects.select_related("club"), session_id, noun="session")


def _check_version(session: Session, expected_version: int | None) -> None:
    locking.check_version(session, expected_version, noun="session")


def _is_director(actor: Actor, club: Club) -> bool:
    if actor.is_admin:
        return True
    return actor.user is not None and access.is_director(actor.user, club)


def is_seated(actor: Actor, session: Session) -> bool:
    if actor.player is None:
        return False
    return session.seats.filter(player=actor.player, left_at__isnull=True).exists()


def can_record(actor: Actor, session: Session) -> bool:
    """The session's seated players and the club's directors record games."""
    return _is_director(actor, session.club) or is_seated(actor, session)


def can_open(actor: Actor, club: Club) -> bool:
    """The club's directors and its members with an account may open a chouette (a
    member must then sit at the table: ``open_session`` checks the lineup)."""
    if _is_director(actor, club):
        return True
    return actor.player is not None and club.memberships.filter(player=actor.player).exists()


def can_read_audit(actor: Actor, session: Session) -> bool:
    """The audit trail is for the club's directors and whoever sat at the session."""
    if _is_director(actor, session.club):
        return True
    return actor.player is not None and session.seats.filter(player=actor.player).exists()


def _require_writer(actor: Actor, session: Session) -> bool:
    """Seated players and directors write; returns whether the actor directs the club."""
    director = _is_director(actor, session.club)
    if not director and not is_seated(actor, session):
        raise NotAllowed(
            "not_at_the_table",
            "Only the players seated at this chouette and the club's directors may change it.",
        )
    return director


def _require_open(session: Session) -> None:
    if session.status != SessionStatus.OPEN:
        raise ConflictError(
            "session_closed",
            "The session is closed: no more games, joins or leaves (a director may still "
            "correct a game).",
        )


def _by(actor: Actor, row: Any) -> Any:
    """Name the actor as the author of ``row``'s next history record, so the audit says
    who wrote it even outside a web request (commands, the demo, jobs)."""
    row._history_user = actor.user
    return row


def _bump(session: Session, actor: Actor) -> None:
    locking.bump(_by(actor, session))


def _players_of(club: Club, ids: Sequence[int], field: str) -> dict[int, Player]:
    """The players by id, each a member of the club; unknown ids named by the rule."""
    found = {p.pk: p for p in Player.objects.filter(pk__in=list(ids))}
    for index, pk in enumerate(ids):
        if pk not in found:
            raise RuleViolation("unknown_player", f"There is no player {pk}.", f"{field}[{index}]")
    members = set(
        club.memberships.filter(player_id__in=list(ids)).values_list("player_id", flat=True)
    )
    for index, pk in enumerate(ids):
        if pk not in members:
            raise RuleViolation(
                "player_not_in_club",
                f"{found[pk]} is not a member of {club}.",
                f"{field}[{index}]",
            )
    return found


# --- replaying and storing ------------------------------------------------------------------


def _event_rows(session: Session) -> list[SessionEvent]:
    return list(
        session.events.select_related("game").prefetch_related("game__members").order_by("sequence")
    )


def _store_replay(
    session: Session, rows: list[SessionEvent], replay: SessionReplay, actor: Actor
) -> None:
    """Store what the replay derived on each game and member row, and the lineup now.

    Only rows whose derived facts changed are saved (each save keeps its history).
    """
    game_rows = [event.game for event in rows if event.kind == SessionEvent.Kind.GAME]
    for game, derived in zip(game_rows, replay.games, strict=True):
        _store_game(game, derived.number, derived.lineup_before, derived.score, actor)
    session.lineup = list(replay.lineup.players)


def _derived_facts(number: int, lineup: Lineup, score: GameScore) -> dict[str, Any]:
    """What the replay says about one game: who sat where and the box side's points."""
    return {
        "number": number,
        "box_id": score.box,
        "partner_id": score.partner,
        "captain_id": lineup.captain,
        "board_captain_id": score.board_captain,
        "board_winner": score.board_winner.value,
        "team_order": list(lineup.team),
        "box_points": score.payouts[score.box],
        "partner_points": score.payouts[score.partner] if score.partner is not None else 0,
    }


def _store_game(
    game: ChouetteGame, number: int, lineup: Lineup, score: GameScore, actor: Actor
) -> None:
    facts = _derived_facts(number, lineup, score)
    if any(getattr(game, k) != v for k, v in facts.items()):
        for key, value in facts.items():
            setattr(game, key, value)
        _by(actor, game).save()
    for member in game.members.all():
        points = score.payouts[member.player_id]
        if member.points != points:
            member.points = points
            _by(actor, member).save()


def _replay(session: Session, rows: list[SessionEvent], extra: Sequence[Any] = ()) -> SessionReplay:
    return replay_session(
        session_rules(session), opening_lineup(session), [*events_from_rows(rows), *extra]
    )


def _next_sequence(rows: list[SessionEvent]) -> int:
    return rows[-1].sequence + 1 if rows else 1


def _create_game_rows(
    *,
    session: Session,
    event: SessionEvent,
    game: GameInput,
    number: int,
    lineup: Lineup,
    score: GameScore,
    actor: Actor,
) -> ChouetteGame:
    initial = 2**game.automatic_doubles
    row = ChouetteGame(
        session=session,
        event=event,
        winner=game.winner or "",
        level=game.level,
        ending=game.ending or "",
        automatic_doubles=game.automatic_doubles,
        given_partner_id=game.partner_id,
        recorded_by=actor.user,
        **_derived_facts(number, lineup, score),
    )
    _by(actor, row).save()
    bulk_create_with_history(
        [
            MemberResult(
                game=row,
                player_id=m.player_id,
                line=index,
                cube=initial if m.cube is None else m.cube,
                owner=m.owner or "",
                action=m.action,
                raccoon=m.raccoon,
                stake=m.stake,
                taken_over=m.taken_over,
                points=score.payouts[m.player_id],
            )
            for index, m in enumerate(game.members)
        ],
        MemberResult,
        default_user=actor.user,
    )
    return row


def _check_players_known(game: GameInput) -> None:
    named = (("partner", game.partner_id), ("box", game.box_id), ("captain", game.captain_id))
    ids = [m.player_id for m in game.members] + [pk for _, pk in named if pk is not None]
    known = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    for index, member in enumerate(game.members):
        if member.player_id not in known:
            raise RuleViolation(
                "unknown_player",
                f"There is no player {member.player_id}.",
                f"members[{index}].player",
            )
    for name, pk in named:
        if pk is not None and pk not in known:
            raise RuleViolation("unknown_player", f"There is no player {pk}.", name)


# --- use cases ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedGame:
    """A write's answer: the session after it and the game it recorded or corrected."""

    session: Session
    number: int | None


def _parse_stake(stake: Any) -> Decimal:
    try:
        value = Decimal(str(stake))
    except (InvalidOperation, ValueError):
        raise RuleViolation(
            "invalid_stake", f"{stake!r} is not an amount such as 1.00.", "stake"
        ) from None
    stake_in_cents(value)  # above zero, whole cents
    if value >= Decimal("100000000"):
        raise RuleViolation("invalid_stake", "The stake per point is too large.", "stake")
    return value


@transaction.atomic
def open_session(
    *,
    actor: Actor,
    club: Club,
    stake: Any,
    currency: str = "EUR",
    played_on: date | None = None,
    label: str = "",
    profile: str = RuleProfile.MODERN,
    rules: Mapping[str, Any] | None = None,
    players: Sequence[int] | None = None,
    rolls: Mapping[int, int | Sequence[int]] | None = None,
) -> Session:
    """Open a session with an order given by hand (``players``) or from opening ``rolls``.

    Directors open any session of their club; a club member opens one they sit in.
    """
    if actor.user is None:
        raise NotAllowed("login_required", "Log in to open a chouette.")
    if (players is None) == (rolls is None):
        raise RuleViolation(
            "order_required",
            "Give the opening order either as 'players' (box first) or as 'rolls'.",
            "players",
        )
    chouette_rules = build_rules(profile, rules)
    value = _parse_stake(stake)
    if not currency or len(currency) != 3 or not currency.isalpha():
        raise RuleViolation("invalid_currency", "The currency is a 3-letter code.", "currency")
    if rolls is not None:
        ids = list(rolls)
        _players_of(club, ids, "rolls")
        lineup = rules_order_from_rolls(rolls)
    else:
        ids = list(players or [])
        if len(set(ids)) != len(ids):
            duplicate = next(pk for pk in ids if ids.count(pk) > 1)
            raise RuleViolation(
                "player_seated_twice",
                f"Player {duplicate} is seated twice: every player has one seat.",
                f"players[{ids.index(duplicate, ids.index(duplicate) + 1)}]",
            )
        _players_of(club, ids, "players")
        lineup = Lineup.from_order(ids)
    if len(lineup.players) < 3:
        raise RuleViolation(
            "too_few_players", "A chouette is played by three or more players.", "players"
        )
    director = _is_director(actor, club)
    if not director and (actor.player is None or actor.player.pk not in lineup.players):
        raise NotAllowed(
            "directors_or_players_only",
            "Only the club's directors, or a club member who sits at the table, open a chouette.",
        )
    session = Session(
        club=club,
        stake=value,
        currency=currency.upper(),
        played_on=played_on or timezone.localdate(),
        label=label,
        profile=profile,
        opening_order=list(lineup.players),
        opening_rolls=({str(k): v for k, v in rolls.items()} if rolls is not None else None),
        lineup=list(lineup.players),
        created_by=actor.user,
        **rules_values(chouette_rules),
    )
    _by(actor, session).save()
    bulk_create_with_history(
        [
            Seat(session=session, player_id=pk, join_order=index)
            for index, pk in enumerate(lineup.players)
        ],
        Seat,
        default_user=actor.user,
    )
    return session


@transaction.atomic
def record_game(
    *,
    actor: Actor,
    session_id: int,
    game: GameInput,
    number: int | None = None,
    expected_version: int | None = None,
) -> RecordedGame:
    """Record the next game. ``number`` says which game the client means: if another
    entry got there first, the answer is 409 rather than a second game."""
    session = _lock(session_id)
    _require_writer(actor, session)
    _check_version(session, expected_version)
    _require_open(session)
    # The stored lineup was derived by the replay of the last write, so the next game
    # is scored against it directly: a write costs the same at game 5 and game 500.
    next_number = session.games.count() + 1
    if number is not None and number != next_number:
        raise ConflictError(
            "game_already_recorded",
            f"Game {number} is already recorded (the next game is {next_number}): reload "
            "the sheet.",
            field="number",
        )
    _check_players_known(game)
    record = record_from_input(game)
    lineup = Lineup.from_order(session.lineup)
    score, after = next_game(session_rules(session), lineup, record)
    Ledger().record(score.payouts)  # refuses a game that does not sum to zero
    last = session.events.order_by("-sequence").values_list("sequence", flat=True).first()
    event = SessionEvent.objects.create(
        session=session,
        sequence=(last or 0) + 1,
        kind=SessionEvent.Kind.GAME,
        recorded_by=actor.user,
    )
    _create_game_rows(
        session=session,
        event=event,
        game=game,
        number=next_number,
        lineup=lineup,
        score=score,
        actor=actor,
    )
    session.lineup = list(after.players)
    _bump(session, actor)
    return RecordedGame(session, next_number)


@transaction.atomic
def correct_game(
    *,
    actor: Actor,
    session_id: int,
    number: int,
    game: GameInput,
    expected_version: int | None = None,
) -> RecordedGame:
    """Replace game ``number``'s record; the ledger and rotation after it are re-derived.

    If the correction makes a later game impossible (its members no longer match the
    lineup the new rotation gives), the whole correction is refused with that rule.
    Seated players correct while the session is open; directors at any time.
    """
    session = _lock(session_id)
    director = _require_writer(actor, session)
    _check_version(session, expected_version)
    if not director:
        _require_open(session)
    rows = _event_rows(session)
    games = [e for e in rows if e.kind == SessionEvent.Kind.GAME]
    if not 1 <= number <= len(games):
        raise RuleViolation(
            "no_such_game", f"The session has no game {number} (it has {len(games)}).", "number"
        )
    target = games[number - 1]
    index = rows.index(target)
    _check_players_known(game)
    record = record_from_input(game)
    before = _replay(session, rows[:index])
    next_game(session_rules(session), before.lineup, record)  # errors name the body's fields
    events = events_from_rows(rows)
    events[index] = record
    replay = replay_session(session_rules(session), opening_lineup(session), events)

    row = target.game
    initial = 2**game.automatic_doubles
    row.winner = game.winner or ""
    row.level = game.level
    row.ending = game.ending or ""
    row.automatic_doubles = game.automatic_doubles
    row.given_partner_id = game.partner_id
    row.recorded_by = actor.user
    _by(actor, row).save()
    row.members.all().delete()
    payouts = replay.games[number - 1].score.payouts  # stored at once: no 0 → n in the audit
    bulk_create_with_history(
        [
            MemberResult(
                game=row,
                player_id=m.player_id,
                line=line,
                cube=initial if m.cube is None else m.cube,
                owner=m.owner or "",
                action=m.action,
                raccoon=m.raccoon,
                stake=m.stake,
                taken_over=m.taken_over,
                points=payouts[m.player_id],
            )
            for line, m in enumerate(game.members)
        ],
        MemberResult,
        default_user=actor.user,
    )
    _store_replay(session, _event_rows(session), replay, actor)
    _bump(session, actor)
    return RecordedGame(session, number)


@transaction.atomic
def undo_last_game(
    *, actor: Actor, session_id: int, number: int, expected_version: int | None = None
) -> RecordedGame:
    """Take back the last game (``number`` must be it); everything is replayed without it."""
    session = _lock(session_id)
    director = _require_writer(actor, session)
    _check_version(session, expected_version)
    if not director:
        _require_open(session)
    rows = _event_rows(session)
    games = [e for e in rows if e.kind == SessionEvent.Kind.GAME]
    if not games:
        raise ConflictError("no_game_to_undo", "No game has been recorded yet.")
    if number != len(games):
        raise ConflictError(
            "only_last_game_undone",
            f"Only the last game ({len(games)}) can be undone; correct game {number} instead.",
            field="number",
        )
    remaining = [e for e in rows if e is not games[-1]]
    replay = _replay(session, remaining)
    games[-1].delete()  # cascades to the game and its members
    _store_replay(session, remaining, replay, actor)
    _bump(session, actor)
    return RecordedGame(session, None)


@transaction.atomic
def join_session(
    *, actor: Actor, session_id: int, player: Player, expected_version: int | None = None
) -> Session:
    """A newcomer takes a seat at the bottom of the team, between games.

    Seated players and directors seat a newcomer; a club member may seat themself.
    """
    session = _lock(session_id)
    self_join = actor.player is not None and actor.player.pk == player.pk
    if not self_join:
        _require_writer(actor, session)
    elif actor.user is None:
        raise NotAllowed("login_required", "Log in to join a chouette.")
    _check_version(session, expected_version)
    _require_open(session)
    _players_of(session.club, [player.pk], "player")
    rows = _event_rows(session)
    try:
        replay = _replay(session, rows, [Join(player.pk)])
    except RuleViolation as error:
        raise RuleViolation(error.code, error.message, field="player") from None
    SessionEvent.objects.create(
        session=session,
        sequence=_next_sequence(rows),
        kind=SessionEvent.Kind.JOIN,
        player=player,
        recorded_by=actor.user,
    )
    seat = session.seats.filter(player=player).first()
    if seat is None:
        _by(actor, Seat(session=session, player=player, join_order=session.seats.count())).save()
    else:
        seat.left_at = None
        seat.joined_at = timezone.now()
        _by(actor, seat).save()
    session.lineup = list(replay.lineup.players)
    _bump(session, actor)
    return session


@transaction.atomic
def leave_session(
    *, actor: Actor, session_id: int, player: Player, expected_version: int | None = None
) -> Session:
    """A player leaves between games; they keep their total and settle at the end."""
    session = _lock(session_id)
    _require_writer(actor, session)
    _check_version(session, expected_version)
    _require_open(session)
    rows = _event_rows(session)
    try:
        replay = _replay(session, rows, [Leave(player.pk)])
    except RuleViolation as error:
        raise RuleViolation(error.code, error.message, field="player") from None
    SessionEvent.objects.create(
        session=session,
        sequence=_next_sequence(rows),
        kind=SessionEvent.Kind.LEAVE,
        player=player,
        recorded_by=actor.user,
    )
    seat = session.seats.get(player=player)
    seat.left_at = timezone.now()
    _by(actor, seat).save()
    session.lineup = list(replay.lineup.players)
    _bump(session, actor)
    return session


@transaction.atomic
def close_session(*, actor: Actor, session_id: int, expected_version: int | None = None) -> Session:
    """Close the session: the ledger is final and the settlement stands."""
    session = _lock(session_id)
    _require_writer(actor, session)
    _check_version(session, expected_version)
    _require_open(session)
    session.status = SessionStatus.CLOSED
    session.closed_at = timezone.now()
    _bump(session, actor)
    return session
