import datetime as dt

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils import timezone

from lightpath.api.filters import LightpathFilterSet
from telemetry.models import LinkForecast
from telemetry.services import forecasts

from .models import Fabric, Link, Switch, Transceiver, TransceiverModel
from .services.corrupting import corrupting_in_service

# The furthest a forecast is reported is 4 horizons of at most 60 days.
MAX_CROSSING_WITHIN_DAYS = 365


class StrictBooleanField(forms.NullBooleanField):
    """true/false (1/0): any other value is a problem, where Django's field would read it as absent."""

    widget = forms.TextInput  # NullBooleanSelect reads an unknown value as absent before the field sees it

    def to_python(self, value):
        if value in (None, ""):
            return None
        if str(value).lower() in ("true", "1"):
            return True
        if str(value).lower() in ("false", "0"):
            return False
        raise forms.ValidationError(f"must be true or false, got {value!r}", code="invalid")

    def validate(self, value):
        pass


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = StrictBooleanField


class FabricFilterSet(LightpathFilterSet):
    class Meta:
        model = Fabric
        fields = ["name", "capacity_constraint", "created"]


class SwitchFilterSet(LightpathFilterSet):
    class Meta:
        model = Switch
        fields = ["fabric", "name", "tier", "pod", "plane", "rack", "vendor", "model", "capacity_constraint"]


class LinkFilterSet(LightpathFilterSet):
    switch = django_filters.ModelMultipleChoiceFilter(
        # field_name only tells the schema the values are switch ids; the method filters both ends.
        field_name="a_switch",
        queryset=Switch.objects.all(),
        method="filter_switch",
        label="Either end",
    )
    # Predictive optics (telemetry.LinkForecast): the link's forecast, if it has one.
    at_risk = StrictBooleanFilter(method="filter_at_risk", label="Its optics forecast says at risk (or not)")
    risk_cause = django_filters.MultipleChoiceFilter(
        field_name="forecast__cause", choices=LinkForecast.Cause.choices, label="Its forecast's probable cause"
    )
    corrupting_in_service = StrictBooleanFilter(
        method="filter_corrupting_in_service", label="Enabled, up and corrupting now (what Health counts)"
    )
    crossing_within_days = django_filters.NumberFilter(
        method="filter_crossing_within",
        min_value=0,
        max_value=MAX_CROSSING_WITHIN_DAYS,
        label="Its optics are forecast to cross their limit within this many days from now",
    )

    class Meta:
        model = Link
        fields = [
            "fabric", "a_switch", "z_switch", "admin_state", "oper_state", "fiber", "speed_gbps", "length_m", "health",
            "rx_low",
        ]  # fmt: skip

    @classmethod
    def get_filters(cls):
        filters = super().get_filters()
        # Every filter is on a link's own single-valued fields, so no row can repeat; the
        # multiple-choice filters' default DISTINCT made PostgreSQL sort all of a fabric's links on
        # every column for each page and again for its count (BENCHMARKS.md, "Link list").
        for item in filters.values():
            item.distinct = False
        return filters

    def filter_queryset(self, queryset):
        # A switch or fabric parameter the request does not carry cleans to an empty queryset, and
        # each filter's "if not value" compiled it to SQL to find that out (six per request, a third
        # of the filter's CPU); such a filter filters nothing, so it is skipped.
        for name, value in self.form.cleaned_data.items():
            if isinstance(value, QuerySet) and value.query.is_empty():
                continue
            queryset = self.filters[name].filter(queryset, value)
        return queryset

    def filter_at_risk(self, queryset, name, value):
        if value is None:
            return queryset
        at_risk = forecasts.at_risk_q("forecast__", "")  # the one rule: forecast at risk, link not failed
        return queryset.filter(at_risk) if value else queryset.exclude(at_risk)

    def filter_corrupting_in_service(self, queryset, name, value):
        if value is None:
            return queryset
        corrupting = corrupting_in_service(queryset)
        return corrupting if value else queryset.exclude(pk__in=corrupting.values("pk"))

    def filter_crossing_within(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.filter(forecast__crossing_at__lte=timezone.now() + dt.timedelta(days=float(value)))

    def filter_switch(self, queryset, name, value):
        if not value:
            return queryset
        return queryset.filter(Q(a_switch__in=value) | Q(z_switch__in=value))


class TransceiverModelFilterSet(LightpathFilterSet):
    class Meta:
        model = TransceiverModel
        fields = ["name", "speed_gbps", "fiber", "reach_m"]


class TransceiverFilterSet(LightpathFilterSet):
    fabric = django_filters.NumberFilter(field_name="link__fabric")

    class Meta:
        model = Transceiver
        fields = ["link", "side", "model", "serial"]
