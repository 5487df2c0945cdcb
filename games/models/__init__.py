"""Models of the games app, one module per subject."""

from .clubs import Club, Membership, Player, RatingBoost
from .jobs import Job, JobStatus
from .matches import (
    Confirmation,
    Dispute,
    DomainEvent,
    Game,
    GameLevel,
    IdempotentRequest,
    Match,
    MatchSource,
    MatchStatus,
)
from .ratings import Rating, RatingChange, RatingList, RatingListKind

__all__ = [
    "Club",
    "Confirmation",
    "Dispute",
    "DomainEvent",
    "Game",
    "GameLevel",
    "IdempotentRequest",
    "Job",
    "JobStatus",
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
