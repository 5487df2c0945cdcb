"""Which of an event's matches each body takes, and why the others are left out.

- **UKBGF** rates completed rated matches only: a walkover or forfeit (the match was
  not played out), an unfinished or voided match, and a friendly (unrated) match are
  left out; so is an unlimited session (no length to rate).
- **BMAB** assesses transcribed matches of live play: every completed match with a
  transcript (``.mat``) goes in the bundle, and the manifest says whether it was
  played on a clock (BMAB's assessments want clocked play).
- **WBIF**: the same, and only matches of 7 points or more.

Each rule answers a reason code (None: the match is in), so the pages and the API say
why a match is missing, never just drop it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

WBIF_MIN_LENGTH = 7

FINISHED = "finished"

# reasons a match is left out
NOT_FINISHED = "not_finished"
FORFEIT = "forfeit"
UNRATED = "unrated"
UNLIMITED = "unlimited"
NO_TRANSCRIPT = "no_transcript"
TOO_SHORT = "too_short"


@dataclass(frozen=True)
class Clock:
    """A match's clock as it stood at the end: preset, reserve given, reserve left each."""

    preset: str
    reserve_ms: int
    left1_ms: int
    left2_ms: int
    delay_ms: int


@dataclass(frozen=True)
class MatchFacts:
    """One match of the event as the rules read it (plain values)."""

    match_id: int
    round_label: str
    played_on: date | None
    player1: str
    player2: str
    length: int
    score1: int
    score2: int
    winner: str | None
    status: str
    rated: bool
    forfeit: bool
    transcript: bool
    clock: Clock | None = None


def _unplayed(match: MatchFacts) -> str | None:
    if match.forfeit or match.status == "forfeit":
        return FORFEIT
    if match.status != FINISHED or match.winner is None:
        return NOT_FINISHED
    return None


def ukbgf_exclusion(match: MatchFacts) -> str | None:
    """Why the UKBGF would not rate ``match`` (None: it is a completed rated match)."""
    reason = _unplayed(match)
    if reason is not None:
        return reason
    if not match.rated:
        return UNRATED
    if match.length < 1:
        return UNLIMITED
    return None


def bundle_exclusion(match: MatchFacts, body: str) -> str | None:
    """Why ``match`` is not in ``body``'s (``bmab`` or ``wbif``) bundle (None: it is)."""
    reason = _unplayed(match)
    if reason is not None:
        return reason
    if body == "wbif" and match.length < WBIF_MIN_LENGTH:
        return TOO_SHORT
    if not match.transcript:
        return NO_TRANSCRIPT
    return None


def clock_face(ms: int) -> str:
    """Milliseconds as a clock shows them: h:mm:ss or m:ss, seconds rounded up."""
    seconds = -(-ms // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
