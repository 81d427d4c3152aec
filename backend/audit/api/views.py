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
        # Keys are the page's columns (`columns=`).
        CsvColumn("Time", "timestamp", key="time"),
        CsvColumn("Who", "user", key="who"),
        CsvColumn("Action", "action"),
        CsvColumn("Object type", "object_type_label", key="object_type"),
        CsvColumn("Object id", "object_id", key="object"),
        CsvColumn("Object", "object_repr", key="object"),
        CsvColumn("What changed", "changes", number=words.change_text, key="change"),
        CsvColumn("Note", "note"),
    )
