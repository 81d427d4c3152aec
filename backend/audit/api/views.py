from rest_framework import viewsets

from lightpath.api.viewsets import BriefModeMixin

from ..filtersets import AuditEventFilterSet
from ..models import AuditEvent
from .serializers import AuditEventSerializer


class AuditEventViewSet(BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """The audit log: read-only for every role."""

    queryset = AuditEvent.objects.select_related("user")
    serializer_class = AuditEventSerializer
    filterset_class = AuditEventFilterSet
