"""Live pages: from a committed game to the ``changed`` event read by each open stream.

Not part of ``python -m bench all`` yet: it needs a server already running with
``REDIS_URL`` (the events cross Redis, as they do between gunicorn workers)::

    gunicorn config.wsgi --bind 127.0.0.1:8764 --workers 2 --worker-class gthread --threads 16
    python -m bench.live_latency --streams 12 --match 35 --tournament 2 --games 3

It opens the streams on ``tournament:<id>``, records games on the match through the
match services as the user ``director`` (this process publishes through Redis), and
prints how long each event took to arrive, counted from the start of the
``record_game`` call (the write itself included: an upper bound of the delivery;
docs/live.md, "Figures").
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import threading
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=6)
    parser.add_argument("--match", type=int, required=True)
    parser.add_argument("--tournament", type=int, required=True)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--port", type=int, default=8764)
    args = parser.parse_args()

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from games.models import Match
    from games.services.actors import actor_for_user
    from games.services.match_records import GameInput
    from games.services.score_entry import record_game

    arrivals: list[list[float]] = [[] for _ in range(args.streams)]
    ready = threading.Barrier(args.streams + 1)

    def follow(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
        conn.request("GET", f"/live/stream/?channel=tournament:{args.tournament}")
        response = conn.getresponse()
        assert response.status == 200, response.status
        for _ in range(3):  # "retry:", ": open", the blank line
            response.fp.readline()
        ready.wait()
        while len(arrivals[i]) < args.games:
            if response.fp.readline().startswith(b"event: changed"):
                arrivals[i].append(time.monotonic())

    threads = [threading.Thread(target=follow, args=(i,), daemon=True) for i in range(args.streams)]
    for t in threads:
        t.start()
    ready.wait()
    time.sleep(0.5)
    actor = actor_for_user(get_user_model().objects.get(username="director"))
    sent: list[float] = []
    for k in range(args.games):
        match = Match.objects.get(pk=args.match)
        if match.status not in ("scheduled", "in_progress"):
            break
        winner = match.player1_id if k % 2 == 0 else match.player2_id
        game = GameInput(winner_id=winner)
        sent.append(time.monotonic())  # the event may arrive before record_game returns
        record_game(actor=actor, match_id=args.match, game=game)
        time.sleep(0.3)
    for t in threads:
        t.join(5)
    latencies = [(a - s) * 1000 for got in arrivals for a, s in zip(got, sent, strict=False)]
    print(
        f"streams={args.streams} games={len(sent)} events={sum(map(len, arrivals))} "
        f"latency ms: p50={statistics.median(latencies):.1f} max={max(latencies):.1f}"
    )


if __name__ == "__main__":
    main()
