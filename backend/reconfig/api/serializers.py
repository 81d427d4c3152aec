"""The answers of the ShareBackup and Larry calculators and the results of their jobs (docs/reconfig.md),
described for OpenAPI: the services build them as plain JSON, these serializers say their shape."""

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from jobs.api.results import result_of
from lightpath.api.serializers import integer_list, integer_tuple, number_list

# --- Cost comparison ---------------------------------------------------------------------------------


class PriceSheetSerializer(serializers.Serializer):
    packet_port = serializers.FloatField()
    circuit_port = serializers.FloatField()
    active_cable = serializers.FloatField()
    passive_cable = serializers.FloatField()


class CostsInputsSerializer(serializers.Serializer):
    racks = serializers.IntegerField()
    servers = serializers.IntegerField()
    static_uplinks = serializers.IntegerField()
    larry_s = serializers.IntegerField()
    larry_l = serializers.IntegerField()
    larry_r = serializers.IntegerField()
    k = serializers.IntegerField()
    pods = serializers.IntegerField()
    backups = serializers.IntegerField()
    prices = PriceSheetSerializer()


class CostRowSerializer(serializers.Serializer):
    comparison = serializers.ChoiceField(
        choices=["rack_set", "fat_tree"], help_text="Costs are normalised to the first row of the same comparison."
    )
    design = serializers.CharField()
    packet_ports = serializers.IntegerField()
    circuit_ports = serializers.IntegerField()
    active_cables = serializers.IntegerField()
    passive_cables = serializers.IntegerField()
    cost = serializers.FloatField()
    normalised_cost = serializers.FloatField(allow_null=True, help_text="null when the first row costs nothing.")


class CostsAnswerSerializer(serializers.Serializer):
    inputs = CostsInputsSerializer()
    designs = CostRowSerializer(many=True)


# --- ShareBackup pool sizing -------------------------------------------------------------------------


class MonteCarloRequestSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    horizon_hours = serializers.FloatField()


class SizeInputsSerializer(serializers.Serializer):
    k = serializers.IntegerField()
    pods = serializers.IntegerField()
    target = serializers.FloatField()
    mtbf_hours = serializers.FloatField(allow_null=True)
    mttr_hours = serializers.FloatField(allow_null=True)
    fabric = serializers.IntegerField(allow_null=True)
    window_days = serializers.FloatField()
    monte_carlo = MonteCarloRequestSerializer(allow_null=True)


class ReliabilitySerializer(serializers.Serializer):
    source = serializers.ChoiceField(choices=["given", "tickets"])  # type: ignore[assignment]  # a key, not Field.source
    mtbf_hours = serializers.FloatField()
    mttr_hours = serializers.FloatField()
    switches = serializers.IntegerField()
    failures = serializers.IntegerField()
    repairs = serializers.IntegerField()
    window_days = serializers.FloatField()
    note = serializers.CharField()


class PoolSizePointSerializer(serializers.Serializer):
    backups = serializers.IntegerField()
    p_group = serializers.FloatField()
    p_any = serializers.FloatField()


class PoolSizeSerializer(serializers.Serializer):
    unavailability = serializers.FloatField()
    group_slots = serializers.IntegerField()
    groups = serializers.IntegerField()
    backups = serializers.IntegerField()
    curve = PoolSizePointSerializer(many=True)
    degraded_hours_per_year = serializers.FloatField()


class MonteCarloPointSerializer(serializers.Serializer):
    backups = serializers.IntegerField()
    p_group = serializers.FloatField()
    estimate = serializers.FloatField()
    standard_error = serializers.FloatField()
    within_4_se = serializers.BooleanField(
        allow_null=True, help_text="null when the run never saw the group run out (too rare at that horizon)."
    )


class MonteCarloSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    horizon_hours = serializers.FloatField()
    horizon_capped = serializers.BooleanField(help_text="The server lowered the horizon to bound the run time.")
    backups = serializers.IntegerField()
    points = MonteCarloPointSerializer(many=True)


class SizeAnswerSerializer(serializers.Serializer):
    inputs = SizeInputsSerializer()
    reliability = ReliabilitySerializer()
    sizing = PoolSizeSerializer()
    monte_carlo = MonteCarloSerializer(allow_null=True)


# --- Larry feasibility -------------------------------------------------------------------------------


class RackSetSerializer(serializers.Serializer):
    static_uplinks = serializers.IntegerField()
    cables = serializers.ListField(child=integer_list(), help_text="cables[tor][cs]: passive cables from ToR to CS.")
    cs_uplinks = integer_list(help_text="Uplinks of each circuit switch to aggregation.")
    capacity_gbps = serializers.FloatField()
    excluded = serializers.ListField(
        child=integer_tuple(2), required=False, help_text="Cables out of service, one [tor, cs] entry per cable."
    )
    racks = serializers.ListField(child=serializers.CharField(), required=False)


class NamedObjectSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ExcludedCableSerializer(serializers.Serializer):
    tor = serializers.IntegerField()
    cs = serializers.IntegerField()
    rack = serializers.CharField()
    circuit_switch = serializers.CharField()
    link = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=["disabled_by_corropt", "disabled", "down", "open_ticket"])
    explanation = serializers.CharField()


class RackSetSourceSerializer(serializers.Serializer):
    fabric = NamedObjectSerializer()
    circuit_switches = NamedObjectSerializer(many=True)
    static_uplinks_per_rack = integer_list()
    excluded_cables = ExcludedCableSerializer(many=True)


class CheckMinCutSerializer(serializers.Serializer):
    racks = integer_list()
    circuit_switches = integer_list()
    capacity = serializers.IntegerField(help_text="The whole request's max flow, racks outside the cut included.")
    cables = serializers.ListField(child=integer_tuple(3), help_text="Cables crossing the cut: [tor, cs, in service].")
    explanation = serializers.CharField()
    racks_requested = serializers.IntegerField(help_text="What the racks on the cut's source side ask for.")
    racks_reach = serializers.IntegerField(help_text="The most their cables reach.")


class CheckInputsSerializer(serializers.Serializer):
    rack_set = RackSetSerializer()
    uplinks = integer_list()
    rack_set_source = RackSetSourceSerializer(required=False)


class CheckAnswerSerializer(serializers.Serializer):
    feasible = serializers.BooleanField()
    requested = integer_list()
    granted = integer_list()
    assignment = serializers.ListField(child=integer_list())
    circuits = serializers.ListField(
        child=serializers.ListField(child=integer_tuple(2)), help_text="Per CS, [ToR cable port, uplink port]."
    )
    min_cut = CheckMinCutSerializer(allow_null=True)
    total_requested = serializers.IntegerField()
    total_granted = serializers.IntegerField()
    inputs = CheckInputsSerializer()


# --- ShareBackup plan (job sharebackup.plan) ---------------------------------------------------------


class SwitchDownEventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["switch_down"])
    switch = serializers.CharField()


class LinkDownEventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["link_down"])
    a = serializers.CharField()
    b = serializers.CharField()


class RepairDoneEventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["repair_done"])
    switch = serializers.CharField()


class DiagnosisResultEventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["diagnosis_result"])
    switch = serializers.CharField()
    healthy = serializers.BooleanField()


SHAREBACKUP_EVENT = PolymorphicProxySerializer(
    component_name="ShareBackupEvent",
    serializers={
        "switch_down": SwitchDownEventSerializer,
        "link_down": LinkDownEventSerializer,
        "repair_done": RepairDoneEventSerializer,
        "diagnosis_result": DiagnosisResultEventSerializer,
    },
    resource_type_field_name="type",
)


class CircuitSwitchWiringSerializer(serializers.Serializer):
    circuit_switch = serializers.CharField()
    low_group = serializers.CharField(allow_null=True, help_text="null for the host side of a host-edge switch.")
    high_group = serializers.CharField()
    low_ports = serializers.IntegerField()
    high_ports = serializers.IntegerField()


class CircuitSwitchCircuitsSerializer(serializers.Serializer):
    circuit_switch = serializers.CharField()
    circuits = serializers.ListField(child=integer_tuple(2), help_text="[low-side port, high-side port] pairs.")


class ReplaceCallSerializer(serializers.Serializer):
    circuit_switch = serializers.CharField()
    side = serializers.ChoiceField(choices=["low", "high"])
    failed_port = serializers.IntegerField()
    backup_port = serializers.IntegerField()
    peer_port = serializers.IntegerField()
    failed_switch = serializers.CharField()
    backup_switch = serializers.CharField()


class CircuitChangeSerializer(serializers.Serializer):
    circuit_switch = serializers.CharField()
    removed = serializers.ListField(child=integer_tuple(2))
    added = serializers.ListField(child=integer_tuple(2))


class GroupPoolSerializer(serializers.Serializer):
    group = serializers.CharField()
    spares = serializers.ListField(child=serializers.CharField())
    failed = serializers.ListField(child=serializers.CharField())
    suspects = serializers.ListField(child=serializers.CharField())


class SlotFallbackSerializer(serializers.Serializer):
    slot = serializers.CharField()
    lost_links = serializers.IntegerField()
    disconnected_hosts = serializers.IntegerField()
    reroute_via = serializers.ListField(child=serializers.CharField())
    capacity_fraction = serializers.FloatField()


class DiagnosisTestSerializer(serializers.Serializer):
    suspect = serializers.CharField()
    circuit_switch = serializers.CharField()
    circuit = integer_tuple(2, allow_null=True)
    partner = serializers.CharField(allow_null=True)
    waiting_for = serializers.CharField(allow_null=True)


class MatchingSerializer(serializers.Serializer):
    circuit_switch = serializers.CharField()
    before = serializers.ListField(child=integer_tuple(2))
    after = serializers.ListField(child=integer_tuple(2))


class PlannedEventSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    event = SHAREBACKUP_EVENT
    status = serializers.ChoiceField(choices=["normal", "degraded"])
    replace_calls = ReplaceCallSerializer(many=True)
    circuit_changes = CircuitChangeSerializer(many=True)
    pools = GroupPoolSerializer(many=True, help_text="Pools after the event, of the groups it touched only.")
    degraded_groups = serializers.ListField(child=serializers.CharField())
    fallback = SlotFallbackSerializer(many=True)
    diagnosis_tests = DiagnosisTestSerializer(many=True)
    repair_tickets = serializers.ListField(child=serializers.CharField())
    latency_ms = serializers.FloatField()
    matchings = MatchingSerializer(many=True, help_text="Each changed circuit switch's circuits before and after.")


class ShareBackupFabricSerializer(serializers.Serializer):
    k = serializers.IntegerField()
    pods = serializers.IntegerField()
    backups = serializers.IntegerField()


class ShareBackupCountsSerializer(serializers.Serializer):
    hosts = serializers.IntegerField()
    active_switches = serializers.IntegerField()
    failure_groups = serializers.IntegerField()
    backup_switches = serializers.IntegerField()
    circuit_switches = serializers.IntegerField()
    circuit_ports = serializers.IntegerField()


class EventsEchoSerializer(serializers.Serializer):
    source = serializers.ChoiceField(choices=["inline", "uploaded", "synthetic"])  # type: ignore[assignment]
    count = serializers.IntegerField()
    name = serializers.CharField(required=False)
    length = serializers.IntegerField(required=False)
    seed = serializers.IntegerField(required=False)


class ShareBackupInputsSerializer(serializers.Serializer):
    k = serializers.IntegerField()
    pods = serializers.IntegerField()
    backups = serializers.IntegerField()
    reconfig_ms = serializers.FloatField()
    events = EventsEchoSerializer()
    fabric = NamedObjectSerializer(
        allow_null=True, required=False, help_text="The stored fabric planned; null: abstract."
    )


class SlotSerializer(serializers.Serializer):
    slot = serializers.CharField()
    switch = serializers.CharField()


class FailureGroupSerializer(serializers.Serializer):
    group = serializers.CharField()
    layer = serializers.ChoiceField(choices=["edge", "agg", "core"])
    slots = SlotSerializer(many=True)
    spares = serializers.ListField(child=serializers.CharField())


class VerdictSerializer(serializers.Serializer):
    sound = serializers.BooleanField()
    violations = serializers.IntegerField()
    checked_events = serializers.IntegerField()


@result_of("sharebackup.plan")
class ShareBackupResultSerializer(serializers.Serializer):
    fabric = ShareBackupFabricSerializer()
    counts = ShareBackupCountsSerializer()
    wiring = CircuitSwitchWiringSerializer(many=True)
    initial_circuits = CircuitSwitchCircuitsSerializer(many=True)
    events = PlannedEventSerializer(many=True)
    violations = serializers.ListField(
        child=serializers.CharField(), help_text="What the independent verifier found; empty when sound."
    )
    inputs = ShareBackupInputsSerializer()
    groups = FailureGroupSerializer(many=True)
    verdict = VerdictSerializer()
    stored_names = serializers.DictField(
        child=serializers.CharField(),
        allow_null=True,
        required=False,
        help_text="Of a stored fabric: each engine switch name's stored switch; null for an abstract fat tree.",
    )


# --- Larry run (job larry.run) -----------------------------------------------------------------------

LARRY_POLICIES = ["conservative", "static", "one_big_switch", "proportional"]


class LarryMetricsSerializer(serializers.Serializer):
    reconfigurations = serializers.IntegerField()
    reconfigurations_per_hour = serializers.FloatField()
    mean_fraction_changed = serializers.FloatField()
    max_fraction_changed = serializers.FloatField()
    overload_gbit = serializers.FloatField()


class LarryBaselinesSerializer(serializers.Serializer):
    """Every policy's metrics on the same counters."""

    conservative = LarryMetricsSerializer()
    static = LarryMetricsSerializer()
    one_big_switch = LarryMetricsSerializer()
    proportional = LarryMetricsSerializer()


class CircuitMoveSerializer(serializers.Serializer):
    cs = serializers.IntegerField()
    uplink = serializers.IntegerField()
    # "from" is a Python keyword: declared below.
    to = integer_tuple(2, allow_null=True, help_text="[rack, cable port] the uplink joined; null: it is free now.")


CircuitMoveSerializer._declared_fields["from"] = integer_tuple(
    2, allow_null=True, help_text="[rack, cable port] the uplink left; null: it was free."
)


class LarryChangeSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    time_s = serializers.FloatField()
    demand_gbps = number_list()
    uplinks = integer_list()
    diff = CircuitMoveSerializer(many=True)


class LarrySeriesSerializer(serializers.Serializer):
    binned = serializers.BooleanField()
    time_s = number_list()
    uplinks = serializers.ListField(child=integer_list(), help_text="uplinks[i][rack] after the step (or bin).")
    demand_gbps = serializers.ListField(child=number_list(), help_text="demand_gbps[i][rack] (binned: maximum).")


class CountersEchoSerializer(serializers.Serializer):
    source = serializers.CharField()  # type: ignore[assignment]
    name = serializers.CharField(required=False)
    samples = serializers.IntegerField()
    used_samples = serializers.IntegerField()


class LarryInputsSerializer(serializers.Serializer):
    rack_set = RackSetSerializer()
    rack_set_source = RackSetSourceSerializer(required=False)
    period_s = serializers.FloatField(allow_null=True)
    threshold = serializers.FloatField()
    policy = serializers.ChoiceField(choices=LARRY_POLICIES)
    counters = CountersEchoSerializer()


@result_of("larry.run")
class LarryResultSerializer(serializers.Serializer):
    inputs = LarryInputsSerializer()
    racks = serializers.ListField(child=serializers.CharField())
    policy = serializers.ChoiceField(choices=LARRY_POLICIES)
    initial_uplinks = integer_list()
    initial_circuits = serializers.ListField(child=serializers.ListField(child=integer_tuple(2)))
    metrics = LarryMetricsSerializer()
    baselines = LarryBaselinesSerializer()
    series = LarrySeriesSerializer()
    changes = LarryChangeSerializer(many=True)
    changes_truncated = serializers.IntegerField()
    total_circuits = serializers.IntegerField()
