"""Models of the games app, one module per subject."""

from .clubs import Club, Membership, Player

__all__ = ["Club", "Membership", "Player"]
