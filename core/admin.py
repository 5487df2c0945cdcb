"""Jobs and outbox events in the admin: read them, and retry the ones that gave up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from core.jobs import retry_failed_job
from core.models import DomainEvent, Job
from core.outbox import retry_failed_event

if TYPE_CHECKING:  # the stubs' ModelAdmin is generic; Django's is not subscriptable
    JobAdminBase = admin.ModelAdmin[Job]
    EventAdminBase = admin.ModelAdmin[DomainEvent]
else:
    JobAdminBase = EventAdminBase = admin.ModelAdmin


@admin.register(Job)
class JobAdmin(JobAdminBase):
    list_display = ["id", "kind", "status", "attempts", "club", "created_at", "finished_at"]
    list_filter = ["status", "kind"]
    search_fields = ["kind", "message"]
    readonly_fields = [f.name for f in Job._meta.fields]
    actions = ["retry"]

    @admin.action(description="Retry the selected failed jobs")
    def retry(self, request: HttpRequest, queryset: QuerySet[Job]) -> None:
        started = sum(
            retry_failed_job(pk) is not None for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"{started} job(s) retried.", messages.SUCCESS)


@admin.register(DomainEvent)
class DomainEventAdmin(EventAdminBase):
    list_display = ["id", "kind", "attempts", "created_at", "handled_at", "failed_at"]
    list_filter = ["kind"]
    readonly_fields = [f.name for f in DomainEvent._meta.fields]
    actions = ["retry"]

    @admin.action(description="Retry the selected failed events")
    def retry(self, request: HttpRequest, queryset: QuerySet[DomainEvent]) -> None:
        started = sum(retry_failed_event(pk) for pk in queryset.values_list("pk", flat=True))
        self.message_user(request, f"{started} event(s) retried.", messages.SUCCESS)
