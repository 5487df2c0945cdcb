"""Attaching a ``.mat`` transcript to a match entered game by game.

The transcript must replay and agree with what was recorded (players in order, length,
every game's winner and points); then it is stored and ``match.transcript_attached`` is
emitted, on which the analysis starts (see :mod:`games.services.transcripts`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from core.events import emit
from games import events
from games.models import Match
from games.rules import variants
from games.rules.errors import RuleViolation
from games.rules.replay import ReplayResult
from games.rules.variants.transcripts import with_variation

from .access import require_director
from .text import check_transcript, normalise_transcript, transcript_hash


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
    require_director(actor, locked.club)
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
