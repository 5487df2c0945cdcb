"""``manage.py live_relay``: copy the live notices from Redis to Pushpin (docs/live.md).

One process per site, beside Pushpin (``make serve`` and docker compose run it). It
holds no browser: Pushpin holds the streams, this only publishes.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from core import live_grip


class Command(BaseCommand):
    help = "Relay the live notices published on Redis to Pushpin."

    def handle(self, *args: Any, **options: Any) -> None:
        live_grip.run_relay()
