from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from accounts.roles import ADMIN, OPERATOR, PLANNER, TECHNICIAN, user_roles
from jobs import services as jobs
from jobs.api.serializers import JobSerializer
from jobs.models import Job
from lightpath.api.viewsets import AuditedModelViewSet

from .. import services
from ..filtersets import (
    FabricFilterSet,
    LinkFilterSet,
    SwitchFilterSet,
    TransceiverFilterSet,
    TransceiverModelFilterSet,
)
from ..models import Fabric, Link, Switch, Transceiver, TransceiverModel
from ..services import constraints as capacity_constraints
from ..signals import capacity_changed
from .serializers import (
    FabricSerializer,
    InterchangeErrorSerializer,
    LinkSerializer,
    SwitchSerializer,
    TransceiverModelSerializer,
    TransceiverSerializer,
)

TOPOLOGY_WRITERS = {PLANNER, OPERATOR}
# Changing a live fabric's capacity constraint re-runs CorrOpt, which disables links in
# production: an operator's decision. Planners set the constraint when they create a fabric.
CONSTRAINT_WRITERS = {OPERATOR, ADMIN}


def _check_constraint_writer(request, before, after) -> None:
    if after != before and not (user_roles(request.user) & CONSTRAINT_WRITERS):
        raise PermissionDenied("Only operators and admins may change a capacity constraint (it re-runs CorrOpt).")


def _flag(request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in {"1", "true", "yes"}


def _count(model, **outer):
    """A correlated COUNT subquery: two plain joins would multiply switches by links."""
    rows = model.objects.filter(**outer).order_by().values("fabric").annotate(n=Count("id")).values("n")
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


class FabricViewSet(AuditedModelViewSet):
    queryset = Fabric.objects.annotate(
        switch_count=_count(Switch, fabric=OuterRef("pk")), link_count=_count(Link, fabric=OuterRef("pk"))
    )
    serializer_class = FabricSerializer
    filterset_class = FabricFilterSet
    write_roles = {
        "create": TOPOLOGY_WRITERS,
        "update": TOPOLOGY_WRITERS,
        "destroy": {ADMIN},
        "import_document": TOPOLOGY_WRITERS,
        "constraints": {OPERATOR},
    }

    def delete_instance(self, instance) -> None:
        services.delete_fabric(instance)

    def save_update(self, serializer):
        before = serializer.instance.capacity_constraint
        _check_constraint_writer(self.request, before, serializer.validated_data.get("capacity_constraint", before))
        fabric = serializer.save()
        if fabric.capacity_constraint != before:
            change = {"switch": None, "before": before, "after": fabric.capacity_constraint}
            capacity_constraints.constraint_changed(fabric, [change], self.request.user)
        return fabric

    @extend_schema(
        request=inline_serializer(
            "CapacityConstraintsInput",
            {"default": serializers.FloatField(min_value=0, max_value=1, required=False),
             "overrides": serializers.DictField(child=serializers.FloatField(allow_null=True), required=False)},
        ),
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
    )  # fmt: skip
    @action(detail=True, methods=["get", "put", "patch"], filterset_class=None, pagination_class=None)
    def constraints(self, request, pk=None):
        """Capacity constraints: the fabric's default and per-ToR overrides ({"default": 0.75,
        "overrides": {"t0": 0.5}}). PUT replaces them (ToRs not named lose their override), PATCH
        changes what it names (null clears an override). Operators and admins write; every change
        is audited and re-runs CorrOpt's optimizer (`optimizer_job`: the fabric's pending one)."""
        fabric = self.get_object()
        if request.method == "GET":
            return Response(capacity_constraints.constraints(fabric))
        try:
            result = capacity_constraints.set_constraints(
                fabric, request.data, request.user, replace=request.method == "PUT"
            )
        except capacity_constraints.ConstraintError as exc:
            return Response(exc.errors, status=status.HTTP_400_BAD_REQUEST)
        pending = (
            Job.objects.filter(fabric=fabric, kind="corruption.optimize", state__in=["queued", "running"])
            .order_by("-id")
            .first()
        )
        job = JobSerializer(pending, context=self.get_serializer_context()).data if pending else None
        return Response({**result, "optimizer_job": job})

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def topology(self, request, pk=None):
        """Switches and links in a compact form for drawing."""
        return Response(services.fabric_topology(self.get_object()))

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def capacity(self, request, pk=None):
        """Per-ToR up-paths to the top tier over usable links, against the design count."""
        return Response(services.fabric_capacity(self.get_object()))

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"], description="json document or links CSV")],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR},
    )
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def export(self, request, pk=None):
        fabric = self.get_object()
        fmt = request.query_params.get("format", "json")
        if fmt == "csv":
            response = HttpResponse(services.export_links_csv(fabric), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{fabric.name}-links.csv"'
            return response
        if fmt != "json":
            raise serializers.ValidationError({"format": ["must be json or csv"]})
        return Response(services.export_document(fabric))

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter("background", bool, description="run as a job and answer 202 with it"),
            OpenApiParameter("dry_run", bool, description="only validate: 200 with a summary, or 400 with every error"),
        ],
        responses={
            200: inline_serializer(
                "ImportDryRun",
                {
                    "valid": serializers.BooleanField(),
                    "switches": serializers.IntegerField(),
                    "links": serializers.IntegerField(),
                    "transceiver_models_created": serializers.ListField(child=serializers.CharField()),
                },
            ),
            201: FabricSerializer,
            202: JobSerializer,
            400: inline_serializer("ImportErrors", {"errors": InterchangeErrorSerializer(many=True)}),
        },
    )
    @action(detail=False, methods=["post"], url_path="import", filterset_class=None, pagination_class=None)
    def import_document(self, request):
        """Import a fabric interchange document: all of it, or nothing and every error."""
        document = request.data
        try:
            if _flag(request, "dry_run"):
                plan = services.validate_document(document)
                return Response(
                    {"valid": True, "switches": len(plan.switches), "links": len(plan.links),
                     "transceiver_models_created": [model["name"] for model in plan.new_models]}
                )  # fmt: skip
            if _flag(request, "background"):
                services.validate_document(document)  # fail fast; the job validates again
                job = jobs.submit("fabric.import", user=request.user, params={"document": document})
                return Response(
                    JobSerializer(job, context=self.get_serializer_context()).data, status=status.HTTP_202_ACCEPTED
                )
            fabric = services.import_document(document, user=request.user)
        except services.InterchangeError as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        return Response(self.get_serializer(self.get_queryset().get(pk=fabric.pk)).data, status=status.HTTP_201_CREATED)


class SwitchViewSet(AuditedModelViewSet):
    queryset = Switch.objects.select_related("fabric")
    serializer_class = SwitchSerializer
    filterset_class = SwitchFilterSet
    write_roles = {
        "create": TOPOLOGY_WRITERS,
        "update": TOPOLOGY_WRITERS,
        "destroy": {ADMIN},
    }

    def save_update(self, serializer):
        before = serializer.instance.capacity_constraint
        _check_constraint_writer(self.request, before, serializer.validated_data.get("capacity_constraint", before))
        switch = serializer.save()
        if switch.capacity_constraint != before and switch.tier == 0:
            change = {"switch": switch.name, "before": before, "after": switch.capacity_constraint}
            capacity_constraints.constraint_changed(switch.fabric, [change], self.request.user)
        return switch


class LinkViewSet(AuditedModelViewSet):
    queryset = Link.objects.select_related("a_switch", "z_switch", "admin_changed_by")
    serializer_class = LinkSerializer
    filterset_class = LinkFilterSet
    write_roles = {"create": TOPOLOGY_WRITERS, "update": {OPERATOR}, "destroy": {ADMIN}}

    def save_update(self, serializer):
        was_usable = serializer.instance.usable
        link = services.update_link(serializer.instance, dict(serializer.validated_data), self.request.user)
        if link.usable and not was_usable:  # capacity came back (reference corropt.md 6.2)
            capacity_changed.send(
                sender=Link, fabric_id=link.fabric_id, reason=f"link {link.pk} enabled and up", user=self.request.user
            )
        return link


class TransceiverModelViewSet(AuditedModelViewSet):
    queryset = TransceiverModel.objects.all()
    serializer_class = TransceiverModelSerializer
    filterset_class = TransceiverModelFilterSet
    write_roles = {"create": {PLANNER}, "update": {PLANNER}, "destroy": {ADMIN}}


class TransceiverViewSet(AuditedModelViewSet):
    queryset = Transceiver.objects.select_related("model")
    serializer_class = TransceiverSerializer
    filterset_class = TransceiverFilterSet
    write_roles = {
        "create": {TECHNICIAN, OPERATOR},
        "update": {TECHNICIAN, OPERATOR},
        "destroy": {ADMIN},
    }
