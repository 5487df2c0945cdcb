"""Importing ``.mat`` match transcripts into a club's matches.

A transcript is read and replayed by the pure rules (``games.rules.matfile`` and
``games.rules.replay``: every move, cube action, Crawford game and score line), then
its games go through the same match scoring as games entered by hand
(``games.rules.scoring``), so an imported match can never hold a record the score
entry would refuse. One transaction per file: a file is imported whole or not at all.

* A file with any replay error (an illegal move, a score line that the games do not
  reproduce, a wrong ``Wins``...) is **refused** with every error it contains, unless
  ``lenient``: then the games are kept as the rules score them and the errors are
  reported with the import (in the command's output and the import job's result; the
  match itself has no field for them). Scoring refusals (a double in the Crawford game,
  a game after the match ended) refuse the file even when lenient, because such a
  match could not be stored.
* The same file imported twice into a club creates nothing new: ``Match.transcript_hash``
  is the SHA-256 of the normalised text (BOM, line endings and trailing blanks removed)
  and the club's row is locked while a file is checked and written, so two concurrent
  uploads of one file give one match.
* Money transcripts (a ``0 point match``, or a Galaxy coin game, which the site exports
  as an "N point match" of one game with a table limit N) become unlimited sessions:
  length 0, unrated, scored with money rules (the Jacoby rule when the file shows it).
* Players are found by display name (case-insensitive) among the club's members, or
  created in the club.
* A resigned match (BackgammonGalaxy's last ``Wins n point and the match`` with n above
  any game value) is stored as a finished, rated match whose last game has the ending
  ``match_resigned``: the game is worth exactly the points the winner needed, so the stored
  final score is N to the loser's score (e.g. 5-2), whatever n the file wrote (Galaxy
  caps that n inconsistently). The n the file wrote stays in the game's last move entry
  (``declared_points``) and in the stored transcript, which is what the match's
  transcript download returns, so the file round-trips unchanged.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone

from core import access
from core.actors import Actor
from core.errors import N_
from core.events import emit
from games import events
from games.models import Club, Game, Match, MatchSource, MatchStatus, Player
from games.rules import variants
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
from games.rules.replay import GameSummary, ReplayIssue, ReplayResult, check_text
from games.rules.scoring import GameRecord, MatchRules, MatchState, replay_match
from games.rules.types import LEVEL_MULTIPLIER, Ending, Level
from games.rules.variants.transcripts import variation_name_of, with_variation

from .clubs import add_membership, create_player
from .match_records import INDEX_TO_CUBE_OWNER
from .match_writes import UNPLAYED, announce

IMPORTED = "imported"
DUPLICATE = "duplicate"
REFUSED = "refused"
CHECKED = "checked"

_UNNAMED = ("Unnamed player (left)", "Unnamed player (right)")


def normalise_transcript(text: str) -> str:
    """The text that is hashed: no BOM, ``\\n`` line ends, no trailing blanks or lines."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip("\n") + "\n"


def transcript_hash(text: str) -> str:
    """SHA-256 (hex) of the normalised transcript: how a second import is recognised."""
    return hashlib.sha256(normalise_transcript(text).encode("utf-8")).hexdigest()


def decode_transcript(data: bytes) -> str:
    """Uploaded bytes as text: UTF-8 (with or without BOM), else Latin-1 (old Jellyfish)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


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
    """The club member with this display name (case-insensitive), or a new one."""
    found = (
        Player.objects.filter(memberships__club=club, display_name__iexact=name)
        .order_by("pk")
        .first()
    )
    if found is not None:
        return found
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


def check_transcript(*, text: str, name: str, money: bool | None = None) -> ReplayResult:
    """Parse and replay a transcript without writing anything."""
    return check_text(text, name, money=money)


def _require_director(actor: Actor | None, club: Club) -> None:
    if actor is None:  # the management command: whoever runs it operates the site
        return
    access.require_director(actor, club, detail="Only the club's directors import transcripts.")


def require_may_attach(*, actor: Actor | None, match: Match) -> None:
    """Refuse a stranger before the upload is read: 403 comes before a 400 on the body."""
    _require_director(actor, match.club)


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
    _require_director(actor, club)
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


# --- export ------------------------------------------------------------------------------------


def _cube_actions(game: Game, side_of_winner: int) -> list[Action]:
    """Doubles and takes that leave the cube where the game row says, then the drop.

    Takers alternate and the last one owns the cube, so the history is determined by
    the cube value and its owner; a dropped game ends with the winner's refused double.
    """
    owner = {"player1": 0, "player2": 1}.get(game.cube_owner, side_of_winner)
    takes = game.cube.bit_length() - 1
    actions: list[Action] = []
    value = 1
    for index in range(takes):
        taker = owner if (takes - index) % 2 == 1 else 1 - owner
        value *= 2
        actions.append(Action(DOUBLE, 1 - taker, 0, value=value))
        actions.append(Action(TAKE, taker, 0))
    if game.ending == Ending.DROPPED:
        actions.append(Action(DOUBLE, side_of_winner, 0, value=value * 2))
        actions.append(Action(DROP, 1 - side_of_winner, 0))
    return actions


def score_sheet_transcript(match: Match) -> str | None:
    """A ``.mat`` transcript of a match entered game by game: its score lines, cube
    actions and results, without moves (never entered). ``None`` when there is nothing
    to export: no games, or a final score recorded without them."""
    from games.rules.matexport import export_mat
    from games.rules.matfile import ParsedMatch

    rows = list(match.games.order_by("number"))
    if not rows or match.final_score_only:
        return None
    names = (match.player1.display_name, match.player2.display_name)
    games = []
    for row in rows:
        winner = 0 if row.winner_id == match.player1_id else 1
        games.append(
            ParsedGame(
                number=row.number,
                score_before=(row.score1_before, row.score2_before),
                line=0,
                actions=_cube_actions(row, winner)
                if row.cube > 1 or row.ending == "dropped"
                else [],
                declared_winner=winner,
                declared_points=row.points,
                declared_match=row.ending == Ending.MATCH_RESIGNED,
                names=names,
            )
        )
    metadata = {"Transcriber": "Boxcars score sheet (no moves)"}
    if match.variant != variants.DEFAULT:
        metadata["Variation"] = variation_name_of(match.variant)
    if match.played_on:
        metadata["EventDate"] = match.played_on.strftime("%Y.%m.%d")
    return export_mat(ParsedMatch(match.length, names, metadata, games))


# --- attaching a transcript to an entered match ---------------------------------------------


def _disagreements(match: Match, result: ReplayResult) -> list[dict[str, Any]]:
    """What a transcript says that the recorded match does not (empty: they agree)."""
    problems: list[dict[str, Any]] = []

    def say(code: str, detail: str, field_name: str) -> None:
        problems.append({"code": code, "detail": detail, "field": field_name})

    if result.variant != match.variant:
        kinds = dict(variants.MATCH_CHOICES)
        say(
            "variant_disagrees",
            f"The transcript is {kinds.get(result.variant, result.variant)}; the match is "
            f"{kinds.get(match.variant, match.variant)}.",
            "variant",
        )
    names = (match.player1.display_name.strip().lower(), match.player2.display_name.strip().lower())
    written = tuple(n.strip().lower() for n in result.players)
    if written != names:
        say(
            "players_disagree",
            f"The transcript's players are {result.players[0]!r} and {result.players[1]!r}; "
            f"the match is {match.player1.display_name!r} v {match.player2.display_name!r} "
            "(in that order).",
            "players",
        )
    if result.length != match.length:
        say(
            "length_disagrees",
            f"The transcript is a {result.length}-point match; the match is {match.length}.",
            "length",
        )
    recorded = list(match.games.order_by("number"))
    if len(recorded) != len(result.games):
        say(
            "games_disagree",
            f"The transcript has {len(result.games)} games; {len(recorded)} are recorded.",
            "games",
        )
    for row, game in zip(recorded, result.games, strict=False):
        winner = 0 if row.winner_id == match.player1_id else 1
        if game.winner != winner or game.points != row.points:
            said = "nobody" if game.winner is None else names[game.winner]
            say(
                "game_disagrees",
                f"Game {row.number}: the transcript has {said} winning {game.points}; "
                f"recorded: {names[winner]} won {row.points}.",
                "games",
            )
    return problems


@transaction.atomic
def attach_transcript(*, actor: Actor | None, match: Match, text: str, name: str) -> Match:
    """Attach a ``.mat`` transcript to a match entered game by game.

    The transcript must replay without errors and agree with what was recorded: the
    variant, the players (in order), the length and every game's winner and points.
    Otherwise nothing is written and the refusal lists every disagreement. A transcript
    without a ``Variation`` tag is read as the match's variant (a hypergammon match's
    moves checked as hypergammon) and stored with the tag, so its export names it.
    Writes the transcript and an outbox event (``match.transcript_attached``) on which
    the analysis starts.
    """
    locked = Match.objects.select_for_update().select_related("player1", "player2").get(pk=match.pk)
    _require_director(actor, locked.club)
    text = with_variation(normalise_transcript(text), locked.variant)
    result = check_transcript(text=text, name=name)
    if not result.ok:
        first = result.errors[0]
        raise RuleViolation(
            "transcript_invalid",
            N_(
                "The transcript does not replay: %(message)s (game %(game)s, %(count)s error(s)).",
                message=first.message,
                game=first.game,
                count=len(result.errors),
            ),
            "transcript",
        )
    problems = _disagreements(locked, result)
    if problems:
        raise TranscriptDisagrees(problems)
    locked.transcript = text
    locked.transcript_hash = transcript_hash(text)
    locked.version += 1
    locked.save(update_fields=["transcript", "transcript_hash", "version"])
    emit(events.MATCH_TRANSCRIPT_ATTACHED, match_id=locked.pk, club_id=locked.club_id)
    return locked


class TranscriptDisagrees(RuleViolation):
    """A transcript that contradicts the recorded match; ``problems`` lists each point."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__(
            problems[0]["code"],
            "The transcript disagrees with the recorded match: "
            + " ".join(p["detail"] for p in problems),
            problems[0]["field"],
        )
        self.problems = problems
