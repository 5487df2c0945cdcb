"""Run calls at the same instant from real threads, for the race tests on PostgreSQL.

Each thread waits at one barrier, then makes its call on its own database connection
(closed afterwards, so the test database can be dropped). The calls' results come back
in order; with ``capture_errors`` an exception is returned in its call's place instead
of ending that thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection


def race(calls: Sequence[Callable[[], Any]], *, capture_errors: bool = False) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:
            if not capture_errors:
                raise
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def waiting_on_a_lock(pid: int) -> bool:
    """Is PostgreSQL backend ``pid`` waiting on a lock now (``pg_stat_activity``)? The
    race tests' probe: a wait shown by the database, not guessed from timing."""
    from django.db import connections

    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"
