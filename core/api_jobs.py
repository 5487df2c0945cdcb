"""``GET /api/v1/jobs/{id}/``: a long job's status and progress."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated

from core import access
from core.models import Job

if TYPE_CHECKING:
    from rest_framework.response import Response

HIDDEN_PARAMS = {"files", "content", "payload"}


@extend_schema_field(
    {
        "allOf": [{"$ref": "#/components/schemas/Error"}],
        "nullable": True,
        "readOnly": True,
        "description": "Why the job failed (or its last attempt did), in the API's error shape.",
    }
)
class JobErrorField(serializers.JSONField):
    """The job's stored error: the ``Error`` body (``core.api_schema``), or null."""


class JobSerializer(serializers.ModelSerializer[Job]):
    """A job as pollers see it. ``heartbeat_at`` shows a running job is alive;
    ``retried_as`` is the job that took over the work of one lost with its worker."""

    percent = serializers.FloatField(read_only=True, allow_null=True)
    params = serializers.SerializerMethodField()
    error = JobErrorField(read_only=True)
    club: serializers.SlugRelatedField[Model] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )

    class Meta:
        model = Job
        fields = [
            "id",
            "kind",
            "status",
            "done",
            "total",
            "percent",
            "message",
            "params",
            "result",
            "error",
            "attempts",
            "club",
            "created_at",
            "started_at",
            "finished_at",
            "heartbeat_at",
            "retried_as",
        ]
        read_only_fields = fields

    def get_params(self, job: Job) -> dict[str, Any]:
        """The job's parameters, without bulky payloads (uploaded files stay private)."""
        return {k: v for k, v in (job.params or {}).items() if k not in HIDDEN_PARAMS}


class JobViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet[Job]):
    """A job is visible to whoever started it, the club's directors and site admins."""

    serializer_class = JobSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> QuerySet[Job]:
        return Job.objects.select_related("club")

    def get_object(self) -> Job:
        job = super().get_object()
        user = self.request.user
        allowed = (
            access.is_site_admin(user)
            or job.created_by_id == user.pk
            or (job.club is not None and access.is_director(user, job.club))
        )
        if not allowed:
            raise PermissionDenied("This job belongs to someone else.")
        return job


def job_accepted_response(job: Job) -> Response:
    """202 with the job resource and its Location, as long jobs answer."""
    from rest_framework.response import Response

    response = Response(JobSerializer(job).data, status=202)
    response["Location"] = f"/api/v1/jobs/{job.pk}/"
    return response
