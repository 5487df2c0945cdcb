"""The kinds of outbox events the match services emit (see :mod:`core.events`).

``games.services.match_writes`` (a result announced) and ``match_disputes`` emit them;
handlers registered with ``core.events.on_event`` (the rating jobs, the dispute notices)
act on them after commit.
"""

MATCH_FINISHED = "match.finished"
MATCH_RESULT_CHANGED = "match.result_changed"
MATCH_DISPUTED = "match.disputed"
MATCH_TRANSCRIPT_ATTACHED = "match.transcript_attached"
