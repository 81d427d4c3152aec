from django.db import transaction
from django.db.models import Func, IntegerField, Prefetch
from django.db.models.fields.json import KeyTransform
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from accounts.roles import OPERATOR, PLANNER
from audit import services as audit
from jobs import services as jobs
from jobs.models import Job
from lightpath.api.parsers import BoundedJSONParser, check_length
from lightpath.api.viewsets import AuditedModelViewSet, BriefModeMixin
from lightpath.problems import InvalidParams

from .. import schedule, services
from ..filtersets import CircuitSwitchFilterSet, DemandFilterSet, ScheduleFilterSet
from ..models import CircuitAttachment, CircuitSwitch, Demand
from .serializers import (
    CircuitSwitchSerializer,
    DemandDetailSerializer,
    DemandMatrixSerializer,
    DemandSerializer,
    DemandUploadSerializer,
    ScheduleListSerializer,
    ScheduleRequestSerializer,
    ScheduleSerializer,
)

SCHEDULERS = {PLANNER, OPERATOR}


class StillScheduledConflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "still_scheduled"


def _delete_unless_scheduled(instance: Demand | CircuitSwitch) -> None:
    try:
        schedule.refuse_delete_while_scheduled(instance)
    except schedule.StillScheduled as exc:
        raise StillScheduledConflict(str(exc)) from exc
    instance.delete()


DELETE_SCHEMA = extend_schema(
    responses={
        204: None,
        409: OpenApiResponse(description='`{"detail"}`: one sentence naming the queued or running schedules using it'),
    }
)


class BoundedMultiPartParser(MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        check_length(parser_context)
        return super().parse(stream, media_type, parser_context)


@extend_schema_view(destroy=DELETE_SCHEMA)
class CircuitSwitchViewSet(AuditedModelViewSet):
    """Optical circuit switches and the ToRs attached to them (planners write, admins delete too)."""

    queryset = CircuitSwitch.objects.prefetch_related(
        Prefetch("attachments", queryset=CircuitAttachment.objects.select_related("tor").prefetch_related("links"))
    )
    serializer_class = CircuitSwitchSerializer
    filterset_class = CircuitSwitchFilterSet
    write_roles = {"create": {PLANNER}, "update": {PLANNER}, "destroy": {PLANNER}}

    def delete_instance(self, instance) -> None:
        """409 while a queued or running schedule uses it; finished schedules keep their results."""
        _delete_unless_scheduled(instance)


@extend_schema_view(destroy=DELETE_SCHEMA)
class DemandViewSet(BriefModeMixin, mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    """Rack-to-rack demand series, uploaded as CSV or JSON (docs/circuits.md "In the server")."""

    queryset = Demand.objects.select_related("uploaded_by")
    serializer_class = DemandSerializer
    filterset_class = DemandFilterSet
    parser_classes = [BoundedJSONParser, BoundedMultiPartParser]
    write_roles = {"create": SCHEDULERS, "destroy": SCHEDULERS}

    def get_serializer_class(self):
        return DemandDetailSerializer if self.action == "retrieve" else DemandSerializer

    @extend_schema(
        request={"application/json": DemandUploadSerializer, "multipart/form-data": DemandUploadSerializer},
        responses={201: DemandDetailSerializer, 400: OpenApiTypes.OBJECT},
    )
    def create(self, request, *args, **kwargs):
        """Upload: `{fabric, name, window_s?, description?, csv | rows}` or multipart with `file`;
        400 `{"errors": [...]}` lists every bad row by line (CSV) or entry (JSON)."""
        upload = request.FILES.get("file")
        try:
            demand = services.upload_demand(request.data, upload.read() if upload else None, request.user)
        except services.DemandInvalid as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        audit.record(request.user, audit.CREATE, demand)
        serializer = DemandDetailSerializer(demand, context=self.get_serializer_context())
        return Response(serializer.data, status=status.HTTP_201_CREATED)

    @transaction.atomic
    def perform_destroy(self, instance):
        """409 while a queued or running schedule uses it; finished schedules keep their results."""
        audit.record(self.request.user, audit.DELETE, instance, before=audit.snapshot(instance))
        _delete_unless_scheduled(instance)

    @extend_schema(
        parameters=[
            OpenApiParameter("window", int, description="window index (default 0)"),
            OpenApiParameter("racks", int, description="at most this many racks (default 64, max 400)"),
            OpenApiParameter("circuit_switch", int, description="show this circuit switch's attached ToRs"),
        ],
        responses={200: DemandMatrixSerializer, 400: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def matrix(self, request, pk=None):
        """One window's directed rack x rack bytes for the heat map: `cells` [[row, col, bytes]]
        into `racks` (sorted by name), bounded to `racks` ToRs (the busiest)."""
        demand = self.get_object()
        problems: dict[str, list[str]] = {}
        values: dict[str, int] = {}
        for key, default in (("window", 0), ("racks", services.DEFAULT_MATRIX_RACKS), ("circuit_switch", 0)):
            raw = request.query_params.get(key)
            try:
                values[key] = default if raw in (None, "") else int(raw)
            except ValueError:
                problems[key] = ["must be a whole number"]
        switch = None
        if values.get("circuit_switch"):
            switch = CircuitSwitch.objects.filter(pk=values["circuit_switch"]).first()
            if switch is None:
                problems["circuit_switch"] = [f"circuit switch {values['circuit_switch']} does not exist"]
        if problems:
            raise serializers.ValidationError(problems)
        try:
            return Response(services.matrix(demand, values["window"], values["racks"], switch))
        except services.MatrixInvalid as exc:
            raise serializers.ValidationError(exc.problems) from exc


class CircuitScheduleViewSet(BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """Circuit schedule jobs (kind `circuits.schedule`): POST starts one (202 with the job); the
    list and detail add the demand, circuit switches, algorithm and a metrics summary."""

    queryset = (
        Job.objects.filter(kind=schedule.JOB_KIND)
        .select_related("created_by")
        .annotate(
            summary_metrics=KeyTransform("metrics", "result"),
            stored_demand_name=KeyTransform("name", KeyTransform("demand", "result")),
            stored_switches=KeyTransform("circuit_switches", "result"),
            slot_count=Func(
                KeyTransform("slots", "result"), function="jsonb_array_length", output_field=IntegerField()
            ),
        )
    )
    serializer_class = ScheduleSerializer
    filterset_class = ScheduleFilterSet
    write_roles = {"create": SCHEDULERS}

    def get_queryset(self):
        queryset = super().get_queryset()
        return queryset.defer("result") if self.action == "list" else queryset

    def get_serializer_class(self):
        return ScheduleListSerializer if self.action == "list" else ScheduleSerializer

    def get_serializer(self, *args, **kwargs):
        jobs_shown = args[0] if args else None
        if jobs_shown is not None:
            many = list(jobs_shown) if kwargs.get("many") else [jobs_shown]
            demand_ids = {job.params["demand"] for job in many if isinstance((job.params or {}).get("demand"), int)}
            switch_ids = {pk for job in many for pk in (job.params or {}).get("circuit_switches", [])}
            kwargs["context"] = {
                **self.get_serializer_context(),
                "demand_names": dict(Demand.objects.filter(pk__in=demand_ids).values_list("id", "name")),
                "switch_names": dict(CircuitSwitch.objects.filter(pk__in=switch_ids).values_list("id", "name")),
            }
        return super().get_serializer(*args, **kwargs)

    @extend_schema(request=ScheduleRequestSerializer, responses={202: ScheduleSerializer, 400: OpenApiTypes.OBJECT})
    def create(self, request, *args, **kwargs):
        """Start a schedule: `{demand, circuit_switch | zone, params}` (docs/circuits.md)."""
        try:
            cleaned = schedule.validate_request(request.data, None)
        except InvalidParams as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        fabric = Demand.objects.select_related("fabric").get(pk=cleaned["demand"]).fabric
        job = jobs.submit(schedule.JOB_KIND, user=request.user, fabric=fabric, params=cleaned)
        job = self.get_queryset().get(pk=job.pk)
        return Response(self.get_serializer(job).data, status=status.HTTP_202_ACCEPTED)
