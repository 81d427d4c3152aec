from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.response import Response

from accounts.permissions import RolePermission
from lightpath.api.viewsets import BriefModeMixin

from ..filtersets import WorkOrderFilterSet
from ..models import WorkOrder
from ..services import work_orders
from .serializers import WorkOrderDetailSerializer, WorkOrderSerializer


class WorkOrderViewSet(BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """Work orders: tickets whose repairs share links, as one visit (maintenance.services). Every
    role reads them; they are made and regrouped by the tickets' service, never written here
    (starting and finishing one comes with the capacity restoration)."""

    queryset = WorkOrder.objects.prefetch_related("entries").order_by("-created", "-id")
    serializer_class = WorkOrderSerializer
    filterset_class = WorkOrderFilterSet
    ordering_fields = ["created", "duration_s", "state"]
    permission_classes = [RolePermission]
    write_roles: set[str] = set()  # read-only: every role reads, nobody writes

    @extend_schema(responses={200: WorkOrderDetailSerializer})
    def retrieve(self, request, *args, **kwargs):
        order = self.get_object()
        context = self.get_serializer_context()
        row = WorkOrderSerializer(order, context=context).data
        return Response({**row, **work_orders.detail(order, request.user)})
