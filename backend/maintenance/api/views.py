from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema, inline_serializer
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import RolePermission
from accounts.roles import ADMIN, OPERATOR, PLANNER, TECHNICIAN, user_roles
from fabric.models import Fabric
from lightpath.api.exceptions import Conflict
from lightpath.api.viewsets import BriefModeMixin
from lightpath.problems import query_flag

from ..filtersets import WorkOrderFilterSet
from ..models import WorkOrder
from ..services import recovery, today, visits, work_orders
from .serializers import (
    RecoveryAppliedSerializer,
    RecoveryApplySerializer,
    RecoveryProposalSerializer,
    TodayQuerySerializer,
    TodaySerializer,
    WorkOrderDetailSerializer,
    WorkOrderFinishedSerializer,
    WorkOrderFinishSerializer,
    WorkOrderSerializer,
    WorkOrderStartPreviewSerializer,
    WorkOrderStartSerializer,
)

VISITORS = {TECHNICIAN, OPERATOR}  # and admins, who may always write
DAY_READERS = {OPERATOR, PLANNER, ADMIN}  # may read anyone's day; the others only their own
DRY_RUN = OpenApiParameter("dry_run", bool, description="decide only: 200 with the preview, nothing changed")
STATE_CONFLICT = inline_serializer(
    "WorkOrderStateConflict",
    {"detail": serializers.CharField(), "state": serializers.ChoiceField(choices=WorkOrder.State.choices)},
)


def _flag(request, name: str) -> bool:
    return query_flag(request.query_params, name)


class WorkOrderViewSet(BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """Work orders: tickets whose repairs share links, as one visit (maintenance.services). Every
    role reads them; they are made and regrouped by the tickets' service. Technicians, operators
    and admins start and finish a visit (maintenance.services.visits)."""

    queryset = work_orders.with_kinds_and_deadline(
        WorkOrder.objects.select_related("started_by", "location_link__a_switch", "location_link__z_switch")
        .prefetch_related("entries")
        .order_by("-created", "-id")
    )
    serializer_class = WorkOrderSerializer
    filterset_class = WorkOrderFilterSet
    ordering_fields = ["created", "duration_s", "state"]
    permission_classes = [RolePermission]
    write_roles = {"start": VISITORS, "finish": VISITORS}

    def _detail(self, order: WorkOrder) -> dict:
        if not hasattr(order, "deadline"):  # a visit's answer: read again with the list's annotations
            order = self.get_queryset().get(pk=order.pk)
        row = WorkOrderSerializer(order, context=self.get_serializer_context()).data
        return {**row, **work_orders.detail(order, self.request.user), "restored_links": visits.restored_links(order)}

    @extend_schema(responses={200: WorkOrderDetailSerializer})
    def retrieve(self, request, *args, **kwargs):
        return Response(self._detail(self.get_object()))

    @extend_schema(
        request=WorkOrderStartSerializer,
        parameters=[DRY_RUN],
        responses={
            200: PolymorphicProxySerializer(
                component_name="WorkOrderStartOrPreview",
                serializers=[WorkOrderDetailSerializer, WorkOrderStartPreviewSerializer],
                resource_type_field_name=None,
            ),
            409: PolymorphicProxySerializer(
                component_name="WorkOrderStartRefusal",
                serializers=[WorkOrderStartPreviewSerializer, STATE_CONFLICT],
                resource_type_field_name=None,
            ),
        },
        description="Start the visit: its footprint out of service (reason 'maintenance') through the capacity "
        "guard, with the restoration offered by the preview when one is needed, as one set; its tickets in "
        "progress. ?dry_run=1 answers the preview (safe, needs_restoration or blocked) and changes nothing. "
        "409 with the preview when the restoration is missing or changed, or the order is blocked (an admin "
        "may override with a reason); 403 when a technician starts a restoration the fabric does not allow "
        "automatically.",
    )
    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    def start(self, request, pk=None):
        order = self.get_object()
        if _flag(request, "dry_run"):
            return Response(self._visit(lambda: visits.preview(order, request.user)).as_dict())
        body = WorkOrderStartSerializer(data=request.data if request.data is not None else {})
        body.is_valid(raise_exception=True)
        options = body.validated_data
        if options["override_capacity"] and ADMIN not in user_roles(request.user):
            raise PermissionDenied("Only admins may override the capacity guard.")
        started = self._visit(
            lambda: visits.start(
                order,
                request.user,
                restoration=options.get("restoration"),
                override=options["override_capacity"],
                admin_reason=options["admin_reason"],
            )
        )
        return Response(self._detail(started))

    @extend_schema(
        request=WorkOrderFinishSerializer,
        responses={200: WorkOrderFinishedSerializer, 409: STATE_CONFLICT},
        description="End the visit. repaired: the order's action recorded on each ticket (awaiting validation, its "
        "link enabled again), the rest of the footprint enabled again, the restored links disabled again (any "
        "the guard refuses stay enabled: `detail` names them); the order is done. not_repaired: links back as "
        "before the start, tickets stay in progress with a comment, the order is open again.",
    )
    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    def finish(self, request, pk=None):
        order = self.get_object()
        body = WorkOrderFinishSerializer(data=request.data if request.data is not None else {})
        body.is_valid(raise_exception=True)
        finished = self._visit(
            lambda: visits.finish(order, request.user, body.validated_data["outcome"], body.validated_data["notes"])
        )
        return Response({**self._detail(finished.order), "detail": finished.detail})

    @staticmethod
    def _visit(call):
        """The visit services' refusals as answers."""
        try:
            return call()
        except visits.VisitStateError as exc:
            raise Conflict({"detail": str(exc), "state": exc.state}) from exc
        except visits.StartRefused as exc:
            raise Conflict(exc.preview.as_dict()) from exc
        except visits.ApprovalNeeded as exc:
            raise PermissionDenied(str(exc)) from exc


class FabricRecoveryView(APIView):
    """Capacity recovery of a fabric (maintenance.services.recovery): every role reads the
    proposal; operators and admins apply it. A fabric with auto_restore applies it by itself when
    links go down."""

    write_roles = {OPERATOR}

    @extend_schema(responses={200: RecoveryProposalSerializer})
    def get(self, request, pk: int):
        fabric = get_object_or_404(Fabric, pk=pk)
        return Response(recovery.proposal(fabric).as_dict())

    @extend_schema(
        request=RecoveryApplySerializer,
        responses={200: RecoveryAppliedSerializer, 409: RecoveryProposalSerializer},
        description="Enable exactly the proposal's links (reason 'restoration: capacity recovery'), audited. 409 "
        "with the proposal now when the links asked are not it (it changed, or there is nothing to recover).",
    )
    def post(self, request, pk: int):
        fabric = get_object_or_404(Fabric, pk=pk)
        body = RecoveryApplySerializer(data=request.data if request.data is not None else {})
        body.is_valid(raise_exception=True)
        try:
            applied = recovery.apply(fabric, request.user, body.validated_data["links"])
        except recovery.RecoveryChanged as exc:
            raise Conflict(exc.proposal.as_dict()) from exc
        enabled = applied.enabled
        detail = (
            f"Enabled {len(enabled.links)} lossy link{'s' if len(enabled.links) != 1 else ''} "
            f"(added penalty {enabled.added_penalty:.3g}). Now: {applied.after.detail}"
        )
        return Response(
            {
                "enabled": enabled.links,
                "added_penalty": enabled.added_penalty,
                "detail": detail,
                "after": applied.after.as_dict(),
            }
        )


class WorkOrderTodayView(APIView):
    """A user's day (maintenance.services.today): their visits in the newest maintenance plan
    naming them. Every role reads its own; operators, planners and admins anyone's."""

    @extend_schema(
        parameters=[TodayQuerySerializer],
        responses={200: TodaySerializer},
        description="The visits of `user` (default: you) in the newest succeeded tickets.plan job naming them "
        "(of `fabric` if given), in order, each with its work order as it is now; `plan` null when no plan "
        "names them. 400 lists every problem of the query; 403 for another's day unless operator, planner "
        "or admin.",
    )
    def get(self, request):
        query = TodayQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        user = query.validated_data.get("user", request.user)
        asked_by_self = user.pk == request.user.pk
        if not asked_by_self and not user_roles(request.user) & DAY_READERS:
            raise PermissionDenied("Only operators, planners and admins may read another user's day.")
        day = today.day_of(user.username, query.validated_data.get("fabric"), asked_by_self=asked_by_self)
        return Response(TodaySerializer(day, context={"request": request}).data)
