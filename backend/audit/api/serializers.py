from rest_framework import serializers

from ..models import AuditEvent


class AuditEventSerializer(serializers.ModelSerializer):
    user: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = AuditEvent
        fields = [
            "id",
            "user",
            "action",
            "object_type",
            "object_id",
            "object_repr",
            "before",
            "after",
            "note",
            "timestamp",
        ]
