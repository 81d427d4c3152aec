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


# Fields that describe JSON answers built by services (job results, calculators) for OpenAPI.


def number_list(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.FloatField(), **kwargs)


def integer_list(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


def integer_tuple(size: int, **kwargs) -> serializers.ListField:
    """A fixed-length list of integers, e.g. a circuit [low port, high port] (a tuple in TypeScript)."""
    return serializers.ListField(child=serializers.IntegerField(), min_length=size, max_length=size, **kwargs)


def number_tuple(size: int, **kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.FloatField(), min_length=size, max_length=size, **kwargs)
