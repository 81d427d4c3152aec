from lightpath.api.filters import LightpathFilterSet

from .models import WorkOrder


class WorkOrderFilterSet(LightpathFilterSet):
    class Meta:
        model = WorkOrder
        fields = ["fabric", "state", "action", "duration_s", "created"]
