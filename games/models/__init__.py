"""Models of the games app, one module per subject."""

from .addresses import (
    AccountAddress,
    ClubInvitation,
    ConfirmedAddress,
    InvitationRole,
    InvitationStatus,
)
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
    "AccountAddress",
    "ClockTurn",
    "Club",
    "ClubInvitation",
    "Confirmation",
    "ConfirmedAddress",
    "Dispute",
    "Game",
    "GameLevel",
    "InvitationRole",
    "InvitationStatus",
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
