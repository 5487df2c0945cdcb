"""The kinds of the tournaments' long jobs (``core.jobs``), named in one place.

The services that start a job, the selectors that look for a running one and the
handlers in :mod:`tournaments.jobs` all name the kind; keeping the names here (and
not beside the handlers, which import the services) lets each import the name
without importing the others: no cycle between a service and the job it starts.
"""

PAIR_ROUND = "tournaments.pair_round"
REDRAW = "tournaments.redraw"
DROP_MAP = "tournaments.drop_map"
ODDS = "tournaments.odds"
NOTIFY_CALL = "tournaments.notify_call"  # started by tournaments.services.calls
