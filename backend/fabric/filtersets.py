import django_filters
from django.db.models import Q, QuerySet

from lightpath.api.filters import LightpathFilterSet

from .models import Fabric, Link, Switch, Transceiver, TransceiverModel


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
