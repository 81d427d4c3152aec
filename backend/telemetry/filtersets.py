import django_filters

from lightpath.api.filters import LightpathFilterSet

from .models import CorruptionEvent, PowerThreshold


class CorruptionEventFilterSet(LightpathFilterSet):
    fabric = django_filters.NumberFilter(field_name="link__fabric")
    open = django_filters.BooleanFilter(field_name="ended_at", lookup_expr="isnull", label="Still corrupting")

    class Meta:
        model = CorruptionEvent
        fields = ["link", "direction", "rate", "first_seen", "last_seen", "ended_at"]


class PowerThresholdFilterSet(LightpathFilterSet):
    fabric = django_filters.NumberFilter(field_name="link__fabric")

    class Meta:
        model = PowerThreshold
        fields = ["link", "side", "source"]
