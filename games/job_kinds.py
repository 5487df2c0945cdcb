"""The kinds of the games app's long jobs (``core.jobs``), named in one place.

The services and doors that start a job and the handlers that run it
(``games.rating_jobs``, ``games.transcript_jobs``) import the name from here, so a
service never imports the handler module (which imports the services) to name a job.
"""

RECOMPUTE_FROM = "ratings.recompute_from"
"""Replay a match's rating lists from it, after a correction, void or undo."""
RECOMPUTE_LIST = "ratings.recompute"
"""A director's recomputation of the club's list from scratch."""
RECOMPUTE_ALL = "ratings.recompute_all"
"""The nightly recomputation of every list (reports drift)."""
IMPORT_TRANSCRIPTS = "matches.import"
"""A large transcript upload, imported file by file."""
