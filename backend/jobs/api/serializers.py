from rest_framework import serializers

from fabric.models import Fabric
from lightpath.api.serializers import BriefModelSerializer

from ..log import MAX_ENTRIES
from ..models import Job, JobLogEntry
from ..registry import KINDS, kind_names, kind_title
from .results import JobResultField


class JobSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="job-detail")
    created_by: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="username", read_only=True)
    kind = serializers.ChoiceField(choices=[])
    kind_title = serializers.SerializerMethodField(help_text='The kind in words ("CorrOpt optimization").')
    fabric = serializers.PrimaryKeyRelatedField(queryset=Fabric.objects.all(), required=False, allow_null=True)
    # Input only: an import job's params hold the whole fabric document, too big to echo
    # back on every poll of the jobs list.
    params = serializers.JSONField(required=False, write_only=True)
    result = JobResultField(read_only=True)

    class Meta:
        model = Job
        fields = [
            "id", "url", "kind", "kind_title", "state", "progress", "message", "params", "result", "error",
            "fabric", "created_by", "created", "started", "finished", "cancel_requested", "attempts",
            "worker", "heartbeat_at",
        ]  # fmt: skip
        read_only_fields = [
            "state", "progress", "message", "result", "error", "created", "started", "finished",
            "cancel_requested", "attempts", "worker", "heartbeat_at",
        ]  # fmt: skip
        brief_fields = ("id", "url", "kind", "state", "progress")

    def get_kind_title(self, job: Job) -> str:
        return kind_title(job.kind)

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


class JobLogEntrySerializer(serializers.ModelSerializer):
    """One line of a job's log (GET /api/jobs/{id}/log/)."""

    class Meta:
        model = JobLogEntry
        fields = ["id", "created_at", "level", "message"]
        read_only_fields = fields


class JobLogQuerySerializer(serializers.Serializer):
    """The log's query: entries after one already read, at most `limit` of them, oldest first."""

    after = serializers.IntegerField(
        min_value=0, default=0, help_text="Only entries with a larger id (0: from the start)."
    )
    limit = serializers.IntegerField(
        min_value=1, max_value=MAX_ENTRIES, default=500, help_text=f"At most this many entries (up to {MAX_ENTRIES})."
    )
