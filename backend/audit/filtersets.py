from lightpath.api.filters import LightpathFilterSet, MultiValueCharFilter

from .models import AuditEvent


class AuditEventFilterSet(LightpathFilterSet):
    # Who, by name (the audit page types a name, not a user id); repeated means any of them.
    username = MultiValueCharFilter(field_name="user__username", label="Who made the change (username)")

    class Meta:
        model = AuditEvent
        fields = ["user", "action", "object_type", "object_id", "timestamp"]
