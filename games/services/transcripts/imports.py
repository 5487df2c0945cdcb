"""Importing ``.mat`` match transcripts into a club's matches: checked, matched to the
club's players, scored by the match rules and written whole, one transaction per file.

The decisions (refusals, leniency, duplicates, money sessions, resigned matches) are
those of :mod:`games.services.transcripts`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.actors import Actor
from core.errors import N_
from games.models import Club, Game, Match, MatchSource, MatchStatus, Player
from games.rules.errors import RuleViolation
from games.rules.matfile import (
    BEAVER,
    DOUBLE,
    DROP,
    RACCOON,
    RESIGN,
    ROLL,
    TAKE,
    Action,
    ParsedGame,
)
from games.rules.money import MoneyRules
from games.rules.notation import format_move
from games.rules.replay import GameSummary, ReplayIssue, ReplayResult
from games.rules.scoring import GameRecord, MatchRules, MatchState, replay_match
from games.rules.types import LEVEL_MULTIPLIER, Ending, Level

from ..clubs import add_membership, create_player
from ..match_records import INDEX_TO_CUBE_OWNER
from ..match_writes import UNPLAYED, announce
from .access import require_director
from .text import check_transcript, transcript_hash

IMPORTED = "imported"
DUPLICATE = "duplicate"
REFUSED = "refused"
CHECKED = "checked"

_UNNAMED = ("Unnamed player (left)", "Unnamed player (right)")


@dataclass
class ImportOutcome:
    """What happened to one file: its replay report, and the match it became (if any)."""

    file: str
    status: str
    replay: ReplayResult
    match_id: int | None = None
    extra_errors: list[dict[str, Any]] = field(default_factory=list)
    scored: MatchState | None = None  # the games as match scoring counts them
    pairs: list[tuple[GameSummary, GameRecord]] = field(default_factory=list, repr=False)

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [e.as_dict() for e in self.replay.errors] + self.extra_errors

    def report(self) -> dict[str, Any]:
        """The replay report in the ``import_mat --json`` shape (errors include refusals)."""
        data = self.replay.to_dict()
        data["file"] = self.file
        data["errors"] = self.errors
        state = self.scored
        if state is not None:
            # what is (or would be) stored: a money file is a session (length 0) whose
            # games count as the money rules say (a Jacoby gammon scores single)
            data["length"] = state.rules.length
            for game, outcome in zip(data["games"], state.games, strict=False):
                game["points"] = outcome.points
            data["final_score"] = list(state.score)
            data["winner"] = None if (w := _leader(state)) is None else w + 1
        return data

    def as_dict(self) -> dict[str, Any]:
        """The report plus the outcome, as the API and the import job give it."""
        return {
            **self.report(),
            "status": self.status,
            "match": self.match_id,
            "warnings": [w.as_dict() for w in self.replay.warnings],
        }


# --- from a replay to game records ------------------------------------------------------------


def _session_money_rules(result: ReplayResult) -> MoneyRules:
    """The money rules a session was played under, read from the file.

    ``[Jacoby "On"/"Off"]`` decides when present; otherwise the Jacoby rule is taken to
    apply when the file counts a cube-1 gammon single (the replay's ``jacoby``
    warning), as Galaxy coin games do.
    """
    match = result.match
    tag = (match.metadata.get("Jacoby", "") if match else "").strip().lower()
    if tag in ("on", "off"):
        jacoby = tag == "on"
    else:
        jacoby = any(w.code == "jacoby" for w in result.warnings)
    return MoneyRules(jacoby=jacoby, beavers=True, raccoons=True)


def _records(result: ReplayResult, lenient: bool) -> list[tuple[GameSummary, GameRecord]]:
    """Every replayed game as a scoring record; a game without a result cannot be kept."""
    games = list(result.games)
    if lenient and games and games[-1].winner is None:
        games = games[:-1]  # an unfinished last game: keep what was decided
    out = []
    for summary in games:
        if summary.winner is None or summary.level is None or summary.ending is None:
            raise RuleViolation(
                "game_without_result",
                N_(
                    "Game %(number)s has no result, so the match cannot be stored.",
                    number=summary.number,
                ),
                field="file",
            )
        out.append(
            (
                summary,
                GameRecord(
                    winner=summary.winner,
                    cube=summary.cube,
                    cube_owner=summary.cube_owner,
                    ending=Ending(summary.ending),
                    level=Level(summary.level),
                ),
            )
        )
    return out


def _score(
    result: ReplayResult, lenient: bool
) -> tuple[MatchState, list[tuple[GameSummary, GameRecord]]]:
    """Run the games through match scoring; raises the rule that refuses a record."""
    match = result.match
    assert match is not None
    pairs = _records(result, lenient)
    if result.is_money or result.length == 0:
        rules = MatchRules(length=0, crawford=False, money=_session_money_rules(result))
    else:
        rules = MatchRules(
            length=result.length, crawford=match.crawford_rule, variant=result.variant
        )
    state = replay_match(rules, [record for _, record in pairs])
    return state, pairs


def _leader(state: MatchState) -> int | None:
    """The match winner, or in a session the player ahead (None when level)."""
    if not state.rules.is_unlimited_session:
        return state.winner
    first, second = state.score
    return None if first == second else int(second > first)


def _moves(game: ParsedGame, summary: GameSummary) -> list[dict[str, Any]]:
    """The game's actions for the score sheet, ending with its result as played."""

    def entry(action: Action) -> dict[str, Any]:
        item: dict[str, Any] = {"player": action.player + 1, "action": action.kind}
        if action.kind in (ROLL, RESIGN) and action.dice is not None:
            item["dice"] = f"{action.dice[0]}{action.dice[1]}"
        if action.kind == ROLL and action.move is not None:
            item["move"] = format_move(action.move.segments, action.move.hits)
        if action.kind in (DOUBLE, BEAVER, RACCOON) and action.value is not None:
            item["value"] = action.value
        return item

    kinds = {ROLL, RESIGN, DOUBLE, TAKE, DROP, BEAVER, RACCOON}
    moves = [entry(a) for a in game.actions if a.kind in kinds]
    moves.append(
        {
            "player": (summary.winner or 0) + 1,
            "action": "wins",
            "level": str(summary.level),
            "ending": str(summary.ending),
            "declared_points": game.declared_points,
        }
    )
    return moves


# --- players, labels ---------------------------------------------------------------------------


def _player(club: Club, name: str) -> Player:
    """The club member with this display name (case-insensitive), or a new one.

    Compared in Python (``str.casefold``), never by the database's case folding:
    PostgreSQL's ``UPPER`` folds a dotless ı to I, so ``Vıctor`` in a transcript would
    have been filed under the member Victor (issue #37: look-alikes never match).
    """
    wanted = name.casefold()
    members = Player.objects.filter(memberships__club=club).order_by("pk")
    for member in members:
        if member.display_name.casefold() == wanted:
            return member
    return create_player(display_name=name, clubs=[club])


def _played_on(metadata: dict[str, str]) -> date | None:
    m = re.match(r"^\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})", metadata.get("EventDate", ""))
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _label(result: ReplayResult, name: str, money: bool) -> str:
    match = result.match
    meta = match.metadata if match else {}
    parts = [meta.get("Site", ""), meta.get("Event", ""), meta.get("Round", "")]
    if meta.get("Match ID"):
        parts.append(f"match {meta['Match ID']}")
    label = " ".join(p.strip() for p in parts if p and p.strip()) or name.rsplit("/", 1)[-1]
    if money and result.length:
        label += f" (money, table limit {result.length})"
    return label[:120]


# --- the use cases -----------------------------------------------------------------------------


def _existing(club: Club, digest: str) -> Match | None:
    return Match.objects.filter(club=club, transcript_hash=digest).order_by("pk").first()


@transaction.atomic
def import_transcript(
    *,
    actor: Actor | None,
    club: Club,
    text: str,
    name: str,
    money: bool | None = None,
    lenient: bool = False,
    check: bool = False,
) -> ImportOutcome:
    """Check one transcript and, unless ``check``, import it as a finished match.

    ``actor`` None means the site operator (the management command); otherwise only the
    club's directors and site admins may import. Returns the outcome; never raises for
    a refused file (its errors are in the outcome), only for permissions.
    """
    require_director(actor, club)
    result = check_transcript(text=text, name=name, money=money)
    digest = transcript_hash(text)
    outcome = _checked(name, result, lenient)
    if check:
        existing = _existing(club, digest)
        outcome.match_id = existing.pk if existing else None
        return outcome
    # one import of a file per club at a time: the club row is the lock
    Club.objects.select_for_update().filter(pk=club.pk).first()
    existing = _existing(club, digest)
    if existing is not None:
        outcome.status, outcome.match_id = DUPLICATE, existing.pk
        return outcome
    if was_refused(outcome, lenient=lenient) or outcome.scored is None:
        outcome.status = REFUSED
        return outcome
    try:
        with transaction.atomic():
            match = _write(actor, club, text, digest, name, result, outcome.scored, outcome.pairs)
    except RuleViolation as exc:
        outcome.status = REFUSED
        outcome.extra_errors.append(_refusal(name, exc))
        return outcome
    outcome.status, outcome.match_id = IMPORTED, match.pk
    return outcome


def _checked(name: str, result: ReplayResult, lenient: bool) -> ImportOutcome:
    """A dry run: the replay, plus what match scoring would refuse (nothing written)."""
    outcome = ImportOutcome(name, CHECKED, result)
    if result.match is not None and (result.ok or lenient):
        try:
            outcome.scored, outcome.pairs = _score(result, lenient)
        except RuleViolation as exc:
            outcome.extra_errors.append(_refusal(name, exc))
    return outcome


def _refusal(name: str, exc: RuleViolation) -> dict[str, Any]:
    return ReplayIssue(name, None, None, exc.code, exc.message).as_dict()


def _write(
    actor: Actor | None,
    club: Club,
    text: str,
    digest: str,
    name: str,
    result: ReplayResult,
    state: MatchState,
    pairs: list[tuple[GameSummary, GameRecord]],
) -> Match:
    """Create the match and its games, already validated by match scoring."""
    rules = state.rules
    parsed = result.match
    assert parsed is not None
    money = rules.is_unlimited_session
    names = [
        (n.strip() or _UNNAMED[i]) for i, n in enumerate(result.players)
    ]  # deleted Galaxy accounts have empty names
    if names[0].lower() == names[1].lower():
        raise RuleViolation(
            "same_player_twice",
            N_("Both sides are named %(value)r.", value=names[0]),
            field="players",
        )
    players = [_player(club, n) for n in names]
    for player in players:
        add_membership(club=club, player=player)
    leader = _leader(state)
    finished = money or state.finished
    rated = not money and parsed.metadata.get("Unrated", "Off").strip().lower() != "on"
    match = Match.objects.create(
        club=club,
        player1=players[0],
        player2=players[1],
        length=rules.length,
        crawford=rules.crawford,
        variant=result.variant,
        rated=rated,
        status=MatchStatus.FINISHED if finished else MatchStatus.IN_PROGRESS,
        source=MatchSource.IMPORTED,
        score1=state.score[0],
        score2=state.score[1],
        winner=players[leader] if leader is not None else None,
        label=_label(result, name, money),
        played_on=_played_on(parsed.metadata),
        created_by=actor.user if actor is not None else None,
        finished_at=timezone.now() if finished else None,
        transcript=text.removeprefix("\ufeff"),
        transcript_hash=digest,
    )
    games_by_number = {g.number: g for g in parsed.games}
    rows = []
    for (summary, record), outcome in zip(pairs, state.games, strict=True):
        # a gammon the Jacoby rule counted single is stored single, as scored; the
        # level it was played to stays in the moves' final entry
        level = record.level
        if outcome.points != record.cube * LEVEL_MULTIPLIER[level] and (
            record.ending != Ending.DROPPED
        ):
            level = Level.SINGLE
        parsed_game = games_by_number.get(summary.number)
        rows.append(
            Game(
                match=match,
                number=outcome.number,
                winner=players[record.winner],
                cube=record.cube,
                cube_owner=INDEX_TO_CUBE_OWNER[record.cube_owner],
                ending=record.ending,
                level=level,
                points=outcome.points,
                score1_before=outcome.score_before[0],
                score2_before=outcome.score_before[1],
                crawford=outcome.crawford,
                post_crawford=outcome.post_crawford,
                entered_by_user=actor.user if actor is not None else None,
                confirmed=True,
                moves=_moves(parsed_game, summary) if parsed_game else [],
            )
        )
    for row in rows:  # save() keeps the audit history (bulk_create would not)
        row.save()
    announce(match, UNPLAYED)  # a new match: whatever result it has is new
    return match


def import_transcripts(
    *,
    actor: Actor | None,
    club: Club | None,
    files: Iterable[tuple[str, str]],
    money: bool | None = None,
    lenient: bool = False,
    check: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[ImportOutcome]:
    """Import (or check) several files, one transaction each; ``progress`` per file.

    ``club`` may be None only for a check. ``files`` are ``(name, text)`` pairs.
    """
    files = list(files)
    if club is None and not check:
        raise RuleViolation("club_required", N_("Say which club imports the matches."), "club")
    outcomes = []
    for index, (name, text) in enumerate(files):
        if club is None:
            result = check_transcript(text=text, name=name, money=money)
            outcome = _checked(name, result, lenient)
        else:
            outcome = import_transcript(
                actor=actor,
                club=club,
                text=text,
                name=name,
                money=money,
                lenient=lenient,
                check=check,
            )
        outcomes.append(outcome)
        if progress is not None:
            progress(index + 1, len(files), f"{outcome.status}: {name}")
    return outcomes


def was_refused(outcome: ImportOutcome, *, lenient: bool) -> bool:
    """Whether a file was (or, for a check, would be) refused."""
    if outcome.status == REFUSED:
        return True
    if outcome.status == CHECKED:
        return bool(outcome.extra_errors) or (bool(outcome.replay.errors) and not lenient)
    return False
