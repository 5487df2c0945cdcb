"""Models of the games app, one module per subject."""

from .clocks import ClockTurn, MatchClock
from .clubs import Club, Membership, Player, RatingBoost
from .matches import (
    Confirmation,
    Dispute,
    Game,
    GameLevel,
    Match,
    MatchSource,
    MatchStatus,
)
from .ratings import Rating, RatingChange, RatingList, RatingListKind

__all__ = [
    "ClockTurn",
    "Club",
    "Confirmation",
    "Dispute",
    "Game",
    "GameLevel",
    "Match",
    "MatchClock",
    "MatchSource",
    "MatchStatus",
    "Membership",
    "Player",
    "Rating",
    "RatingBoost",
    "RatingChange",
    "RatingList",
    "RatingListKind",
]
