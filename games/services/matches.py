"""Match play use cases: create a match, record games or a final score, confirm,
dispute, undo, correct, void, forfeit and reopen.

Each function is one transaction through :class:`core.locking.LockedWrite`: it locks
the match row (``select_for_update``), checks the actor may write it, checks the
caller's ``expected_version`` (``If-Match``) and snapshots the outcome, then asks
:func:`require_writable` whether the match's state allows this write (a void,
forfeited or confirmed result stays closed; only :func:`reopen_match` takes a void or
a forfeit back), validates the whole record with the pure rules in
``games.rules.scoring`` before writing anything, writes, bumps the version, and
announces a changed result (:func:`announce`: the listeners registered in
:mod:`core.listeners` run in the same transaction; follow-up jobs go to the outbox).
The score, winner and status stored on the match are always re-derived from the
games, never patched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from enum import Enum, StrEnum
from typing import Any

from django.contrib.postgres.aggregates import JSONBAgg
from django.db import connection, transaction
from django.db.models import Exists, JSONField, OuterRef, QuerySet, Subquery
from django.db.models.functions import JSONObject
from django.utils import timezone

from core.actors import Actor
from core.events import emit
from core.history import history_in_bulk
from core.listeners import Outcome, ResultChange, announce_result_change
from core.locking import LockedWrite
from core.transactions import joins_all_or_nothing
from games import events
from games.models import Club, Confirmation, Dispute, Game, Match, MatchStatus, Player, Rating
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from games.rules.scoring import (
    GameRecord,
    MatchRules,
    MatchState,
    check_final_score,
    record_next_game,
    replay_match,
    resume_match,
)
from games.rules.types import UNKNOWN_OWNER, Ending, Level
from games.selectors import next_game_refusal

from .actors import is_match_director, participant_side

CUBE_OWNER_TO_INDEX = {"centre": None, "player1": 0, "player2": 1, "unknown": UNKNOWN_OWNER}
INDEX_TO_CUBE_OWNER = {None: "centre", 0: "player1", 1: "player2", UNKNOWN_OWNER: "unknown"}


def default_cube_owner(cube: int) -> str:
    """The owner of a cube nobody named: an unturned cube (1) is in the centre; a turned
    one is ``unknown`` (score sheets rarely record it, and it changes no score)."""
    return "centre" if cube == 1 else "unknown"


@dataclass(frozen=True)
class GameInput:
    """A game as a client describes it; ``points`` optional, checked when given."""

    winner_id: int
    cube: int = 1
    cube_owner: str | None = None  # None: the default for the cube (default_cube_owner)
    ending: str = Ending.PLAYED
    level: str = Level.SINGLE
    points: int | None = None


@dataclass(frozen=True)
class GameChanges:
    """A correction naming only some fields (a PATCH): None keeps the stored value,
    except ``points``, which is re-derived unless given. Merged with the stored game
    inside :func:`correct_game`, under the match's lock, so a correction never builds
    on a copy of the game another write has changed meanwhile."""

    winner_id: int | None = None
    cube: int | None = None
    cube_owner: str | None = None
    ending: str | None = None
    level: str | None = None
    points: int | None = None

    def merged_with(self, row: Game) -> GameInput:
        def pick(name: str, stored: object) -> object:
            value = getattr(self, name)
            return stored if value is None else value

        return GameInput(
            winner_id=pick("winner_id", row.winner_id),  # type: ignore[arg-type]
            cube=pick("cube", row.cube),  # type: ignore[arg-type]
            # a new cube without an owner takes the cube's default (None), never the
            # stored owner of the old cube
            cube_owner=(
                self.cube_owner
                if self.cube_owner is not None or self.cube is not None
                else row.cube_owner
            ),
            ending=pick("ending", row.ending),  # type: ignore[arg-type]
            level=pick("level", row.level),  # type: ignore[arg-type]
            points=self.points,
        )


# --- reading the rules' view of a match -------------------------------------------------


def match_rules(match: Match) -> MatchRules:
    return MatchRules(length=match.length, crawford=match.crawford, cube_limit=match.cube_limit)


def _record_from_row(match: Match, game: Game) -> GameRecord:
    return GameRecord(
        winner=0 if game.winner_id == match.player1_id else 1,
        cube=game.cube,
        cube_owner=CUBE_OWNER_TO_INDEX[game.cube_owner],
        ending=Ending(game.ending),
        level=Level(game.level),
        points=game.points,
    )


def _record_from_input(match: Match, data: GameInput, field_prefix: str = "") -> GameRecord:
    side = {match.player1_id: 0, match.player2_id: 1}.get(data.winner_id)
    if side is None:
        raise RuleViolation(
            "winner_not_in_match",
            "The winner must be one of the two players of this match.",
            field=f"{field_prefix}winner",
        )
    owner = data.cube_owner if data.cube_owner is not None else default_cube_owner(data.cube)
    if owner not in CUBE_OWNER_TO_INDEX:
        raise RuleViolation(
            "cube_owner_invalid",
            "The cube owner is 'centre', 'player1', 'player2' or 'unknown'.",
            field=f"{field_prefix}cube_owner",
        )
    return GameRecord(
        winner=side,
        cube=data.cube,
        cube_owner=CUBE_OWNER_TO_INDEX[owner],
        ending=Ending(data.ending),
        level=Level(data.level),
        points=data.points,
    )


def stored_state(match: Match) -> MatchState:
    """The state to record the next game from, read from stored facts in one query.

    Each game row keeps its derived facts (the services re-derive them on every
    correction), so the count of games and the Crawford game's number, with the
    score on the match, are all the rules need: cost does not grow with the games.
    """
    from django.db.models import Count, Max, Q

    facts = match.games.aggregate(
        played=Count("id"), crawford=Max("number", filter=Q(crawford=True))
    )
    return resume_match(
        match_rules(match),
        score=(match.score1, match.score2),
        games_played=facts["played"],
        crawford_game=facts["crawford"],
    )


#: The game fields a client is shown (``values()`` of them: no model instances).
GAME_FIELDS = (
    "number",
    "score1_before",
    "score2_before",
    "winner_id",
    "cube",
    "cube_owner",
    "ending",
    "level",
    "points",
    "crawford",
    "post_crawford",
    "confirmed",
    "entered_by_id",
)


def _state_from_rows(match: Match, rows: list[dict[str, Any]]) -> MatchState:
    """:func:`stored_state` from the game rows already read (:data:`GAME_FIELDS`)."""
    return resume_match(
        match_rules(match),
        score=(match.score1, match.score2),
        games_played=len(rows),
        crawford_game=max((g["number"] for g in rows if g["crawford"]), default=None),
    )


def _game_values(game: Game) -> dict[str, Any]:
    """A game just written, as ``values(*GAME_FIELDS)`` would read it back."""
    return {
        name: value.value if isinstance(value, Enum) else value
        for name in GAME_FIELDS
        for value in (getattr(game, name),)
    }


def match_state(match: Match, games: list[Game] | None = None) -> MatchState:
    """The rules' derivation of a match from its stored games."""
    rows = games if games is not None else list(match.games.order_by("number"))
    return replay_match(match_rules(match), [_record_from_row(match, g) for g in rows])


# --- guards -------------------------------------------------------------------------------


#: Every match write locks through here: the club and players come with the row.
_MATCH_ROWS = Match.objects.select_related("club", "player1", "player2")


def _rows_for(actor: Actor) -> QuerySet[Match]:
    """:data:`_MATCH_ROWS` with what :func:`record_game` needs, asked by the locking
    query itself instead of one query each: ``actor_directs`` (does the actor direct
    the match's club?) and, on PostgreSQL, ``locked_game_rows`` (the games, as
    ``values(*GAME_FIELDS)``) with ``snapshot_version``.

    The games are read in the statement's snapshot, which predates the lock when the
    lock had to wait for another writer: then they may be the games *before* that
    writer's. Every write of a match's games bumps its version under the lock, so the
    version in the same snapshot tells: equal to the locked row's, the games are the
    locked state's; different, :func:`_locked_games` reads them again.
    """
    rows = _MATCH_ROWS
    # The players' ratings on the club's list ride along for the answer's winning
    # chances (games.selectors_chances reads ``list_rating1/2``): no query of their own.
    club_ratings = Rating.objects.filter(rating_list__club_id=OuterRef("club_id"))
    rows = rows.annotate(
        list_rating1=Subquery(
            club_ratings.filter(player_id=OuterRef("player1_id")).values("rating")[:1]
        ),
        list_rating2=Subquery(
            club_ratings.filter(player_id=OuterRef("player2_id")).values("rating")[:1]
        ),
    )
    if actor.user is not None and not actor.is_admin:
        directors = Club.directors.through.objects.filter(
            club_id=OuterRef("club_id"), user_id=actor.user.pk
        )
        rows = rows.annotate(actor_directs=Exists(directors))
    if connection.vendor == "postgresql":
        games = (
            Game.objects.filter(match_id=OuterRef("pk"))
            .order_by()
            .values("match_id")
            .annotate(rows=JSONBAgg(JSONObject(**{f: f for f in GAME_FIELDS}), order_by="number"))
            .values("rows")
        )
        version = Match.objects.filter(pk=OuterRef("pk")).values("version")
        rows = rows.annotate(
            locked_game_rows=Subquery(games, output_field=JSONField()),
            snapshot_version=Subquery(version),
        )
    return rows


def _locked_games(match: Match) -> list[dict[str, Any]]:
    """The match's games (``values(*GAME_FIELDS)``, in order), read under its lock:
    those the locking query brought if they are the locked state's, else read now."""
    # both annotated by the locking query (``_rows_for``, PostgreSQL only), or neither
    rows: list[dict[str, Any]] | None = getattr(match, "locked_game_rows", None)
    version: int | None = getattr(match, "snapshot_version", None)
    if version is not None and version == match.version:
        return rows or []
    return list(Game.objects.filter(match_id=match.pk).order_by("number").values(*GAME_FIELDS))


def _begin(
    match_id: int,
    expected_version: int | None,
    authorize: Callable[[Match], Any],
    *,
    rows: QuerySet[Match] = _MATCH_ROWS,
) -> LockedWrite[Match, Outcome]:
    """Lock the match, let ``authorize`` refuse the actor (403 before 412), check the
    ``If-Match`` version, and snapshot the outcome listeners will compare against."""
    return LockedWrite(
        rows,
        match_id,
        noun="match",
        expected_version=expected_version,
        authorize=authorize,
        snapshot=outcome_of,
    )


def _require_writer(actor: Actor, match: Match, *, director: bool | None = None) -> bool:
    """Participants, the club's directors and site admins write; returns is_director
    (``director``: already known, e.g. from :func:`_rows_for`)."""
    if director is None or actor.is_admin:
        director = is_match_director(actor, match)
    if not director and participant_side(actor, match) is None:
        raise NotAllowed(
            "not_a_participant",
            "Only the two players of this match and its club's directors may change it.",
        )
    return director


def _require_director(actor: Actor, match: Match) -> None:
    if not is_match_director(actor, match):
        raise NotAllowed(
            "directors_only", "Only the club's directors may do this (corrections, voids)."
        )


class Write(StrEnum):
    """The kinds of write a match service makes, as :func:`require_writable` knows them."""

    ENTER = "enter"  # record a game or a final score
    CONFIRM = "confirm"
    DISPUTE = "dispute"
    RESOLVE = "resolve"  # a director closes an open dispute
    UNDO = "undo"
    CORRECT = "correct"  # a director corrects or removes a game, or the final score
    VOID = "void"
    FORFEIT = "forfeit"
    SCORE_LINKS = "score_links"  # hand out the players' private score links
    REOPEN = "reopen"


#: Writes that reach a finished, confirmed match to be refused by the rules of the
#: service itself, whose answer is the more precise one (a game after the end is 400
#: ``game_after_match_end``, a second result 409 ``result_already_recorded``).
_FINAL_ANYONE_WRITES = frozenset({Write.ENTER})
#: Writes a director may still make to a finished match whose result is confirmed.
_FINAL_DIRECTOR_WRITES = _FINAL_ANYONE_WRITES | frozenset(
    {Write.RESOLVE, Write.UNDO, Write.CORRECT, Write.VOID, Write.FORFEIT}
)
#: Writes a director may make to a void or forfeited match: reopening it, and closing
#: a dispute left open when it was closed (neither touches the result).
_CLOSED_DIRECTOR_WRITES = frozenset({Write.RESOLVE, Write.REOPEN})


def is_closed(match: Match) -> bool:
    """Void, forfeited, or finished with its result confirmed: the result is final."""
    if match.status in (MatchStatus.VOID, MatchStatus.FORFEIT):
        return True
    return match.status == MatchStatus.FINISHED and match.confirmation == Confirmation.CONFIRMED


def require_writable(match: Match, write: Write, *, director: bool) -> None:
    """The one check every match write makes of the match's state (after the caller's
    permission and ``If-Match``): may this write touch a match in this state?

    A closed result must stay closed: a correction that re-derives the status from the
    games would otherwise quietly turn a void or a forfeit back into a result (and
    rate it), so closed states allow only the writes below, and undoing a void or a
    forfeit is its own explicit, audited write (:func:`reopen_match`).

    ======================================  ============================================
    state                                   writes allowed (every other answers 409)
    ======================================  ============================================
    scheduled, in progress                  all but reopen (the other rules of each
                                            service still apply)
    finished, not yet confirmed             all but reopen: the opponent confirms or
    (pending, disputed)                     disputes, the author undoes, a director
                                            corrects, voids or forfeits
    finished and confirmed                  directors: correct/remove a game or the
                                            final score, undo, resolve, void, forfeit;
                                            players (and score links): nothing (an
                                            entry passes on to the scoring rules,
                                            which refuse it with their own code)
    void, forfeit                           directors only: reopen, resolve a dispute
                                            left open; nothing else, not even a second
                                            void or forfeit (reopen first)
    ======================================  ============================================

    Refusals are :class:`ConflictError` ``match_closed`` naming the state, or
    ``match_not_closed`` for a reopen of a match that is not void or forfeited.
    Tournament code acts through the same services as a director (its system actor)
    and needs no way around this: a withdrawal forfeits only matches still open, and
    a redraw, a swap or a bracket change voids only matches nobody has started.
    """
    state = _state_name(match)
    if write == Write.REOPEN:
        if match.status not in (MatchStatus.VOID, MatchStatus.FORFEIT):
            raise ConflictError(
                "match_not_closed",
                f"The match is {state}: only a void or forfeited match is reopened.",
            )
        return
    if not is_closed(match):
        return
    voided = match.status in (MatchStatus.VOID, MatchStatus.FORFEIT)
    allowed = _CLOSED_DIRECTOR_WRITES if voided else _FINAL_DIRECTOR_WRITES
    if write in _FINAL_ANYONE_WRITES and not voided:
        return
    if director and write in allowed:
        return
    if voided:
        hint = "a director of the club reopens it first (POST .../reopen/)."
    elif director:
        hint = "a director may correct it, void it or award it by forfeit."
    else:
        hint = "ask a director of the club to correct it."
    raise ConflictError("match_closed", f"The match is {state}: {hint}")


def _state_name(match: Match) -> str:
    if match.status == MatchStatus.FINISHED and match.confirmation == Confirmation.CONFIRMED:
        return "finished and confirmed"
    if match.status == MatchStatus.FORFEIT:
        return "forfeited"
    return match.get_status_display().lower()


def outcome_of(match: Match) -> Outcome:
    """The match's result as the listeners compare it (status, winner, score)."""
    return Outcome(
        status=str(match.status), winner_id=match.winner_id, score=(match.score1, match.score2)
    )


#: The outcome of a match nobody has played yet (a new match, e.g. an imported one).
UNPLAYED = Outcome(status=MatchStatus.SCHEDULED.value, winner_id=None, score=(0, 0))


def announce(match: Match, previous: Outcome) -> None:
    """After a write, under the match's lock: if the result changed (see
    :meth:`core.listeners.Outcome.differs_from`; a first game is not a result), run the
    registered result listeners in this transaction, and queue follow-up jobs."""
    change = ResultChange(match.pk, match, previous, outcome_of(match))
    if not announce_result_change(change):
        return
    if match.status == MatchStatus.FINISHED and not previous.is_final:
        emit(events.MATCH_FINISHED, match_id=match.pk, club_id=match.club_id)
    elif previous.is_final:
        emit(events.MATCH_RESULT_CHANGED, match_id=match.pk, club_id=match.club_id)


def _apply_state(match: Match, state: MatchState) -> None:
    """Copy the derived score, winner and status onto the match row."""
    match.score1, match.score2 = state.score
    if state.finished and state.winner is not None:
        match.winner = match.player_at(state.winner)
        match.status = MatchStatus.FINISHED
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.winner = None
        match.finished_at = None
        match.status = MatchStatus.IN_PROGRESS if state.games else MatchStatus.SCHEDULED


def _rewrite_games(match: Match, rows: list[Game], state: MatchState) -> None:
    """Store every game's derived facts (score before, Crawford flags, points)."""
    changed = []
    for row, outcome in zip(rows, state.games, strict=True):
        facts = {
            "number": outcome.number,
            "score1_before": outcome.score_before[0],
            "score2_before": outcome.score_before[1],
            "crawford": outcome.crawford,
            "post_crawford": outcome.post_crawford,
            "points": outcome.points,
        }
        if any(getattr(row, key) != value for key, value in facts.items()):
            for key, value in facts.items():
                setattr(row, key, value)
            changed.append(row)
    for row in changed:  # save() keeps the audit history (bulk_update would not)
        row.save()


# --- use cases -------------------------------------------------------------------------------


@transaction.atomic
def create_match(
    *,
    actor: Actor,
    club: Club,
    player1: Player,
    player2: Player,
    length: int,
    crawford: bool = True,
    rated: bool = True,
    cube_limit: int | None = None,
    label: str = "",
    played_on: date | None = None,
) -> Match:
    """Directors create any match of their club; players an unrated friendly of their own."""
    from core import access

    if actor.via_score_link or (actor.user is None and not actor.is_admin):
        # A private score link speaks for one player of one match: it creates nothing.
        raise NotAllowed(
            "account_required", "Sign in to create a match; a score link only scores its match."
        )
    if player1.pk == player2.pk:
        raise RuleViolation("same_player_twice", "A match needs two different players.", "player2")
    MatchRules(length=length, crawford=crawford, cube_limit=cube_limit)  # validates
    director = actor.user is not None and access.is_director(actor.user, club)
    if not director:
        if actor.player is None or actor.player.pk not in (player1.pk, player2.pk):
            raise NotAllowed(
                "directors_only",
                "Only the club's directors create matches for others; players may create "
                "an unrated friendly match they play in.",
            )
        if rated:
            raise NotAllowed(
                "friendly_matches_are_unrated",
                "Players may only create unrated friendly matches; ask a director for a rated one.",
                field="rated",
            )
    for player, field in ((player1, "player1"), (player2, "player2")):
        if not player.memberships.filter(club=club).exists():
            raise RuleViolation(
                "player_not_in_club", f"{player} is not a member of {club}.", field=field
            )
    return Match.objects.create(
        club=club,
        player1=player1,
        player2=player2,
        length=length,
        crawford=crawford,
        rated=rated and length > 0,
        cube_limit=cube_limit,
        label=label,
        played_on=played_on,
        created_by=actor.user,
    )


@joins_all_or_nothing
def record_game(
    *,
    actor: Actor,
    match_id: int,
    game: GameInput,
    number: int | None = None,
    expected_version: int | None = None,
) -> Match:
    """Record the next game. ``number`` says which game the client means: if another
    entry got there first, the answer is 409 rather than a second game.

    The hot write of the API, kept to few round trips: the locking query also answers
    whether the actor directs the club and brings the games (:func:`_rows_for`), read
    once for the rules and for the answer (:data:`Match.game_rows`: the serializer renders from them
    instead of reading them again); the two audit rows go in one statement
    (:func:`core.history.history_in_bulk`); and inside the API's all-or-nothing
    transaction the function joins it without a savepoint."""
    write = _begin(
        match_id,
        expected_version,
        lambda m: _require_writer(actor, m, director=getattr(m, "actor_directs", None)),
        rows=_rows_for(actor),
    )
    match, director = write.row, write.authorized
    require_writable(match, Write.ENTER, director=director)
    refusal = next_game_refusal(match, director=director)
    if refusal is not None:
        raise refusal
    rows = _locked_games(match)
    state = _state_from_rows(match, rows)
    if number is not None and number != state.next_game_number:
        raise ConflictError(
            "game_already_recorded",
            f"Game {number} is already recorded (the next game is {state.next_game_number}): "
            "reload the match and confirm or dispute it instead.",
            field="number",
        )
    record = _record_from_input(match, game)
    new_state = record_next_game(state, record)  # raises the rule that forbids it
    outcome = new_state.games[-1]
    with history_in_bulk():
        created = Game.objects.create(
            match=match,
            number=outcome.number,
            winner=match.player_at(record.winner),
            cube=record.cube,
            cube_owner=INDEX_TO_CUBE_OWNER[record.cube_owner],
            ending=record.ending,
            level=record.level,
            points=outcome.points,
            score1_before=outcome.score_before[0],
            score2_before=outcome.score_before[1],
            crawford=outcome.crawford,
            post_crawford=outcome.post_crawford,
            entered_by=actor.player,
            entered_by_user=actor.user,
            confirmed=director,
        )
        _apply_state(match, new_state)
        _mark_entered(match, actor, director)
        write.commit(announce)
    match.game_rows = [*rows, _game_values(created)]
    return match


def _mark_entered(match: Match, actor: Actor, director: bool) -> None:
    """A participant's entry awaits the opponent; a director's entry stands confirmed."""
    side = participant_side(actor, match)
    if director and side is None:
        if match.confirmation != Confirmation.DISPUTED:
            match.confirmation = Confirmation.CONFIRMED
            match.awaiting = None
        return
    match.confirmation = Confirmation.PENDING
    match.awaiting = match.player_at(1 - side) if side is not None else None


@transaction.atomic
def record_final_score(
    *, actor: Actor, match_id: int, score: tuple[int, int], expected_version: int | None = None
) -> Match:
    """Record only the final score (clubs with paper score sheets): no game detail."""
    write = _begin(match_id, expected_version, lambda m: _require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.ENTER, director=director)
    if match.length == 0:
        raise RuleViolation(
            "unlimited_session_has_no_final_score",
            "An unlimited session has no final score: record its games.",
            field="score",
        )
    if match.games.exists() or match.final_score_only:
        raise ConflictError(
            "result_already_recorded",
            "Games or a result are already recorded for this match; a director corrects it.",
            field="score",
        )
    winner = check_final_score(match_rules(match), (*score,))
    match.score1, match.score2 = score
    match.winner = match.player_at(winner)
    match.status = MatchStatus.FINISHED
    match.finished_at = timezone.now()
    match.final_score_only = True
    _mark_entered(match, actor, director)
    return write.commit(announce)


@transaction.atomic
def confirm_match(*, actor: Actor, match_id: int, expected_version: int | None = None) -> Match:
    """The opponent (or a director) confirms everything entered so far."""
    write = _begin(match_id, expected_version, lambda m: _require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.CONFIRM, director=director)
    if match.confirmation != Confirmation.PENDING:
        raise ConflictError(
            "nothing_to_confirm",
            f"There is nothing awaiting confirmation (the match is {match.confirmation}).",
        )
    if not director and match.awaiting_id != getattr(actor.player, "pk", None):
        raise NotAllowed("confirm_own_entry", "Your opponent confirms what you entered, not you.")
    match.games.filter(confirmed=False).update(confirmed=True)
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    return write.commit()


@transaction.atomic
def dispute_match(
    *, actor: Actor, match_id: int, reason: str, expected_version: int | None = None
) -> Dispute:
    """The opponent objects to what was entered; the club's directors are asked to rule."""
    write = _begin(match_id, expected_version, lambda m: _require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.DISPUTE, director=director)
    side = participant_side(actor, match)
    if side is None:
        raise NotAllowed("participants_only", "Only a player of the match raises a dispute.")
    assert actor.player is not None  # a side means a player of the match
    if match.confirmation != Confirmation.PENDING or match.awaiting_id != actor.player.pk:
        raise ConflictError(
            "nothing_to_dispute", "Only an entry awaiting your confirmation can be disputed."
        )
    if not reason.strip():
        raise RuleViolation("reason_required", "Say what is wrong with the entry.", "reason")
    match.confirmation = Confirmation.DISPUTED
    match.awaiting = None
    write.commit()
    dispute = Dispute.objects.create(match=match, raised_by=actor.player, reason=reason.strip())
    emit(events.MATCH_DISPUTED, match_id=match.pk, club_id=match.club_id, dispute_id=dispute.pk)
    return dispute


@transaction.atomic
def resolve_dispute(
    *,
    actor: Actor,
    match_id: int,
    resolution: str,
    decision: str = Dispute.Decision.KEEP,
    expected_version: int | None = None,
) -> Match:
    """A director closes the open dispute with a decision and a note the players see.

    ``keep``: the result stands as entered (and is confirmed). ``corrected``: the
    director has corrected the games first (the correction services), and the result
    stands as it now is. ``void``: the match is voided in the same transaction, so a
    void and its reason cannot come apart. The decision defaults to ``keep``, which is
    what resolving meant before decisions were recorded.
    """
    write = _begin(match_id, expected_version, lambda m: _require_director(actor, m))
    match = write.row
    require_writable(match, Write.RESOLVE, director=True)
    if decision not in Dispute.Decision.values:
        raise RuleViolation(
            "unknown_decision",
            f"The decision is one of {', '.join(Dispute.Decision.values)}.",
            "decision",
        )
    if not resolution.strip():
        raise RuleViolation(
            "note_required", "Write a note for the players: what you decided and why.", "resolution"
        )
    open_disputes = match.disputes.filter(status=Dispute.Status.OPEN)
    if not open_disputes.exists():
        raise ConflictError("no_open_dispute", "This match has no open dispute.")
    if decision == Dispute.Decision.VOID and match.status in (
        MatchStatus.VOID,
        MatchStatus.FORFEIT,
    ):
        raise ConflictError(
            "match_closed", f"The match is already {match.status}: keep it as it stands."
        )
    # Each dispute is saved (not a queryset update) so its history records the ruling
    # for the audit trail.
    for dispute in open_disputes:
        dispute.status = Dispute.Status.RESOLVED
        dispute.decision = decision
        dispute.resolution = resolution.strip()
        dispute.resolved_by = actor.user
        dispute.resolved_at = timezone.now()
        dispute.save()
    match.games.filter(confirmed=False).update(confirmed=True)
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    if decision == Dispute.Decision.VOID:
        match.status = MatchStatus.VOID
        match.winner = None
        return write.commit(announce)
    return write.commit()


@transaction.atomic
def undo_last_game(*, actor: Actor, match_id: int, expected_version: int | None = None) -> Match:
    """The person who entered the last game takes it back, until the opponent confirms.

    A result recorded as a final score only (no games) is taken back the same way: a
    player who typed it backwards undoes it and enters it again. The author is the
    player the entry does not await; once the opponent confirms (or disputes, and a
    director rules) only a director takes it back.
    """
    write = _begin(match_id, expected_version, lambda m: _require_writer(actor, m))
    match, director = write.row, write.authorized
    require_writable(match, Write.UNDO, director=director)
    last = match.games.order_by("-number").first()
    if last is None and match.final_score_only:
        return _undo_final_score(write, actor, director)
    if last is None:
        raise ConflictError("no_game_to_undo", "No game has been recorded yet.")
    if not director:
        if last.confirmed:
            raise ConflictError(
                "game_confirmed", "Your opponent confirmed this game: ask a director to correct it."
            )
        if last.entered_by_id != getattr(actor.player, "pk", None):
            raise NotAllowed(
                "undo_own_entry_only", "Only the player who entered the last game may undo it."
            )
    last.delete()
    rows = list(match.games.order_by("number"))
    state = match_state(match, rows)
    _apply_state(match, state)
    if not rows or all(g.confirmed for g in rows):
        match.confirmation = Confirmation.CONFIRMED if rows else Confirmation.NONE
        match.awaiting = None
    return write.commit(announce)


def _undo_final_score(write: LockedWrite[Match, Outcome], actor: Actor, director: bool) -> Match:
    """Take back a final score (the match row is locked by the caller's write)."""
    match = write.row
    if not director:
        if match.confirmation != Confirmation.PENDING:
            raise ConflictError(
                f"result_{match.confirmation}",
                f"The final score is {match.confirmation}: ask a director to correct it.",
            )
        side = participant_side(actor, match)
        if side is None or match.awaiting_id != match.player_at(1 - side).pk:
            raise NotAllowed(
                "undo_own_entry_only", "Only the player who entered the final score may undo it."
            )
    match.score1 = match.score2 = 0
    match.winner = None
    match.status = MatchStatus.SCHEDULED
    match.finished_at = None
    match.final_score_only = False
    match.confirmation = Confirmation.NONE
    match.awaiting = None
    match._change_reason = "final score taken back"
    match._history_user = actor.user
    return write.commit(announce)


@transaction.atomic
def correct_game(
    *,
    actor: Actor,
    match_id: int,
    number: int,
    game: GameInput | GameChanges,
    expected_version: int | None = None,
) -> Match:
    """A director replaces game ``number`` (or, with :class:`GameChanges`, some of its
    fields, merged here under the lock); every later game is re-derived from it.

    If the correction makes a later game impossible (the match would have ended
    earlier, or a later game would become the Crawford game with a double in it),
    the whole correction is refused with that rule; nothing is written.
    """
    write = _begin(match_id, expected_version, lambda m: _require_director(actor, m))
    match = write.row
    require_writable(match, Write.CORRECT, director=True)
    rows = list(match.games.order_by("number"))
    if not 1 <= number <= len(rows):
        raise RuleViolation(
            "no_such_game", f"The match has no game {number} (it has {len(rows)}).", "number"
        )
    if isinstance(game, GameChanges):
        game = game.merged_with(rows[number - 1])
    records = [_record_from_row(match, g) for g in rows]
    records[number - 1] = _record_from_input(match, game)
    state = replay_match(match_rules(match), records)
    row = rows[number - 1]
    record = records[number - 1]
    row.winner = match.player_at(record.winner)
    row.cube = record.cube
    row.cube_owner = INDEX_TO_CUBE_OWNER[record.cube_owner]
    row.ending = record.ending
    row.level = record.level
    row.points = state.games[number - 1].points
    row.confirmed = True
    row.save()
    _rewrite_games(match, rows, state)
    _apply_state(match, state)
    return write.commit(announce)


@transaction.atomic
def remove_game(
    *, actor: Actor, match_id: int, number: int, expected_version: int | None = None
) -> Match:
    """A director voids one game; later games are renumbered and re-derived."""
    write = _begin(match_id, expected_version, lambda m: _require_director(actor, m))
    match = write.row
    require_writable(match, Write.CORRECT, director=True)
    rows = list(match.games.order_by("number"))
    if not 1 <= number <= len(rows):
        raise RuleViolation(
            "no_such_game", f"The match has no game {number} (it has {len(rows)}).", "number"
        )
    remaining = rows[: number - 1] + rows[number:]
    state = match_state(match, remaining)
    rows[number - 1].delete()
    # Renumber from the top down is unsafe with the unique constraint; shift via offsets.
    for row in remaining[number - 1 :]:
        row.number = row.number + 10000
        row.save(update_fields=["number"])
    _rewrite_games(match, remaining, state)
    _apply_state(match, state)
    return write.commit(announce)


@transaction.atomic
def correct_final_score(
    *, actor: Actor, match_id: int, score: tuple[int, int], expected_version: int | None = None
) -> Match:
    """A director sets the final score of a match recorded without games."""
    write = _begin(match_id, expected_version, lambda m: _require_director(actor, m))
    match = write.row
    require_writable(match, Write.CORRECT, director=True)
    if match.games.exists():
        raise ConflictError(
            "match_has_games", "This match has game records: correct the games instead."
        )
    winner = check_final_score(match_rules(match), (*score,))
    match.score1, match.score2 = score
    match.winner = match.player_at(winner)
    match.status = MatchStatus.FINISHED
    match.final_score_only = True
    match.finished_at = match.finished_at or timezone.now()
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    return write.commit(announce)


@transaction.atomic
def void_match(*, actor: Actor, match_id: int, expected_version: int | None = None) -> Match:
    """A director voids the match: it keeps its games for the record but counts for nothing."""
    write = _begin(match_id, expected_version, lambda m: _require_director(actor, m))
    match = write.row
    require_writable(match, Write.VOID, director=True)
    match.status = MatchStatus.VOID
    match.winner = None
    return write.commit(announce)


@transaction.atomic
def forfeit_match(
    *, actor: Actor, match_id: int, winner_id: int, expected_version: int | None = None
) -> Match:
    """A director awards the match by forfeit; forfeits are never rated."""
    write = _begin(match_id, expected_version, lambda m: _require_director(actor, m))
    match = write.row
    require_writable(match, Write.FORFEIT, director=True)
    side = {match.player1_id: 0, match.player2_id: 1}.get(winner_id)
    if side is None:
        raise RuleViolation(
            "winner_not_in_match", "The winner must be one of the two players.", "winner"
        )
    match.status = MatchStatus.FORFEIT
    match.winner = match.player_at(side)
    match.finished_at = timezone.now()
    match.confirmation = Confirmation.CONFIRMED
    match.awaiting = None
    return write.commit(announce)


@transaction.atomic
def reopen_match(
    *, actor: Actor, match_id: int, reason: str = "", expected_version: int | None = None
) -> Match:
    """A director takes back a void or a forfeit: the match gets the status its record
    implies again (its games, or its final score), and everything downstream follows
    through the usual announcement (a tournament's bracket, the rating lists).

    This is the only way back from a void or a forfeit (see :func:`require_writable`),
    so that a result never reappears as a side effect of a correction; the match's
    audit trail records the reopening, by whom and why.
    """
    write = _begin(match_id, expected_version, lambda m: _require_director(actor, m))
    match = write.row
    require_writable(match, Write.REOPEN, director=True)
    was = _state_name(match)
    if match.final_score_only:
        match.winner = match.player_at(
            check_final_score(match_rules(match), (match.score1, match.score2))
        )
        match.status = MatchStatus.FINISHED
        match.finished_at = match.finished_at or timezone.now()
    else:
        rows = list(match.games.order_by("number"))
        _apply_state(match, match_state(match, rows))
    note = f"reopened (was {was})"
    match._change_reason = f"{note}: {reason.strip()}" if reason.strip() else note
    match._history_user = actor.user
    return write.commit(announce)


def score_link_tokens(*, actor: Actor, match_id: int) -> list[tuple[Player, str]]:
    """Each player's private score link, for the match's players and directors.

    Signing stores nothing, but handing out links is a write in effect (they let the
    holders score the match), so it follows :func:`require_writable`: no links for a
    closed match (they would be dead on arrival), and a score link never begets links.
    """
    from games import score_links

    match = Match.objects.select_related("club", "player1", "player2").filter(pk=match_id).first()
    if match is None:
        raise RuleViolation("match_not_found", f"There is no match {match_id}.", field="match")
    director = is_match_director(actor, match)
    if actor.via_score_link or not (director or participant_side(actor, match) is not None):
        raise NotAllowed(
            "not_a_participant", "Only the match's players and directors get its score links."
        )
    require_writable(match, Write.SCORE_LINKS, director=director)
    return [(p, score_links.make_token(match, p)) for p in (match.player1, match.player2)]
