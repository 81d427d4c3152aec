from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from lightpath.api.filters import LightpathFilterSet, MultiValueIntegerFilter

from .models import WorkOrder


class WorkOrderFilterSet(LightpathFilterSet):
    class Meta:
        model = WorkOrder
        fields = ["fabric", "state", "action", "duration_s", "created"]

    # The link page names the order that takes its link down (its footprint holds its tickets' links too).
    link = MultiValueIntegerFilter(method="filter_link", label="Link ids: orders whose footprint holds one of them")

    @extend_schema_field(OpenApiTypes.INT64)  # each value
    def filter_link(self, queryset, name, value):
        if not value:
            return queryset
        # An id beyond bigint names no link (and PostgreSQL would refuse it in the array).
        ids = [number for number in map(int, value) if -(2**63) <= number < 2**63]
        return queryset.filter(footprint__overlap=ids) if ids else queryset.none()
