from rest_framework import serializers

from fabric.models import Fabric
from lightpath.api.serializers import BriefModelSerializer

from ..models import Job
from ..registry import KINDS, kind_names


class JobSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="job-detail")
    created_by: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="username", read_only=True)
    kind = serializers.ChoiceField(choices=[])
    fabric = serializers.PrimaryKeyRelatedField(queryset=Fabric.objects.all(), required=False, allow_null=True)
    # Input only: an import job's params hold the whole fabric document, too big to echo
    # back on every poll of the jobs list.
    params = serializers.JSONField(required=False, write_only=True)

    class Meta:
        model = Job
        fields = [
            "id", "url", "kind", "state", "progress", "message", "params", "result", "error",
            "fabric", "created_by", "created", "started", "finished", "cancel_requested", "attempts",
            "worker", "heartbeat_at",
        ]  # fmt: skip
        read_only_fields = [
            "state", "progress", "message", "result", "error", "created", "started", "finished",
            "cancel_requested", "attempts", "worker", "heartbeat_at",
        ]  # fmt: skip
        brief_fields = ("id", "url", "kind", "state", "progress")

    def get_fields(self):
        fields = super().get_fields()
        if "kind" in fields:
            fields["kind"].choices = kind_names()
        return fields

    def validate(self, attrs):
        kind = KINDS[attrs["kind"]]
        if kind.needs_fabric and attrs.get("fabric") is None:
            raise serializers.ValidationError({"fabric": [f"job kind '{kind.name}' needs a fabric"]})
        return attrs


class JobListSerializer(JobSerializer):
    """The jobs list leaves out each job's result: a simulation's runs and series can be hundreds
    of kilobytes, and the Jobs page polls the list. GET /api/jobs/{id}/ (or its result/) has it."""

    class Meta(JobSerializer.Meta):
        fields = [field for field in JobSerializer.Meta.fields if field != "result"]
