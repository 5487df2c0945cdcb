"""The kinds of outbox events ``tournaments`` emits (see :mod:`core.events`).

:data:`SETTLE`: a result whose event's follow-up turn was taken when it committed
(another result's follow-up running) leaves its turn to the worker
(``tournaments.services.results.settle_event``), so that the player's request answers
without queueing behind the others' turns.
"""

SETTLE = "tournament.settle"
