import django_filters

from jobs.models import Job
from lightpath.api.filters import LightpathFilterSet

from .models import CircuitSwitch, Demand


class CircuitSwitchFilterSet(LightpathFilterSet):
    class Meta:
        model = CircuitSwitch
        fields = ["fabric", "name", "zone", "port_count"]


class DemandFilterSet(LightpathFilterSet):
    class Meta:
        model = Demand
        fields = ["fabric", "name", "uploaded_by", "created", "window_count"]


class ScheduleFilterSet(LightpathFilterSet):
    demand = django_filters.NumberFilter(method="filter_demand", label="Demand id")

    class Meta:
        model = Job
        fields = ["state", "fabric", "created_by", "created"]

    def filter_demand(self, queryset, name, value):
        # The id sits in the job's params (JSON): compare with an int, not the filter's Decimal.
        return queryset.filter(params__demand=int(value))
