from lightpath.api.filters import LightpathFilterSet

from .models import AuditEvent


class AuditEventFilterSet(LightpathFilterSet):
    class Meta:
        model = AuditEvent
        fields = ["user", "action", "object_type", "object_id", "timestamp"]
