"""Everything ``tournaments`` plugs into ``core`` and ``games``, in one place
(``TournamentsConfig.ready`` calls :func:`register`).

A match's result reaches the bracket through the two result listeners, in this
order, inside the result's transaction (``core.listeners``); the long jobs pair rounds,
redraw, preview drop maps, compute odds and tell the players of a call (``core.jobs``);
the event's pages show on the games' pages through panels, follow live channels, keep
the club's time zone; a tournament match's clock follows the event's policy.
``docs/development.md`` ("The wiring") draws the paths; ``tests/core/wiring.txt`` lists
every registration.
"""

from __future__ import annotations

from core.demo import register_demo_seeder
from core.events import register_event_handler
from core.job_kinds import register_job_kinds
from core.listeners import register_result_listener
from core.queues import RESULTS, route_event
from games.clock_policies import register_clock_policy
from tournaments import club_zones, event_kinds, job_catalog, live, option_catalog, panels
from tournaments import options as tournament_options
from tournaments.clocks import tournament_clock_policy
from tournaments.federation import bodies as federation_bodies
from tournaments.federation import catalog as federation_catalog
from tournaments.services.results import follow_up_result, record_match_result, settle_deferred


def register() -> None:
    # The options of an event (the services, the API and the pages read them).
    tournament_options.register(option_catalog.GROUPS, option_catalog.OPTIONS)
    # The federation exports (their builds, checks and mails).
    federation_bodies.register(federation_catalog.BODIES)
    # Inside a result's transaction: the bracket first, then what the event shares (the
    # version, tables, round statuses, calls, odds) as the transaction's last work.
    register_result_listener("tournaments.bracket", record_match_result)
    register_result_listener("tournaments.follow_up", follow_up_result)
    # After it, in the worker: a follow-up whose turn was taken when its result committed.
    register_event_handler(event_kinds.SETTLE, settle_deferred)
    route_event(event_kinds.SETTLE, RESULTS)  # a result's follow-up turn, left to the worker
    # Long jobs: each kind's handler, queue and shapes (tournaments.job_catalog).
    register_job_kinds(job_catalog.JOB_KINDS)
    # Pages.
    panels.register()  # the club, match, home and player pages' event panels
    live.register()  # tournament: channels; an event hears its matches
    club_zones.register()  # event pages in the club's zone
    register_clock_policy("tournaments", tournament_clock_policy)
    register_demo_seeder("tournaments", "tournaments.demo.seed")
