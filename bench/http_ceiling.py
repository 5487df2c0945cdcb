"""``http-ceiling``: the framework's ceiling here, a trivial API read under gunicorn.

gunicorn with 2 sync workers on PostgreSQL serves ``GET /api/v1/clubs/{slug}/`` to
8 keep-alive clients in a separate process. Other scenarios report their
throughput as a ratio to this figure, measured in the same run.
"""

from __future__ import annotations

from .loadgen import PreparedRequest, run_load
from .server import gunicorn, setup_django


def ceiling_plans() -> list[list[PreparedRequest]]:
    """The ceiling's load: 8 clients reading one club (created if missing)."""
    from django.contrib.auth import get_user_model

    from games.models import Club
    from games.services.clubs import create_club

    if not Club.objects.filter(slug="bench").exists():
        user, _ = get_user_model().objects.get_or_create(username="bench")
        create_club(created_by=user, name="Bench Club", slug="bench")
    request = PreparedRequest("GET", "/api/v1/clubs/bench/", headers={"Accept": "application/json"})
    return [[request] * 1_000_000 for _ in range(8)]


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    seconds = 3 if quick else 15
    plans = ceiling_plans()
    with gunicorn(workers=2) as (host, port):
        return run_load(host, port, plans, seconds)
