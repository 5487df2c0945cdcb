"""Every hook the apps plug into the core, snapshotted: a new one is a reviewed change.

The registries of ``core`` (and the clock policies of ``games``) are filled at start-up
by each app's ``wiring.py``. This test lists what they hold, one line per registration,
and compares it with the checked-in list ``tests/core/wiring.txt``: adding, removing or
re-ordering a listener, event handler, job, panel, live channel, club page, scope,
seeder, clock policy, option guard or task changes that file in the same commit, where a reviewer
sees it. After a deliberate change, rewrite the list with
``BOXCARS_UPDATE_WIRING=1 .venv/bin/python -m pytest tests/core/test_wiring.py``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core import club_zones, demo, events, idempotency, jobs, listeners, live, panels, queues
from core.api_jobs import job_shapes
from core.job_kinds import JobKind
from games import clock_policies
from tournaments import options as tournament_options

SNAPSHOT = Path(__file__).with_name("wiring.txt")
PROJECT = ("core.", "games.", "tournaments.", "chouette.", "analysis.", "money.", "clubdata.")


def name(fn: Callable[..., Any]) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def ours(registry: dict[str, Any]) -> dict[str, Any]:
    """The entries whose function is the project's (tests register their own too)."""
    return {key: fn for key, fn in registry.items() if name(fn).startswith(PROJECT)}


def registrations() -> list[str]:
    """Every registration of the apps, by registry; in registration order where order
    matters (the listeners, the handlers of one event, the seeders, the panels of a slot)."""
    from config.celery import app

    found = dict(listeners.result_listeners())
    lines = [f"listener {key} {name(fn)}" for key, fn in ours(found).items()]
    for kind in sorted(events._handlers):
        handlers = {str(i): fn for i, fn in enumerate(events.handlers_for(kind))}
        lines += [
            f"event {kind} {name(fn)}"
            + (f" wants {name(events._wants[kind, fn])}" if (kind, fn) in events._wants else "")
            for fn in ours(handlers).values()
        ]
    lines += [f"job {kind} {name(fn)}" for kind, fn in sorted(ours(jobs._handlers).items())]
    lines += [f"queue job {kind} {queue}" for kind, queue in sorted(queues.job_queues().items())]
    lines += [f"queue event {k} {queue}" for k, queue in sorted(queues.event_queues().items())]
    lines += [f"queue task {n} {queue}" for n, queue in sorted(queues.task_queues().items())]
    for slot in sorted(panels._slots):
        lines += [
            f"panel {slot} {p.name} {p.template} {name(p.provider)}"
            for p in panels.panels_of(slot)
            if name(p.provider).startswith(PROJECT)
        ]
    kinds = {k: c.can_follow for k, c in live._kinds.items()}
    lines += [f"live.kind {k} {name(fn)}" for k, fn in sorted(ours(kinds).items())]
    for model in sorted(live._row_channels):
        rows = sorted(ours(live._row_channels[model]).items())
        lines += [f"live.rows {model} {key} {name(fn)}" for key, fn in rows]
    lines += [f"live.members {k} {name(fn)}" for k, fn in sorted(ours(live._members).items())]
    lines += [f"live.owners {k} {name(fn)}" for k, fn in sorted(ours(live._owners).items())]
    zones = sorted(ours(club_zones._ZONE_OF).items())
    lines += [f"club_zone {view} {name(fn)}" for view, fn in zones]
    lines += [f"scope {key} {name(fn)}" for key, fn in sorted(ours(idempotency._scopes).items())]
    lines += [
        f"demo {key} {path}" for key, path in demo._seeders.items() if path.startswith(PROJECT)
    ]
    policies = sorted(ours(clock_policies._providers).items())
    lines += [f"clock_policy {key} {name(fn)}" for key, fn in policies]
    for option in sorted(tournament_options._GUARDS):
        guards = sorted(ours(tournament_options._GUARDS[option]).items())
        lines += [f"option_guard {option} {key} {name(fn)}" for key, fn in guards]
    lines += [f"task {task}" for task in sorted(app.tasks) if task.startswith(PROJECT)]
    return lines


def test_the_registrations_are_the_reviewed_list():
    found = "\n".join(registrations()) + "\n"
    if os.environ.get("BOXCARS_UPDATE_WIRING"):
        SNAPSHOT.write_text(found)
    assert found == SNAPSHOT.read_text(), (
        "The hooks changed: review the difference, then rewrite tests/core/wiring.txt "
        "with BOXCARS_UPDATE_WIRING=1 (see this module's docstring)."
    )


def test_every_job_kind_has_its_queue_and_its_shape():
    """A job kind registered without its declaration (``core.job_kinds.JobKind``) would
    run with the notifications and be missing from the schema's ``Job``."""
    kinds = set(ours(jobs._handlers))
    assert kinds <= set(queues.job_queues())
    assert kinds <= set(job_shapes())
    assert set(queues.job_queues()) == set(job_shapes())


def test_every_outbox_event_kind_heard_has_its_queue():
    heard = {
        kind
        for kind in events._handlers
        if ours({str(i): fn for i, fn in enumerate(events.handlers_for(kind))})
    }  # the apps' kinds (tests hear their own too)
    assert heard and heard <= set(queues.event_queues())


def test_core_names_no_apps_kind():
    """The queues of the apps' kinds are the apps' (their wiring.py): core names none."""
    source = Path(queues.__file__).read_text()
    for app in ("games", "tournaments", "chouette", "analysis", "money", "clubdata"):
        assert f'"{app}.' not in source, app
    for kind in (*queues.job_queues(), *queues.event_queues(), *queues.task_queues()):
        assert f'"{kind}"' not in source, kind


def test_a_job_kind_lacking_a_part_is_refused():
    with pytest.raises(ValueError, match="queue"):
        JobKind("games.x", "fast", lambda job, progress: {}, "X", None, object)
    with pytest.raises(ValueError, match="shape"):
        JobKind("games.x", queues.BULK, lambda job, progress: {}, "", None, object)
    with pytest.raises(ValueError, match="queue"):
        queues.route_event("games.x", "fast")
