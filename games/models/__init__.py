"""Models of the games app, one module per subject."""

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
    "Club",
    "Confirmation",
    "Dispute",
    "Game",
    "GameLevel",
    "Match",
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
