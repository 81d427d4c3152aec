from typing import Any

from django.db import transaction
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from fabric.models import Link, Switch
from jobs.api.results import result_of
from jobs.api.serializers import JobListSerializer, JobSerializer
from lightpath.api.serializers import BriefModelSerializer

from .. import services
from ..models import CircuitAttachment, CircuitSwitch, Demand


def _port_state_cache(serializer: serializers.Field) -> dict[int, services.PortState]:
    """Port states of every attachment of the response, computed once (two queries for a whole list
    page, not two per switch) and shared by its fields."""
    root = serializer.root
    cache: dict[int, services.PortState] | None = getattr(root, "_port_states", None)
    if cache is None:
        shown = root.instance
        switches = [shown] if isinstance(shown, CircuitSwitch) else list(shown or [])
        cache = services.port_states(a for switch in switches for a in switch.attachments.all())
        root._port_states = cache  # type: ignore[attr-defined]
    return cache


# A circuit carries at most 100 Tb/s (as Larry's rack sets): the UI's switch form checks the same.
MAX_CIRCUIT_CAPACITY_GBPS = 1e5


class PortUnavailableSerializer(serializers.Serializer):
    link = serializers.IntegerField()
    reason = serializers.CharField(help_text="disabled, down or open_ticket.")


class DemandWindowSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    start_s = serializers.FloatField()
    rows = serializers.IntegerField()
    total_bytes = serializers.FloatField()


class MatrixRackSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class DemandMatrixSerializer(serializers.Serializer):
    """GET /api/demands/{id}/matrix/: sparse directed cells [row, column, bytes] into `racks`."""

    window = serializers.IntegerField()
    start_s = serializers.FloatField()
    window_total_bytes = serializers.FloatField()
    shown_bytes = serializers.FloatField()
    racks = MatrixRackSerializer(many=True)
    cells = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=3, max_length=3),
        help_text="[row, column, bytes].",
    )
    racks_with_demand = serializers.IntegerField()
    truncated = serializers.BooleanField()


class ScheduledObjectSerializer(serializers.Serializer):
    """A demand or circuit switch a schedule used; `deleted`: gone since (the name is then the one the
    finished schedule stored, null if none)."""

    id = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    deleted = serializers.BooleanField()


class ScheduleSummarySerializer(serializers.Serializer):
    slots = serializers.IntegerField()
    optical_ratio = serializers.FloatField()
    uniform_ratio = serializers.FloatField()
    gap = serializers.FloatField()
    runtime_s = serializers.FloatField()


class AttachmentSerializer(serializers.ModelSerializer):
    tor: serializers.PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField(queryset=Switch.objects.all())
    tor_name = serializers.CharField(source="tor.name", read_only=True)
    links: serializers.PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField(
        queryset=Link.objects.all(), many=True, required=False
    )
    available_ports = serializers.SerializerMethodField()
    unavailable = serializers.SerializerMethodField()

    class Meta:
        model = CircuitAttachment
        fields = ["tor", "tor_name", "optical_ports", "links", "available_ports", "unavailable"]

    def _state(self, attachment) -> services.PortState:
        states = _port_state_cache(self)
        if attachment.pk not in states:  # rendered outside a switch's response
            states.update(services.port_states([attachment]))
        return states[attachment.pk]

    def get_available_ports(self, attachment) -> int:
        return self._state(attachment).available

    @extend_schema_field(PortUnavailableSerializer(many=True))
    def get_unavailable(self, attachment) -> list[dict[str, Any]]:
        return self._state(attachment).unavailable


class CircuitSwitchSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="circuitswitch-detail")
    attachments = AttachmentSerializer(many=True, required=False)
    attach_all_tors = serializers.BooleanField(
        write_only=True, required=False, default=False, help_text="Attach every ToR of the fabric with 1 port."
    )
    ports_attached = serializers.SerializerMethodField()
    ports_available = serializers.SerializerMethodField()

    class Meta:
        model = CircuitSwitch
        fields = [
            "id", "url", "fabric", "name", "zone", "port_count", "dark_time_s", "capacity_gbps", "description",
            "attachments", "attach_all_tors", "ports_attached", "ports_available", "created", "updated",
        ]  # fmt: skip
        brief_fields = ("id", "url", "name", "zone", "fabric")
        extra_kwargs = {
            "dark_time_s": {"max_value": 10.0},
            "capacity_gbps": {"min_value": 1e-9, "max_value": MAX_CIRCUIT_CAPACITY_GBPS},
        }
        # The name's uniqueness in its fabric is checked in validate(), at the name with every other
        # problem; DRF's own unique-together check answered first, for the whole form, "The fields
        # fabric, name must make a unique set." (trial 30). The database constraint still holds.
        validators: list = []

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None and "fabric" in fields and not isinstance(self.instance, list):
            fields["fabric"].read_only = True  # attachments belong to the fabric it was made for
        return fields

    def get_ports_attached(self, switch) -> int:
        return sum(a.optical_ports for a in switch.attachments.all())

    def get_ports_available(self, switch) -> int:
        states = _port_state_cache(self)
        attachments = list(switch.attachments.all())
        if any(a.pk not in states for a in attachments):  # rendered outside a switch's response
            states.update(services.port_states(attachments))
        return sum(states[a.pk].available for a in attachments)

    def validate(self, attrs):
        fabric = attrs.get("fabric") or getattr(self.instance, "fabric", None)
        if fabric is None:
            return attrs
        if attrs.get("attach_all_tors") and "attachments" not in attrs:
            attrs["attachments"] = services.all_tor_attachments(fabric)
        port_count = attrs.get("port_count", getattr(self.instance, "port_count", None))
        if "attachments" in attrs:
            attachments = attrs["attachments"]
        elif self.instance is not None:
            attachments = [
                {"tor": a.tor, "optical_ports": a.optical_ports, "links": list(a.links.all())}
                for a in self.instance.attachments.select_related("tor")
            ]
        else:
            attachments = []
        problems = services.attachment_problems(fabric, port_count, attachments)
        name = attrs.get("name", getattr(self.instance, "name", None))
        clash = CircuitSwitch.objects.filter(fabric=fabric, name=name)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            problems.setdefault("name", []).append(f"fabric {fabric.name!r} already has a circuit switch {name!r}")
        if problems:
            raise serializers.ValidationError(problems)
        return attrs

    @transaction.atomic
    def create(self, validated_data):
        attachments = validated_data.pop("attachments", [])
        validated_data.pop("attach_all_tors", None)
        switch = CircuitSwitch.objects.create(**validated_data)
        services.replace_attachments(switch, attachments)
        return switch

    @transaction.atomic
    def update(self, instance, validated_data):
        attachments = validated_data.pop("attachments", None)
        validated_data.pop("attach_all_tors", None)
        for key, value in validated_data.items():
            setattr(instance, key, value)
        instance.save()
        if attachments is not None:
            services.replace_attachments(instance, attachments)
        return instance


class DemandSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="demand-detail")
    uploaded_by: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Demand
        fields = [
            "id", "url", "fabric", "name", "description", "uploaded_by", "created", "window_s", "first_window_start",
            "window_count", "row_count", "rack_count", "total_bytes",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "name", "fabric")


class DemandDetailSerializer(DemandSerializer):
    windows = serializers.SerializerMethodField()

    class Meta(DemandSerializer.Meta):
        fields = [*DemandSerializer.Meta.fields, "windows"]
        read_only_fields = fields

    @extend_schema_field(DemandWindowSerializer(many=True))
    def get_windows(self, demand) -> list[dict[str, Any]]:
        return services.window_totals(demand)


@extend_schema_field(
    {
        "oneOf": [{"type": "number"}, {"type": "string"}],
        "description": "The window's start: seconds, or an ISO 8601 time.",
    }
)
class WindowStartField(serializers.Field):
    """Seconds or an ISO 8601 time, as the CSV's window_start column."""


class DemandRowSerializer(serializers.Serializer):
    """One JSON row of an upload, as the CSV's columns (documentation: the service checks each row
    and lists every problem by entry)."""

    src = serializers.CharField(help_text="A ToR's name.")
    dst = serializers.CharField(help_text="A ToR's name, not src.")
    bytes = serializers.IntegerField(min_value=0, max_value=2**63 - 1, help_text="Bytes from src to dst.")
    window_start = WindowStartField()


class DemandUploadSerializer(serializers.Serializer):
    """The upload's form (documentation and the form fields; the rows are checked by the service)."""

    fabric = serializers.IntegerField()
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(required=False, allow_blank=True)
    window_s = serializers.FloatField(required=False, allow_null=True)
    csv = serializers.CharField(required=False, help_text="CSV text: src,dst,bytes,window_start")
    rows = DemandRowSerializer(many=True, required=False, help_text="Instead of csv: the rows as JSON.")
    file = serializers.FileField(required=False, help_text="multipart: a CSV or JSON file")


# A body only: named so that its component is `ScheduleRequest` (COMPONENT_SPLIT_REQUEST adds "Request").
@extend_schema_serializer(component_name="Schedule")
class ScheduleRequestSerializer(serializers.Serializer):
    demand = serializers.IntegerField()
    circuit_switch = serializers.IntegerField(required=False, allow_null=True)
    zone = serializers.CharField(required=False, allow_null=True)
    params = serializers.DictField(required=False)


SCHEDULE_FIELDS = ["demand", "circuit_switches", "zone", "algorithm", "mode", "summary"]


class _ScheduleFields(serializers.Serializer):
    """What a schedule job adds to the job: its demand, switches, algorithm, mode and a summary.
    Names come from the view's context (one query per page, not per job)."""

    demand = serializers.SerializerMethodField()
    circuit_switches = serializers.SerializerMethodField()
    zone = serializers.SerializerMethodField()
    algorithm = serializers.SerializerMethodField()
    mode = serializers.SerializerMethodField()
    summary = serializers.SerializerMethodField()

    @extend_schema_field(ScheduledObjectSerializer)
    def get_demand(self, job) -> dict[str, Any]:
        """`deleted`: the demand is gone; the name is then the one the finished schedule stored."""
        demand_id = (job.params or {}).get("demand")
        name = self.context.get("demand_names", {}).get(demand_id)
        if name is not None:
            return {"id": demand_id, "name": name, "deleted": False}
        return {"id": demand_id, "name": getattr(job, "stored_demand_name", None), "deleted": True}

    @extend_schema_field(ScheduledObjectSerializer(many=True))
    def get_circuit_switches(self, job) -> list[dict[str, Any]]:
        """As `demand`: a deleted switch keeps the name its finished schedule stored."""
        names = self.context.get("switch_names", {})
        stored = {s.get("id"): s.get("name") for s in getattr(job, "stored_switches", None) or []}
        return [
            {"id": pk, "name": names.get(pk, stored.get(pk)), "deleted": pk not in names}
            for pk in (job.params or {}).get("circuit_switches", [])
        ]

    def get_zone(self, job) -> str | None:
        return (job.params or {}).get("zone")

    def get_algorithm(self, job) -> str | None:
        return ((job.params or {}).get("params") or {}).get("algorithm")

    def get_mode(self, job) -> str | None:
        return ((job.params or {}).get("params") or {}).get("mode")

    @extend_schema_field(ScheduleSummarySerializer(allow_null=True))
    def get_summary(self, job) -> dict[str, Any] | None:
        """From the annotations of the view's queryset, so a list never loads whole results."""
        metrics = getattr(job, "summary_metrics", None)
        if not metrics:
            return None
        keys = ("optical_ratio", "uniform_ratio", "gap", "runtime_s")
        return {"slots": getattr(job, "slot_count", None), **{key: metrics.get(key) for key in keys}}


class ScheduleListSerializer(_ScheduleFields, JobListSerializer):
    class Meta(JobListSerializer.Meta):
        fields = [*JobListSerializer.Meta.fields, *SCHEDULE_FIELDS]


class ScheduleSerializer(_ScheduleFields, JobSerializer):
    class Meta(JobSerializer.Meta):
        fields = [*JobSerializer.Meta.fields, *SCHEDULE_FIELDS]


# --- The circuits.schedule job's result (circuits/schedule/run.py), described for OpenAPI -----------


class CircuitSerializer(serializers.Serializer):
    """A circuit between racks a and b (rack indices); count > 1 for parallel circuits."""

    a = serializers.IntegerField()
    b = serializers.IntegerField()
    count = serializers.IntegerField()


class CircuitSlotSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    t0 = serializers.FloatField()
    t1 = serializers.FloatField()
    circuits = CircuitSerializer(many=True)
    changed_ports = serializers.ListField(
        child=serializers.IntegerField(), help_text="Racks whose port goes dark at t0 (once per dark port)."
    )
    weight = serializers.FloatField()
    bound = serializers.FloatField()
    offloaded_bytes = serializers.FloatField()
    algorithm = serializers.CharField()
    exact = serializers.BooleanField()
    maximal = serializers.BooleanField()


class VisitDelayBinSerializer(serializers.Serializer):
    min_slots = serializers.IntegerField()
    max_slots = serializers.IntegerField()
    min_s = serializers.FloatField()
    max_s = serializers.FloatField()
    pairs = serializers.IntegerField()


class CircuitMetricsSerializer(serializers.Serializer):
    total_bytes = serializers.FloatField()
    offloaded_bytes = serializers.FloatField()
    optical_ratio = serializers.FloatField()
    uniform_ratio = serializers.FloatField()
    visit_delay_max_slots = serializers.FloatField()
    visit_delay_p95_slots = serializers.FloatField()
    visit_delay_histogram = VisitDelayBinSerializer(
        many=True, required=False, help_text="Absent from results computed before it existed."
    )
    flap_count = serializers.IntegerField()
    weight = serializers.FloatField()
    bound = serializers.FloatField()
    gap = serializers.FloatField()
    fallback_slots = serializers.IntegerField()
    runtime_s = serializers.FloatField()


class ComparisonMetricsSerializer(CircuitMetricsSerializer):
    algorithm = serializers.CharField()


class EdgeGroupSerializer(serializers.Serializer):
    name = serializers.CharField()
    pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    )
    bonus_bytes = serializers.FloatField()


class EdgeGroupScoreSerializer(EdgeGroupSerializer):
    completed_slots = serializers.IntegerField()
    bonus_earned_bytes = serializers.FloatField()


class ScheduleParamsEchoSerializer(serializers.Serializer):
    """The job's params, completed with the server's defaults."""

    period_s = serializers.FloatField()
    dark_time_s = serializers.FloatField(allow_null=True)
    capacity_gbps = serializers.FloatField()
    reconfig = serializers.ChoiceField(choices=["per_port", "global"])
    mode = serializers.ChoiceField(choices=["replay", "drain"])
    algorithm = serializers.CharField()
    seed = serializers.IntegerField()
    min_demand_bytes = serializers.FloatField()
    burst_active = serializers.FloatField()
    burst_reset = serializers.FloatField()
    hysteresis = serializers.FloatField()
    time_budget_s = serializers.FloatField(allow_null=True)
    max_slots = serializers.IntegerField()
    compare = serializers.ListField(child=serializers.CharField())
    edge_groups = EdgeGroupSerializer(many=True)


@extend_schema_field(
    {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": {
            "oneOf": [
                {
                    "type": "array",
                    "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
                },
                {"type": "number"},
            ]
        },
        "description": "[[[rack a, rack b], ...], bonus bytes], by rack index.",
    }
)
class EdgeGroupInputField(serializers.JSONField):
    pass


class ScheduleInputSerializer(serializers.Serializer):
    """What the engine was given."""

    racks = serializers.IntegerField()
    ports = serializers.ListField(child=serializers.IntegerField())
    zones = serializers.ListField(child=serializers.IntegerField())
    capacity_bytes_per_s = serializers.FloatField()
    period_s = serializers.FloatField()
    dark_time_s = serializers.FloatField()
    reconfig = serializers.ChoiceField(choices=["per_port", "global"])
    mode = serializers.ChoiceField(choices=["replay", "drain"])
    algorithm = serializers.CharField()
    seed = serializers.IntegerField()
    min_demand_bytes = serializers.FloatField()
    burst_active = serializers.FloatField()
    burst_reset = serializers.FloatField()
    hysteresis = serializers.FloatField()
    time_budget_s = serializers.FloatField(allow_null=True)
    max_slots = serializers.IntegerField()
    groups = serializers.ListField(child=EdgeGroupInputField(), required=False)
    windows = serializers.ListField(
        child=serializers.ListField(
            child=serializers.ListField(child=serializers.FloatField(), min_length=3, max_length=3)
        ),
        allow_null=True,
        help_text="Demand per period, directed [a, b, bytes] by rack index; null when too large to echo.",
    )


class ScheduleRackSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    id = serializers.IntegerField()
    name = serializers.CharField()
    circuit_switch = serializers.IntegerField()
    optical_ports = serializers.IntegerField()
    available_ports = serializers.IntegerField()
    unavailable = PortUnavailableSerializer(many=True)


class ScheduleDemandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    window_s = serializers.FloatField()
    first_window_start = serializers.FloatField()


class ScheduleFabricSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ScheduleCircuitSwitchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    zone = serializers.CharField()
    port_count = serializers.IntegerField()


class IgnoredDemandSerializer(serializers.Serializer):
    rows = serializers.IntegerField()
    bytes = serializers.FloatField()


@result_of("circuits.schedule")
class ScheduleResultSerializer(serializers.Serializer):
    demand = ScheduleDemandSerializer()
    fabric = ScheduleFabricSerializer()
    circuit_switches = ScheduleCircuitSwitchSerializer(many=True)
    racks = ScheduleRackSerializer(many=True)
    params = ScheduleParamsEchoSerializer()
    input = ScheduleInputSerializer()
    ignored = IgnoredDemandSerializer()
    slots = CircuitSlotSerializer(many=True)
    metrics = CircuitMetricsSerializer()
    comparison = ComparisonMetricsSerializer(many=True)
    edge_groups = EdgeGroupScoreSerializer(many=True)
