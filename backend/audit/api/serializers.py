from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .. import words
from ..models import AuditEvent


class AuditChangeSerializer(serializers.Serializer):
    """One field an update changed, in words ("state", "In progress", "Awaiting validation")."""

    field = serializers.CharField()
    before = serializers.CharField()
    after = serializers.CharField()


class AuditEventListSerializer(serializers.ListSerializer):
    """Reads the usernames the page's changes name with one query (not one per row)."""

    usernames: dict[int, str] | None = None

    def to_representation(self, data):
        events = list(data.all() if hasattr(data, "all") else data)
        self.usernames = words.usernames_in(events)  # each row's get_changes reads it
        return super().to_representation(events)


class AuditEventSerializer(serializers.ModelSerializer):
    user: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="username", read_only=True)
    object_type_label = serializers.SerializerMethodField()
    changes = serializers.SerializerMethodField()

    class Meta:
        model = AuditEvent
        list_serializer_class = AuditEventListSerializer
        fields = [
            "id",
            "user",
            "action",
            "object_type",
            "object_type_label",
            "object_id",
            "object_repr",
            "before",
            "after",
            "changes",
            "note",
            "timestamp",
        ]

    def get_object_type_label(self, event: AuditEvent) -> str:
        return words.object_type_label(event.object_type)

    @extend_schema_field(AuditChangeSerializer(many=True))
    def get_changes(self, event: AuditEvent) -> list[dict[str, str]]:
        usernames = getattr(self.parent, "usernames", None)
        if usernames is None:  # one event (the detail): its own usernames
            usernames = words.usernames_in([event])
        return words.changes(event, usernames)
