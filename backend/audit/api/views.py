from rest_framework import viewsets

from lightpath.api.export import CsvColumn, CsvExportMixin
from lightpath.api.viewsets import BriefModeMixin

from .. import words
from ..filtersets import AuditEventFilterSet
from ..models import AuditEvent
from .serializers import AuditEventSerializer


class AuditEventViewSet(CsvExportMixin, BriefModeMixin, viewsets.ReadOnlyModelViewSet):
    """The audit log: read-only for every role."""

    queryset = AuditEvent.objects.select_related("user")
    serializer_class = AuditEventSerializer
    filterset_class = AuditEventFilterSet
    ordering_fields = ["id", "timestamp", "user__username", "action", "object_type", "object_id"]
    csv_name = "audit"
    csv_columns = (
        CsvColumn("Time", "timestamp"),
        CsvColumn("Who", "user"),
        CsvColumn("Action", "action"),
        CsvColumn("Object type", "object_type_label"),
        CsvColumn("Object id", "object_id"),
        CsvColumn("Object", "object_repr"),
        CsvColumn("What changed", "changes", number=words.change_text),
        CsvColumn("Note", "note"),
    )
