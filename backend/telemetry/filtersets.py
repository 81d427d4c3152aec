import datetime as dt

import django_filters
from django.utils import timezone

from fabric.filtersets import MAX_CROSSING_WITHIN_DAYS, StrictBooleanFilter
from lightpath.api.filters import LightpathFilterSet

from .models import CorruptionEvent, LinkForecast, PowerThreshold
from .services import forecasts


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


class LinkForecastFilterSet(LightpathFilterSet):
    """The at-risk list's filters, as GET /api/links/ reads them (`at_risk`, `crossing_within_days`);
    `cause` repeated means any of them."""

    at_risk = StrictBooleanFilter(
        method="filter_at_risk",
        label="At risk (or not): the forecast says so and the link has not failed yet (not corrupting, not out "
        "of service for corruption: such a link belongs to its repair ticket)",
    )
    failed = StrictBooleanFilter(
        method="filter_failed",
        label="The link has failed already (corrupting, or out of service for corruption; its forecast is no "
        "more a forecast: the link belongs to its repair ticket) or not",
    )
    crossing_within_days = django_filters.NumberFilter(
        method="filter_crossing_within",
        min_value=0,
        max_value=MAX_CROSSING_WITHIN_DAYS,
        label="Forecast to cross the limit within this many days from now",
    )

    class Meta:
        model = LinkForecast
        fields = ["fabric", "link", "cause", "side", "quantity", "crossing_at", "confidence"]

    def filter_at_risk(self, queryset, name, value):
        if value is None:
            return queryset
        at_risk = forecasts.at_risk_q()
        return queryset.filter(at_risk) if value else queryset.exclude(at_risk)

    def filter_failed(self, queryset, name, value):
        if value is None:
            return queryset
        failed = forecasts.failed_q("link__")
        return queryset.filter(failed) if value else queryset.exclude(failed)

    def filter_crossing_within(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.filter(crossing_at__lte=timezone.now() + dt.timedelta(days=float(value)))
