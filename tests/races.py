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
