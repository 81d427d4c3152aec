from lightpath.api.filters import LightpathFilterSet

from .models import Job


class JobFilterSet(LightpathFilterSet):
    class Meta:
        model = Job
        fields = ["kind", "state", "fabric", "created_by", "created"]
