from rest_framework import serializers


class BriefModelSerializer(serializers.HyperlinkedModelSerializer):
    """Model serializer with NetBox's brief mode: `?brief=1` returns only Meta.brief_fields."""

    serializer_field_mapping = serializers.ModelSerializer.serializer_field_mapping
    serializer_related_field = serializers.PrimaryKeyRelatedField

    def get_fields(self):
        fields = super().get_fields()
        if self.context.get("brief"):
            brief = getattr(self.Meta, "brief_fields", ("id", "url"))
            fields = {name: field for name, field in fields.items() if name in brief}
        return fields
