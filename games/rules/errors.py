"""Domain errors raised by the pure rules and by the services (defined in
:mod:`core.errors`, shared by every app; re-exported here for the rules' imports)."""

from core.errors import BoxcarsError, ConflictError, NotAllowed, RuleViolation, StaleVersionError

__all__ = ["BoxcarsError", "ConflictError", "NotAllowed", "RuleViolation", "StaleVersionError"]
