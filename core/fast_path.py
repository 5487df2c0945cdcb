"""The switch between the hand-tuned hot path and the plain ORM (``settings.FAST_PATH``).

Four places trade Django's public surface for speed on the score-entry write:
:mod:`core.compiled_writes` (``INSERT``/``UPDATE`` written once per model),
:mod:`core.compiled_queries` (a queryset's SQL compiled once), :mod:`core.history`
(audit rows in one statement) and :func:`core.locking.share_row` (``FOR KEY SHARE``,
which the ORM cannot say). Each asks :func:`enabled` and, when it is off, does what the
ORM does: ``save()``, the queryset itself, one audit row per save, ``FOR NO KEY
UPDATE``. The suite runs the fast path on PostgreSQL and the plain ORM on SQLite
(``tests/core/test_fast_path.py`` pins that both write the same rows and signals), so a
Django upgrade that breaks an internal the fast path uses fails a test, and setting
``FAST_PATH=false`` in production is the way back while it is mended.
"""

from __future__ import annotations

from django.conf import settings


def enabled() -> bool:
    """Whether the hot writes take the hand-tuned path (read per call: tests switch it)."""
    return bool(getattr(settings, "FAST_PATH", True))
