"""Models every app shares: long jobs, idempotent requests, the event outbox.

They were created by ``games`` and moved here without touching the database: each
keeps its table (``games_job``, ``games_idempotentrequest``, ``games_domainevent``),
see ``core/migrations/0001_shared_models_from_games.py``.
"""

from .idempotency import IdempotentRequest
from .jobs import Job, JobStatus
from .outbox import DomainEvent

__all__ = ["DomainEvent", "IdempotentRequest", "Job", "JobStatus"]
