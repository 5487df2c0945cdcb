"""``GET /api/v1/jobs/{id}/``: a long job's status and progress, and the job's shape in
the schema.

What a job's ``params`` and ``result`` hold depends on its kind, so the schema
describes a job as one component per kind (``PairRoundJob``, ``ClubExportJob``...),
each with typed ``params`` and ``result`` (null until the job succeeds), joined in
``Job``: a ``oneOf`` with a discriminator on ``kind`` (issue #30; docs/api.md, "Every
answer is typed"). The apps declare each kind's shapes in its declaration
(``core.job_kinds.JobKind``, registered from their ``wiring.py``; ``core`` imports no
app); every door that answers a job
declares :func:`job_answer`. The answer itself is :class:`JobSerializer`'s, whatever
the kind: the per-kind components only describe it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Model, QuerySet
from drf_spectacular.utils import (
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
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


@extend_schema_field(
    {
        "type": "object",
        "properties": {},
        "readOnly": True,
        "description": "This kind of job takes no parameters: always {}.",
    }
)
class NoParamsField(serializers.JSONField):
    """The ``params`` of a kind that takes none (drf-spectacular leaves out a field
    whose serializer has no fields, where the answer has ``{}``)."""


class JobSerializer(serializers.ModelSerializer[Job]):
    """A job as pollers see it. ``heartbeat_at`` shows a running job is alive;
    ``retried_as`` is the job that took over the work of one lost with its worker."""

    percent = serializers.FloatField(read_only=True, allow_null=True)
    params = serializers.SerializerMethodField()
    error = JobErrorField(read_only=True)
    # null for a job of no club's (the odds, a club archive's import)
    club: serializers.SlugRelatedField[Model] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, allow_null=True
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


@dataclass(frozen=True)
class JobShape:
    """What one kind of job takes and answers, for the schema: ``name`` names its
    components (``{name}Job``), ``params`` and ``result`` are serializers describing
    the job's ``params`` (the hidden payloads left out; None: it takes none) and its
    ``result``."""

    name: str
    params: type[serializers.Serializer[Any]] | None
    result: type[serializers.Serializer[Any]]


_shapes: dict[str, JobShape] = {}


def register_job_shape(
    kind: str,
    *,
    name: str,
    params: type[serializers.Serializer[Any]] | None,
    result: type[serializers.Serializer[Any]],
) -> None:
    """Declare the shape of a job kind's ``params`` (None: it takes none) and
    ``result`` (``core.job_kinds.register_job_kinds``, from the kind's declaration)."""
    _shapes[kind] = JobShape(name=name, params=params, result=result)


def job_shapes() -> dict[str, JobShape]:
    """Every declared kind's shape, by kind."""
    return dict(_shapes)


_components: dict[tuple[str, JobShape], type[JobSerializer]] = {}


def _job_component(kind: str, shape: JobShape) -> type[JobSerializer]:
    """``JobSerializer`` with the kind's typed ``params`` and ``result`` (made once per
    kind and shape: drf-spectacular names a component after its class).

    Its ``kind`` is an enum of the one kind: openapi-python-client (0.29) reads the
    union by trying each model in turn, not by the discriminator, and the enum is what
    makes every other kind's model refuse the answer."""
    if (kind, shape) not in _components:
        attrs = {
            "__module__": __name__,
            "__doc__": f"A ``{kind}`` job: its ``params`` and its ``result`` typed (the "
            "result is null until the job has succeeded).",
            "kind": serializers.ChoiceField(choices=[kind], read_only=True),
            "params": shape.params(read_only=True)
            if shape.params
            else NoParamsField(read_only=True),
            "result": shape.result(read_only=True, allow_null=True),
        }
        _components[kind, shape] = type(f"{shape.name}JobSerializer", (JobSerializer,), attrs)
    return _components[kind, shape]


def _job_components() -> dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]]:
    return {kind: _job_component(kind, _shapes[kind]) for kind in sorted(_shapes)}


def job_answer(**kwargs: Any) -> PolymorphicProxySerializer:
    """The ``Job`` component: one of the per-kind jobs, told apart by ``kind``. Every
    door that answers a job declares it (``responses={202: job_answer()}``)."""
    return PolymorphicProxySerializer(
        component_name="Job",
        serializers=_job_components,
        resource_type_field_name="kind",
        **kwargs,
    )


@extend_schema_view(retrieve=extend_schema(responses=job_answer()))
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
