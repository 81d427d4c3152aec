import math

from django.db.models import Case, Count, F, OuterRef, Subquery, Value, When
from django.db.models.functions import Coalesce, NullIf
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.roles import OPERATOR, TECHNICIAN
from fabric.api.export import FABRIC_COLUMN
from fabric.models import Fabric, Link
from jobs.api.serializers import JobSerializer
from lightpath.api.export import CsvColumn, CsvExportMixin, decimals, significant
from lightpath.api.schema import CONFLICT
from lightpath.api.viewsets import BriefModeMixin

from .. import metrics as repair_metrics
from .. import optimizer, services, tickets
from ..filtersets import DecisionFilterSet, TicketFilterSet
from ..models import REPAIR_ACTION_DONE, Decision, RepairAction, Ticket, TicketStep
from ..preventive import open_preventive
from .serializers import (
    ActionSerializer,
    AssignSerializer,
    CommentSerializer,
    CorrOptCheckSerializer,
    DecisionSerializer,
    MetricsHistoryQuerySerializer,
    MetricsHistorySerializer,
    OpenPreventiveSerializer,
    TicketActedSerializer,
    TicketCountsSerializer,
    TicketDetailSerializer,
    TicketMetricsSerializer,
    TicketSerializer,
)

# A direction as the ticket page writes it ("A → Z"; the choice's label would be "A To Z").
DIRECTION_WORDS = {"a_to_z": "A → Z", "z_to_a": "Z → A"}


def affected_text(tors: list[dict]) -> str:
    """The ToRs below a decided link as the decision log lists them:
    "p0-tor4 1.00 → 0.75 (16 → 12 of 16 paths, needs 12)", one after another."""
    return "; ".join(
        f"{tor['name']} {tor['fraction_before']:.2f} → {tor['fraction_after']:.2f} "
        f"({tor['paths_before']} → {tor['paths_after']} of {tor['design_paths']} paths, needs {tor['required_paths']})"
        for tor in tors
    )


class DecisionViewSet(CsvExportMixin, BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """CorrOpt decisions: links disabled for corruption, or kept enabled for capacity with the
    ToR that blocked it. `?kept_for_capacity=true` lists the links that are now corrupting and
    kept. Read-only: decisions are made by the workers."""

    queryset = Decision.objects.select_related("link__a_switch", "link__z_switch", "blocking_tor").annotate(
        blocking_tor_constraint=Case(
            When(blocking_tor__isnull=True, then=None),
            default=Coalesce("blocking_tor__capacity_constraint", "fabric__capacity_constraint"),
        )
    )
    serializer_class = DecisionSerializer
    filterset_class = DecisionFilterSet
    ordering_fields = ["id", "created", "penalty", "kind", "action", "link", "blocking_tor__name"]
    csv_name = "decisions"
    csv_columns = (
        # Keys are the page's columns (`columns=`): "Decision" says what, by whom and which run.
        CsvColumn("Decision", "id", key="action"),
        CsvColumn("Time", "created"),
        FABRIC_COLUMN,
        CsvColumn("By", "kind", key="action"),
        CsvColumn("Decision taken", "action"),
        CsvColumn("Link", "link_name", key="link"),
        CsvColumn("Loss rate A to Z", "loss_rate_a_to_z", significant(3), key="penalty"),
        CsvColumn("Loss rate Z to A", "loss_rate_z_to_a", significant(3), key="penalty"),
        CsvColumn("Penalty", "penalty", significant(3)),
        CsvColumn("ToRs below: capacity before → after", "affected", affected_text, key="affected"),
        CsvColumn("Blocking ToR", "blocking_tor_name", key="blocking_tor"),
        CsvColumn("Blocking ToR capacity", "blocking_tor_fraction", decimals(3), key="blocking_tor"),
        CsvColumn("Job", "job", key="action"),
    )
    write_roles: set[str] = set()


class FabricOptimizeView(APIView):
    """Run CorrOpt's optimizer on a fabric now (operators and admins): 202 with its job. A run
    still queued for the fabric is joined instead of queueing another."""

    write_roles = {OPERATOR}

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request, pk: int):
        fabric = get_object_or_404(Fabric, pk=pk)
        job = optimizer.submit_coalesced(fabric.pk, f"run now by {request.user.get_username()}", request.user)
        return Response(JobSerializer(job, context={"request": request}).data, status=status.HTTP_202_ACCEPTED)


class LinkCorrOptCheckView(APIView):
    """Dry run of the fast checker on the live fabric: would this link be disabled now, or kept
    for capacity (and by which ToR)? Read-only, every role; nothing changes. Rates default to what
    decide_event would use (the link's open event, the other direction's health); `loss_rate`
    (A to Z, the upward direction) and `loss_rate_down` ask "what if it corrupted at this rate"."""

    write_roles: set[str] = set()

    @extend_schema(
        parameters=[
            OpenApiParameter("loss_rate", float, description="A-to-Z corruption rate to assume (fraction, 0..1)"),
            OpenApiParameter("loss_rate_down", float, description="Z-to-A corruption rate to assume (fraction, 0..1)"),
        ],
        responses=CorrOptCheckSerializer,
    )
    def get(self, request, pk: int):
        link = get_object_or_404(Link.objects.select_related("fabric", "a_switch", "z_switch"), pk=pk)
        rates: dict[str, float | None] = {"loss_rate": None, "loss_rate_down": None}
        problems = {}
        for name in rates:
            raw = request.query_params.get(name)
            if raw is None or raw == "":
                continue
            try:
                value = float(raw)
            except ValueError:
                problems[name] = [f"must be a number, got {raw!r}"]
                continue
            if not math.isfinite(value) or not 0.0 <= value <= 1.0:
                problems[name] = [f"must be a fraction between 0 and 1, got {raw}"]
                continue
            rates[name] = value
        if problems:
            raise ValidationError(problems)
        return Response(services.dry_run(link, rates["loss_rate"], rates["loss_rate_down"]))


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


WORKERS = {TECHNICIAN, OPERATOR}


# A ticket's current step: its newest (TicketViewSet's annotations).
current_step = TicketStep.objects.filter(ticket=OuterRef("pk")).order_by("-number")


class TicketViewSet(CsvExportMixin, BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """Repair tickets of links disabled for corruption (corruption.tickets), and preventive ones
    of links forecast to fail (corruption.preventive: operators open them). Everyone reads;
    technicians and operators work them: start, act (record the action taken; the link is
    enabled again and validated), comment, assign. `?ordering=-penalty` or `created` (age)."""

    queryset = (
        Ticket.objects.select_related("link__a_switch", "link__z_switch", "assignee")
        .annotate(
            # A preventive ticket has no opening decision: its first corruption's, like a repair's.
            penalty=Coalesce(
                F("decision__penalty"),
                Subquery(
                    TicketStep.objects.filter(ticket=OuterRef("pk"), decision__isnull=False)
                    .order_by("number")
                    .values("decision__penalty")[:1]
                ),
            ),
            recommended_action=Subquery(current_step.values("recommended_action")[:1]),
            action_taken=NullIf(Subquery(current_step.values("action_taken")[:1]), Value("")),
            acted_at=Subquery(current_step.values("acted_at")[:1]),
            step_count=Count("steps"),
        )
        .order_by("-created", "-id")
    )
    serializer_class = TicketSerializer
    filterset_class = TicketFilterSet
    ordering_fields = ["id", "penalty", "created", "updated", "state", "kind", "resolved_at", "assignee__username"]
    csv_name = "tickets"
    csv_columns = (
        # Keys are the page's columns (`columns=`); the others are the CSV's only (every column by default).
        CsvColumn("Ticket", "id"),
        CsvColumn("Kind", "kind"),
        FABRIC_COLUMN,
        CsvColumn("Pod", "pod", key="fabric"),  # the page's "Fabric / pod"
        CsvColumn("Link", "link_name", key="link"),
        CsvColumn("Direction", "direction", names=lambda: DIRECTION_WORDS),
        CsvColumn("State", "state"),
        CsvColumn(
            "Recommended action", "recommended_action", names=lambda: dict(RepairAction.choices), key="recommended"
        ),
        CsvColumn("Action taken", "action_taken", names=lambda: REPAIR_ACTION_DONE),
        CsvColumn("Validating until", "validation_ends_at"),
        CsvColumn("Penalty", "penalty", significant(3)),
        CsvColumn("Assignee", "assignee"),
        CsvColumn("Opened", "created"),
        CsvColumn("Resolved", "resolved_at"),
    )
    write_roles = {"start": WORKERS, "act": WORKERS, "comment": WORKERS, "assign": WORKERS, "preventive": {OPERATOR}}

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action != "list":
            queryset = queryset.prefetch_related("steps__technician", "comments__author", "link__transceivers__model")
        return queryset

    def get_serializer_class(self):
        return TicketSerializer if self.action == "list" else TicketDetailSerializer

    def _detail(self, ticket: Ticket, status_code: int = status.HTTP_200_OK, **extra) -> Response:
        fresh = self.get_queryset().get(pk=ticket.pk)
        data = {**TicketDetailSerializer(fresh, context=self.get_serializer_context()).data, **extra}
        return Response(data, status=status_code)

    def _input(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    @extend_schema(request=OpenPreventiveSerializer, responses={201: TicketDetailSerializer})
    @action(detail=False, methods=["post"])
    def preventive(self, request):
        """Open a preventive ticket for an at-risk link (operators and admins); the link stays in
        service. A 400 lists every reason it cannot (no at-risk forecast, an unresolved ticket)."""
        link = self._input(OpenPreventiveSerializer)["link"]
        ticket = open_preventive(link, request.user)
        return self._detail(ticket, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: TicketDetailSerializer, 409: CONFLICT})
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        ticket = self.get_object()
        try:
            tickets.start(ticket, request.user)
        except tickets.TicketStateError as error:
            raise Conflict(str(error)) from error
        return self._detail(ticket)

    @extend_schema(request=ActionSerializer, responses={200: TicketActedSerializer, 409: CONFLICT})
    @action(detail=True, methods=["post"])
    def act(self, request, pk=None):
        ticket = self.get_object()
        data = self._input(ActionSerializer)
        try:
            result = tickets.record_action(
                ticket, request.user, data["action_taken"], data["notes"], new_serial=data["new_serial"]
            )
        except tickets.TicketStateError as error:
            raise Conflict(str(error)) from error
        except tickets.WorkOrderNotStarted as error:
            raise ValidationError({"non_field_errors": [str(error)]}) from error
        return self._detail(ticket, link_enabled=result.link_enabled, message=result.message)

    @extend_schema(request=CommentSerializer, responses=TicketDetailSerializer)
    @action(detail=True, methods=["post"])
    def comment(self, request, pk=None):
        ticket = self.get_object()
        tickets.comment(ticket, request.user, self._input(CommentSerializer)["text"])
        return self._detail(ticket)

    @extend_schema(request=AssignSerializer, responses={200: TicketDetailSerializer, 409: CONFLICT})
    @action(detail=True, methods=["post"])
    def assign(self, request, pk=None):
        ticket = self.get_object()
        assignee = self._input(AssignSerializer)["username"]
        try:
            tickets.assign(ticket, request.user, assignee)
        except tickets.TicketStateError as error:
            raise Conflict(str(error)) from error
        return self._detail(ticket)

    @extend_schema(responses=TicketCountsSerializer)
    @action(detail=False, methods=["get"], pagination_class=None, filterset_class=None)
    def counts(self, request):
        """The nav's counts: unresolved tickets, and those assigned to the logged-in user."""
        return Response(tickets.counts(request.user))

    @extend_schema(
        parameters=[OpenApiParameter("fabric", int, description="A fabric's id; all fabrics without it")],
        responses={200: TicketMetricsSerializer},
    )
    @action(detail=False, methods=["get"], pagination_class=None, filterset_class=None)
    def metrics(self, request):
        fabric = None
        raw = request.query_params.get("fabric")
        if raw:
            fabric = Fabric.objects.filter(pk=int(raw)).first() if raw.isascii() and raw.isdigit() else None
            if fabric is None:
                raise ValidationError({"fabric": [f"no fabric with id {raw!r}"]})
        return Response(repair_metrics.metrics_now(fabric))

    @extend_schema(parameters=[MetricsHistoryQuerySerializer], responses=MetricsHistorySerializer)
    @action(detail=False, methods=["get"], url_path="metrics/history", pagination_class=None, filterset_class=None)
    def metrics_history(self, request):
        """Repair metrics per day or ISO week (UTC) over [from, to): tickets opened, resolved and
        open at each bucket's end, first-attempt success (all, followed, not followed), mean time
        to repair, links disabled for corruption, repair actions. Empty buckets are listed."""
        query = MetricsHistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        return Response(
            repair_metrics.metrics_history(params.get("fabric"), params["from"], params["to"], params["bucket"])
        )
