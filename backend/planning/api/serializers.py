"""The RAIL planner's job results (docs/rail.md), described for OpenAPI: the engine's plan plus the
server's inputs, and the reliability classes. The services build them as plain JSON."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fabric.api.serializers import StretchEntrySerializer
from fabric.models import Fiber
from jobs.api.results import result_of
from jobs.api.serializers import JobSerializer
from lightpath.api.serializers import number_list


class CostLineSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=["transceivers", "fiber", "switch_ports", "power"])
    item = serializers.CharField(help_text='A technology name for transceivers, MMF/SMF for fiber, "ports", "energy".')
    unit_usd = serializers.FloatField()
    unit = serializers.ChoiceField(choices=["part", "m", "port", "kWh"])
    quantity = serializers.FloatField()
    total_usd = serializers.FloatField()


class CostBreakdownSerializer(serializers.Serializer):
    lines = CostLineSerializer(many=True)
    total_usd = serializers.FloatField()
    transceiver_share = serializers.FloatField()


class LinkChoiceSerializer(serializers.Serializer):
    link = serializers.IntegerField(help_text="The stored link id; the generated link's index in `sampled` mode.")
    name = serializers.CharField()
    length_m = serializers.FloatField()
    speed_gbps = serializers.FloatField()
    baseline = serializers.CharField()
    plan = serializers.CharField()
    stretched = serializers.BooleanField()
    p_good = serializers.FloatField()
    baseline_usd = serializers.FloatField()
    plan_usd = serializers.FloatField()


class LengthBandSerializer(serializers.Serializer):
    from_m = serializers.FloatField()
    to_m = serializers.FloatField()
    share = serializers.FloatField()
    baseline = serializers.CharField()
    plan = serializers.CharField()
    stretched = serializers.BooleanField()
    p_good = serializers.FloatField()


class TorFractionSerializer(serializers.Serializer):
    tor = serializers.IntegerField(help_text="The engine's switch index.")
    name = serializers.CharField()
    switch = serializers.IntegerField(allow_null=True, help_text="The stored switch id; null for a generated fabric.")
    mean = serializers.FloatField(allow_null=True)
    min = serializers.FloatField(allow_null=True)
    min_dst = serializers.IntegerField(allow_null=True)
    min_dst_name = serializers.CharField(allow_null=True)


class WorstPairSerializer(serializers.Serializer):
    src = serializers.IntegerField()
    dst = serializers.IntegerField()
    src_name = serializers.CharField()
    dst_name = serializers.CharField()
    fraction = serializers.FloatField()


class PairFractionsSerializer(serializers.Serializer):
    per_tor = TorFractionSerializer(many=True)
    worst_pair = WorstPairSerializer(allow_null=True)
    mean = serializers.FloatField(allow_null=True)
    quantiles = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2),
        help_text="[quantile, value] pairs.",
    )
    connected_pairs = serializers.IntegerField()
    disconnected_pairs = serializers.IntegerField()


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "number", "nullable": True},
        "minItems": 2,
        "maxItems": 2,
        "description": "[maximum link length m, savings fraction or null where no catalog part reaches].",
    }
)
class SweepPointField(serializers.JSONField):
    pass


class SweepSerializer(serializers.Serializer):
    nrb = serializers.FloatField(allow_null=True, help_text="null: no stretch.")
    points = serializers.ListField(child=SweepPointField())


class CatalogEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    speed_gbps = serializers.IntegerField()
    fiber = serializers.ChoiceField(choices=Fiber.choices)
    rated_reach_m = serializers.FloatField()
    price_usd = serializers.FloatField(allow_null=True)
    price_source = serializers.CharField()
    stretch = StretchEntrySerializer(many=True)


class CostParamsSerializer(serializers.Serializer):
    mmf_usd_per_m = serializers.FloatField()
    smf_usd_per_m = serializers.FloatField()
    port_usd = serializers.FloatField()
    switch_watts = serializers.FloatField()
    usd_per_kwh = serializers.FloatField()
    years = serializers.FloatField()


class GenerateEchoSerializer(serializers.Serializer):
    k = serializers.IntegerField()
    min_length_m = serializers.FloatField()
    max_length_m = serializers.FloatField()
    lengths = serializers.ChoiceField(choices=["expected", "sampled"])
    seed = serializers.IntegerField()
    speed_gbps = serializers.IntegerField()


class SweepParamsSerializer(serializers.Serializer):
    max_length_m = serializers.FloatField()
    step_m = serializers.FloatField()
    nrbs = number_list()


class PlannedFabricSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlanInputsSerializer(serializers.Serializer):
    """The params echoed back, completed with defaults."""

    name = serializers.CharField()
    source = serializers.ChoiceField(choices=["generated", "stored"])  # type: ignore[assignment]
    fabric = PlannedFabricSerializer(allow_null=True)
    generate = GenerateEchoSerializer(allow_null=True)
    description = serializers.CharField()
    links = serializers.IntegerField()
    switches = serializers.IntegerField()
    tors = serializers.IntegerField()
    default_speed_gbps = serializers.IntegerField()
    nrb = serializers.FloatField(allow_null=True)
    max_hops = serializers.IntegerField(allow_null=True)
    costs = CostParamsSerializer()
    sweep = SweepParamsSerializer()
    pair_stats = serializers.BooleanField()
    quantiles = number_list()
    catalog = CatalogEntrySerializer(many=True)


class PlanSummarySerializer(serializers.Serializer):
    """A plan without its per-link rows."""

    inputs = PlanInputsSerializer()
    nrb = serializers.FloatField(allow_null=True)
    max_hops = serializers.IntegerField()
    link_bound = serializers.FloatField(allow_null=True)
    savings = serializers.FloatField()
    stretched_links = serializers.FloatField(help_text="Expected-value lengths: an expectation, not a count.")
    min_p_good = serializers.FloatField()
    path_bound = serializers.FloatField()
    baseline = CostBreakdownSerializer()
    plan = CostBreakdownSerializer()
    bands = LengthBandSerializer(many=True)
    good_paths = PairFractionsSerializer(allow_null=True)
    sweeps = SweepSerializer(many=True)


@result_of("rail.plan")
class RailPlanResultSerializer(PlanSummarySerializer):
    links = LinkChoiceSerializer(many=True)


class LinkRowsSerializer(serializers.Serializer):
    """What GET /api/rail/plans/{id}/ says of the per-link rows it leaves out."""

    count = serializers.IntegerField()
    longest_m = serializers.FloatField(allow_null=True, help_text="null without per-link rows.")
    parts = serializers.ListField(child=serializers.CharField(), help_text="Every part a row uses, sorted.")


class RailPlanPageResultSerializer(PlanSummarySerializer):
    link_rows = LinkRowsSerializer()


class RailPlanJobSerializer(JobSerializer):
    """GET /api/rail/plans/{id}/: the job, its result the plan without its per-link rows."""

    result = RailPlanPageResultSerializer(read_only=True, allow_null=True)  # type: ignore[assignment]


class RailPlanLinksSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    results = LinkChoiceSerializer(many=True)


# --- rail.classes -------------------------------------------------------------------------------------


class LossLinkSerializer(serializers.Serializer):
    link = serializers.IntegerField()
    name = serializers.CharField()
    loss_up = serializers.FloatField()
    loss_down = serializers.FloatField()


class PathHopSerializer(serializers.Serializer):
    link = serializers.IntegerField()
    name = serializers.CharField()
    upward = serializers.BooleanField()
    loss = serializers.FloatField()


class WorstPathSerializer(serializers.Serializer):
    loss = serializers.FloatField()
    src = serializers.IntegerField()
    src_name = serializers.CharField()
    dst = serializers.IntegerField()
    dst_name = serializers.CharField()
    top = serializers.IntegerField()
    top_name = serializers.CharField()
    switches = serializers.ListField(child=serializers.CharField())
    hops = PathHopSerializer(many=True)


class PathCodingSerializer(serializers.Serializer):
    """Path counts per coding scheme; the engine sends the counts as floats (14.0)."""

    target = serializers.FloatField()
    paths = serializers.FloatField()
    uncoded = serializers.FloatField()
    xor = serializers.FloatField()
    replicated = serializers.FloatField()
    unusable = serializers.FloatField()
    mean_overhead = serializers.FloatField()
    max_overhead = serializers.FloatField()


class ReliabilityClassSerializer(serializers.Serializer):
    link_count = serializers.IntegerField()
    bound = serializers.FloatField()
    links = serializers.ListField(child=serializers.IntegerField(), help_text="Stored link ids.")
    removed = LossLinkSerializer(many=True)
    worst = WorstPathSerializer(allow_null=True)
    kept_paths = PairFractionsSerializer(allow_null=True)
    fec = PathCodingSerializer(allow_null=True)


ReliabilityClassSerializer._declared_fields["class"] = serializers.IntegerField()  # a Python keyword


class ClassSummarySerializer(serializers.Serializer):
    bound = serializers.FloatField()
    links = serializers.IntegerField()
    removed = serializers.IntegerField()
    worst_loss = serializers.FloatField(allow_null=True)
    kept_min = serializers.FloatField(allow_null=True)
    kept_p1 = serializers.FloatField(allow_null=True)
    kept_p50 = serializers.FloatField(allow_null=True)
    kept_mean = serializers.FloatField(allow_null=True)
    fec_mean_overhead = serializers.FloatField(allow_null=True)


ClassSummarySerializer._declared_fields["class"] = serializers.IntegerField()


class ClassesInputsSerializer(serializers.Serializer):
    fabric = PlannedFabricSerializer()
    window_hours = serializers.FloatField()
    since = serializers.DateTimeField()
    bounds = number_list()
    repair_above = serializers.FloatField()
    fec_target = serializers.FloatField()
    pair_stats = serializers.BooleanField()
    quantiles = number_list()


class UnmeasuredSerializer(serializers.Serializer):
    rule = serializers.CharField()
    directions = serializers.IntegerField()
    links = serializers.ListField(child=serializers.IntegerField())


@result_of("rail.classes")
class RailClassesResultSerializer(serializers.Serializer):
    inputs = ClassesInputsSerializer()
    links = serializers.IntegerField()
    alive = serializers.IntegerField()
    measured_directions = serializers.IntegerField()
    unmeasured = UnmeasuredSerializer()
    repair = LossLinkSerializer(many=True)
    classes = ReliabilityClassSerializer(many=True)
    summary = ClassSummarySerializer(many=True)
