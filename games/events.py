"""The kinds of outbox events the match services emit (see :mod:`core.events`).

``games.services.matches`` emits them; handlers registered with
``core.events.on_event`` (the rating jobs, the dispute notices) act on them after commit.
"""

MATCH_FINISHED = "match.finished"
MATCH_RESULT_CHANGED = "match.result_changed"
MATCH_DISPUTED = "match.disputed"
