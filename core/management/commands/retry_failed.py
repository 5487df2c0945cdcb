"""``manage.py retry_failed``: start again the jobs and outbox events that gave up.

A follow-up that failed every attempt (``JOB_MAX_ATTEMPTS``, ``OUTBOX_MAX_ATTEMPTS``)
stays failed with its error, shown to its club's directors, until someone fixes the
cause and runs this (or the admin's action). A job is retried as a new job (the failed
one points at it, ``retried_as``); an event gets a fresh count of attempts.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from core import followups


class Command(BaseCommand):
    help = "Retry the jobs and outbox events that gave up (all of them, or the ids given)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--jobs", action="store_true", help="jobs only")
        parser.add_argument("--events", action="store_true", help="outbox events only")
        parser.add_argument("ids", nargs="*", type=int, help="ids (with --jobs or --events)")
        parser.add_argument("--list", action="store_true", help="list them, retry nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        both = not options["jobs"] and not options["events"]
        jobs, events = both or options["jobs"], both or options["events"]
        if options["ids"] and both:
            self.stderr.write("Say whether the ids are of --jobs or of --events.")
            raise SystemExit(2)
        if options["list"]:
            if jobs:
                for job in followups.failed_jobs().order_by("id"):
                    detail = (job.error or {}).get("detail", "")
                    self.stdout.write(f"job {job.pk} {job.kind} ({job.attempts}): {detail}")
            if events:
                for event in followups.failed_events().order_by("id"):
                    line = f"event {event.pk} {event.kind} ({event.attempts}): {event.last_error}"
                    self.stdout.write(line)
            return
        started = followups.retry_all(jobs=jobs, events=events, ids=options["ids"] or None)
        self.stdout.write(f"{started} retried")
