"""``/healthz``: is the database, the cache and the Celery broker reachable?"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _check_cache() -> str:
    key = "healthz:probe"
    cache.set(key, "1", 10)
    return "ok" if cache.get(key) == "1" else "cache did not return what was set"


def _check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "ok (eager: tasks run in the web process)"
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=2).ping()
    return "ok"


def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every part answers, 503 naming the part that does not."""
    started = time.monotonic()
    checks: dict[str, str] = {}
    healthy = True
    for name, check in (
        ("database", _check_database),
        ("cache", _check_cache),
        ("broker", _check_broker),
    ):
        try:
            checks[name] = check()
        except Exception as exc:  # any failure of a dependency is reported, not raised
            checks[name] = f"error: {exc.__class__.__name__}: {exc}"
            healthy = False
    body = {
        "status": "ok" if healthy else "unavailable",
        "checks": checks,
        "seconds": round(time.monotonic() - started, 4),
    }
    return JsonResponse(body, status=200 if healthy else 503)
