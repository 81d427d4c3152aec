from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.response import Response

from accounts.roles import ADMIN, OPERATOR, PLANNER, TECHNICIAN, user_roles
from corruption import optimizer
from jobs import services as jobs
from jobs.api.serializers import JobSerializer
from lightpath.api.exceptions import Conflict
from lightpath.api.export import CsvColumn, CsvExportMixin, rounded
from lightpath.api.viewsets import AuditedModelViewSet
from lightpath.problems import query_flag
from telemetry.api.serializers import LinkForecastSerializer
from telemetry.services import forecasts

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
from ..services import link_state, overview
from .export import FABRIC_COLUMN
from .serializers import (
    CapacityConstraintsSerializer,
    ConstraintsChangedSerializer,
    DrainResultSerializer,
    DrainSerializer,
    FabricCapacitySerializer,
    FabricDocumentSerializer,
    FabricSerializer,
    FabricTopologySerializer,
    GuardPreviewSerializer,
    GuardRefusalSerializer,
    InterchangeErrorSerializer,
    KeptTransceiverModelSerializer,
    LinkSerializer,
    LinkStateChangeSerializer,
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
    return query_flag(request.query_params, name)


DRY_RUN = OpenApiParameter("dry_run", bool, description="decide only: 200 with the verdict, nothing changed")
GUARD_RESPONSES = {409: GuardRefusalSerializer}
# A deletion takes links out of service: 204, the guard's preview with ?dry_run=1, or its refusal.
REMOVAL_RESPONSES = {204: None, 200: GuardPreviewSerializer, **GUARD_RESPONSES}


def _or_preview(name: str, serializer) -> PolymorphicProxySerializer:
    """A guarded change answers its result, or with ?dry_run=1 the guard's preview."""
    return PolymorphicProxySerializer(
        component_name=name, serializers=[serializer, GuardPreviewSerializer], resource_type_field_name=None, many=False
    )


def _check_override(request, override: bool, reason: str | None) -> None:
    """An override of the capacity guard is an admin's, with a reason (403 / 400 otherwise)."""
    if not override:
        return
    if ADMIN not in user_roles(request.user):
        raise PermissionDenied("Only admins may override the capacity guard.")
    if not (reason or "").strip():
        raise serializers.ValidationError(
            {"admin_reason": ["required with override_capacity: say why the constraint may be broken"]}
        )


def _guarded(request, verdict: link_state.Verdict, applied: Response) -> Response:
    """The answer to a guarded change: the preview of a dry run, 409 if refused, else `applied`."""
    if _flag(request, "dry_run"):
        return Response(verdict.as_preview())
    if not verdict.applied:
        raise Conflict(verdict.as_refusal())
    return applied


def _guard_errors(call):
    try:
        return call()
    except link_state.GuardError as exc:
        raise serializers.ValidationError({"non_field_errors": [str(exc)]}) from exc


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

    @extend_schema(methods=["GET"], responses=CapacityConstraintsSerializer)
    @extend_schema(
        methods=["PUT", "PATCH"],
        request=inline_serializer(
            "CapacityConstraintsInput",
            {"default": serializers.FloatField(min_value=0, max_value=1, required=False),
             "overrides": serializers.DictField(child=serializers.FloatField(allow_null=True), required=False)},
        ),
        responses={200: ConstraintsChangedSerializer, 400: OpenApiTypes.OBJECT},
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
        pending = optimizer.pending_job(fabric)
        job = JobSerializer(pending, context=self.get_serializer_context()).data if pending else None
        return Response({**result, "optimizer_job": job})

    @extend_schema(responses=FabricTopologySerializer)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def topology(self, request, pk=None):
        """Switches and links in a compact form for drawing."""
        return Response(services.fabric_topology(self.get_object()))

    @extend_schema(responses=FabricCapacitySerializer)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def capacity(self, request, pk=None):
        """Per-ToR up-paths to the top tier over usable links, against the design count."""
        return Response(services.fabric_capacity(self.get_object()))

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"], description="json document or links CSV")],
        responses={(200, "application/json"): FabricDocumentSerializer, (200, "text/csv"): OpenApiTypes.STR},
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
                    "transceiver_models_kept": KeptTransceiverModelSerializer(
                        many=True,
                        help_text="Catalog models the document describes otherwise: the catalog's entry is kept "
                        "(shared by every fabric).",
                    ),
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
        try:
            document = request.data
        except ParseError as exc:  # not JSON, or not an object: said in the import's own error shape
            return Response({"errors": [services.document_error(str(exc.detail))]}, status=status.HTTP_400_BAD_REQUEST)
        try:
            if _flag(request, "dry_run"):
                plan = services.validate_document(document)
                return Response(
                    {"valid": True, "switches": len(plan.switches), "links": len(plan.links),
                     "transceiver_models_created": [model["name"] for model in plan.new_models],
                     "transceiver_models_kept": plan.kept_models}
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
    queryset = Switch.objects.select_related("fabric").annotate(drained=overview.drained())
    serializer_class = SwitchSerializer
    filterset_class = SwitchFilterSet
    write_roles = {
        "create": TOPOLOGY_WRITERS,
        "update": TOPOLOGY_WRITERS,
        "destroy": {ADMIN},
        "drain": {OPERATOR},
        "undrain": {OPERATOR},
    }

    @extend_schema(
        request=DrainSerializer,
        parameters=[DRY_RUN],
        responses={200: _or_preview("DrainOrPreview", DrainResultSerializer), **GUARD_RESPONSES},
        description="Take every enabled link of the switch out of service for maintenance (reason "
        "'maintenance'), decided as one set by the capacity guard. With ?dry_run=1 the answer is the "
        "guard's preview (verdict, affected_tors, blocking_tors) and nothing changes.",
    )
    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    def drain(self, request, pk=None):
        switch = self.get_object()
        body = DrainSerializer(data=request.data or {})
        body.is_valid(raise_exception=True)
        override, note = body.validated_data["override_capacity"], body.validated_data["admin_reason"]
        _check_override(request, override, note)
        verdict = link_state.drain_switch(
            switch, request.user, note=note, dry_run=_flag(request, "dry_run"), override=override
        )
        return _guarded(request, verdict, Response(self._drain_result(switch, verdict)))

    @extend_schema(
        request=None,
        parameters=[DRY_RUN],
        responses={200: _or_preview("DrainOrPreview", DrainResultSerializer)},
        description="Put every link of the switch that was disabled for maintenance back in service "
        "(always allowed; the optimizer re-runs). Links disabled for other reasons stay disabled.",
    )
    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    def undrain(self, request, pk=None):
        switch = self.get_object()
        verdict = link_state.undrain_switch(switch, request.user, dry_run=_flag(request, "dry_run"))
        return _guarded(request, verdict, Response(self._drain_result(switch, verdict)))

    @staticmethod
    def _drain_result(switch: Switch, verdict: link_state.Verdict) -> dict:
        return {
            "switch": switch.pk,
            "links": [link.pk for link in verdict.changed],
            "affected_tors": link_state.public_rows(verdict.affected_tors),
            "detail": verdict.detail(),
        }

    @extend_schema(parameters=[DRY_RUN], responses=REMOVAL_RESPONSES)
    def destroy(self, request, *args, **kwargs):
        """Deleting a switch with usable links takes them out of service: the capacity guard
        decides (409 if a ToR would fall under its constraint; ?dry_run=1 previews)."""
        switch = self.get_object()
        with transaction.atomic():
            verdict = link_state.check_removal(switch.fabric_id, link_state.switch_links(switch))
            if verdict.applied and not _flag(request, "dry_run"):
                self.perform_destroy(switch)
                return Response(status=status.HTTP_204_NO_CONTENT)
        return _guarded(request, verdict, Response(status=status.HTTP_204_NO_CONTENT))

    def save_update(self, serializer):
        before = serializer.instance.capacity_constraint
        _check_constraint_writer(self.request, before, serializer.validated_data.get("capacity_constraint", before))
        switch = serializer.save()
        if switch.capacity_constraint != before and switch.tier == 0:
            change = {"switch": switch.name, "before": before, "after": switch.capacity_constraint}
            capacity_constraints.constraint_changed(switch.fabric, [change], self.request.user)
        return switch


@extend_schema_view(
    partial_update=extend_schema(
        parameters=[DRY_RUN], responses={200: _or_preview("LinkOrPreview", LinkSerializer), **GUARD_RESPONSES}
    )
)
class LinkViewSet(CsvExportMixin, AuditedModelViewSet):
    """Links. Their admin state changes only through the capacity guard (docs/capacity-guard.md):
    taking links out of service answers 409 when a ToR would fall under its capacity constraint,
    `?dry_run=1` previews any change, and an admin may override with a reason."""

    queryset = Link.objects.select_related("a_switch", "z_switch", "admin_changed_by", "forecast")
    serializer_class = LinkSerializer
    filterset_class = LinkFilterSet
    ordering_fields = [
        "id", "fabric", "a_switch__name", "z_switch__name", "health", "length_m", "speed_gbps", "fiber",
        "admin_state", "oper_state", "forecast__crossing_at", "a_switch__rack", "z_switch__rack",
    ]  # fmt: skip
    csv_name = "links"
    csv_columns = (
        # Keys are the page's columns (`columns=`): the A end names the link, so its id goes with it.
        CsvColumn("Link", "id", key="a_end"),
        FABRIC_COLUMN,
        CsvColumn("A switch", "a_switch_name", key="a_end"),
        CsvColumn("A port", "a_port", key="a_end"),
        CsvColumn("A rack", "a_rack"),
        CsvColumn("Z switch", "z_switch_name", key="z_end"),
        CsvColumn("Z port", "z_port", key="z_end"),
        CsvColumn("Z rack", "z_rack"),
        CsvColumn("Health", "health"),
        CsvColumn("Rx low", "rx_low", key="health"),
        CsvColumn("Length (m)", "length_m", rounded(1), key="length"),
        CsvColumn("Speed (Gb/s)", "speed_gbps", key="speed"),
        CsvColumn("Fiber", "fiber"),
        CsvColumn("Admin state", "admin_state"),
        CsvColumn("Admin reason", "admin_reason", key="admin_state"),
        CsvColumn("Oper state", "oper_state"),
        CsvColumn("Flapping", "flapping", key="oper_state"),
        # No forecast: not at risk, as the page says.
        CsvColumn("At risk", "forecast.at_risk", blank="no", key="at_risk"),
        CsvColumn("Forecast crossing", "forecast.crossing_at", key="at_risk"),
        CsvColumn("Forecast cause", "forecast.cause", key="at_risk"),
    )
    write_roles = {
        "create": TOPOLOGY_WRITERS,
        "update": {OPERATOR},
        "bulk_partial_update": {OPERATOR},
        "destroy": {ADMIN},
    }

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        ordering = queryset.query.order_by
        if not ordering and len(self.request.query_params.getlist("fabric")) == 1:
            # Link.Meta.ordering sorts by the fabric's name (Fabric.Meta.ordering): PostgreSQL joined
            # and sorted every link of the fabric for one page. Within one fabric that order is the
            # id's, which the (fabric, id) index reads in order (BENCHMARKS.md, "Link list").
            queryset = queryset.order_by("fabric_id", "id")
        elif ordering and not {"id", "-id", "pk", "-pk"} & set(ordering):
            # ?ordering=: links that tie stay in id order, page after page.
            queryset = queryset.order_by(*ordering, "id")
        return queryset

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "forecast":  # the answer names the fabric's settings
            queryset = queryset.select_related("fabric")
        return queryset

    @extend_schema(responses=LinkForecastSerializer)
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def forecast(self, request, pk=None):
        """The link's optics forecast (docs/telemetry.md, "Forecasts: optics at risk"): when its
        worst lane is forecast to reach its low limit, with the interval, the confidence, the
        probable cause and the recommended action; `forecast` is null when none is forecast."""
        return Response(LinkForecastSerializer(forecasts.answer(self.get_object())).data)

    @extend_schema(
        parameters=[DRY_RUN], responses={200: _or_preview("LinkOrPreview", LinkSerializer), **GUARD_RESPONSES}
    )
    def update(self, request, *args, **kwargs):
        """Change a link. A change of admin_state goes through the capacity guard; with
        ?dry_run=1 the answer is its preview and nothing changes."""
        link = self.get_object()
        serializer = self.get_serializer(link, data=request.data, partial=kwargs.pop("partial", False))
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        override = data.pop("override_capacity", False)
        wanted = data.pop("admin_state", link.admin_state)
        _check_override(request, override, data.get("admin_reason"))
        with transaction.atomic():
            verdict = _guard_errors(
                lambda: link_state.change_admin_states(
                    link.fabric_id,
                    {link.pk: link_state.AdminChange(wanted, data.pop("admin_reason", ""))}
                    if wanted != link.admin_state
                    else {},
                    request.user,
                    dry_run=_flag(request, "dry_run"),
                    override=override,
                )
            )
            if verdict.applied and data:  # descriptive fields, and a note on an unchanged state
                link.refresh_from_db()
                services.update_link(link, data, request.user)
        return _guarded(request, verdict, Response(self.get_serializer(self.get_queryset().get(pk=link.pk)).data))

    @extend_schema(
        operation_id="links_bulk_partial_update",
        request=LinkStateChangeSerializer(many=True),
        parameters=[DRY_RUN],
        responses={200: _or_preview("LinksOrPreview", LinkSerializer(many=True)), **GUARD_RESPONSES},
    )
    def bulk_partial_update(self, request, *args, **kwargs):
        """PATCH /api/links/ with a list of {"id", "admin_state", "admin_reason"}: one set of
        changes, all or nothing, decided by the capacity guard (one fabric per request). An admin
        may override with "override_capacity": true and a reason on every entry."""
        rows, fabric_id = _bulk_rows(request.data)
        override = all(row["override_capacity"] for row in rows)
        _check_override(request, override, min((row["admin_reason"] for row in rows), key=len))
        changes = {row["id"]: link_state.AdminChange(row["admin_state"], row["admin_reason"]) for row in rows}
        verdict = _guard_errors(
            lambda: link_state.change_admin_states(
                fabric_id, changes, request.user, dry_run=_flag(request, "dry_run"), override=override
            )
        )
        links = self.get_queryset().filter(pk__in=list(changes)).order_by("pk")
        return _guarded(request, verdict, Response(self.get_serializer(links, many=True).data))

    @extend_schema(parameters=[DRY_RUN], responses=REMOVAL_RESPONSES)
    def destroy(self, request, *args, **kwargs):
        """Deleting a usable link takes it out of service: the capacity guard decides (409 if a ToR
        would fall under its constraint; ?dry_run=1 previews)."""
        link = self.get_object()
        with transaction.atomic():
            verdict = link_state.check_removal(link.fabric_id, [link.pk])
            if verdict.applied and not _flag(request, "dry_run"):
                self.perform_destroy(link)
                return Response(status=status.HTTP_204_NO_CONTENT)
        return _guarded(request, verdict, Response(status=status.HTTP_204_NO_CONTENT))


def _bulk_rows(data) -> tuple[list[dict], int]:
    """The entries of a bulk change and their one fabric, or a 400 with every problem at once,
    keyed by the entry's index: bad fields, unknown or repeated links, links of several fabrics,
    an override on some entries only."""
    if not isinstance(data, list) or not data:
        raise serializers.ValidationError({"non_field_errors": ['expected a non-empty list of {"id", "admin_state"}']})
    problems: dict[str, list | dict] = {}
    rows: dict[int, dict] = {}
    for index, item in enumerate(data):
        entry = LinkStateChangeSerializer(data=item)
        if entry.is_valid():
            rows[index] = dict(entry.validated_data)
        else:
            problems[str(index)] = entry.errors
    fabric_of = dict(Link.objects.filter(pk__in=[row["id"] for row in rows.values()]).values_list("id", "fabric_id"))
    first: dict[int, int] = {}
    for index, row in rows.items():
        messages = []
        if row["id"] not in fabric_of:
            messages.append(f"link {row['id']} does not exist")
        if row["id"] in first:
            messages.append(f"link {row['id']} is listed more than once (entry {first[row['id']]})")
        first.setdefault(row["id"], index)
        if messages:
            problems[str(index)] = {"id": messages}
    general = []
    if len(set(fabric_of.values())) > 1:
        general.append("every link of one change must be in one fabric")
    if len({row["override_capacity"] for row in rows.values()}) > 1:
        general.append("override_capacity must be the same on every entry (the set is decided as one)")
    if general:
        problems["non_field_errors"] = general
    if problems:
        raise serializers.ValidationError(problems)
    return list(rows.values()), next(iter(fabric_of.values()))


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
