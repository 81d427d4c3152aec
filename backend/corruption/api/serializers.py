import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from fabric.models import Fabric, Link, Transceiver
from jobs.api.results import result_of
from lightpath.api.serializers import BriefModelSerializer
from telemetry.api.serializers import LinkForecastDetailSerializer
from telemetry.models import Direction

from .. import metrics, tickets
from ..models import Decision, Ticket, TicketComment, TicketStep


class AffectedTorSerializer(serializers.Serializer):
    """One ToR below a decided link: its up-paths and capacity fraction before and after."""

    switch = serializers.IntegerField()
    name = serializers.CharField()
    paths_before = serializers.IntegerField()
    paths_after = serializers.IntegerField()
    design_paths = serializers.IntegerField()
    required_paths = serializers.IntegerField()
    fraction_before = serializers.FloatField()
    fraction_after = serializers.FloatField()
    threshold = serializers.FloatField(help_text="The ToR's capacity constraint at the time.")


@extend_schema_field(AffectedTorSerializer(many=True))
class AffectedField(serializers.JSONField):
    """The decision's stored `affected` rows, answered as stored."""


class DecisionSerializer(BriefModelSerializer):
    link_name = serializers.CharField(source="link.__str__", read_only=True)
    blocking_tor_name = serializers.CharField(source="blocking_tor.name", read_only=True, default=None)
    blocking_tor_constraint = serializers.FloatField(
        read_only=True,
        allow_null=True,
        default=None,
        help_text="The blocking ToR's capacity constraint in force now (its override, or the fabric's default); "
        "`affected` keeps the one in force at the decision.",
    )
    affected = AffectedField(read_only=True)

    class Meta:
        model = Decision
        fields = [
            "id", "url", "fabric", "link", "link_name", "event", "kind", "action", "loss_rate_a_to_z",
            "loss_rate_z_to_a", "penalty", "affected", "blocking_tor", "blocking_tor_name",
            "blocking_tor_fraction", "blocking_tor_constraint", "engine_ms", "job", "created",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "link", "event", "kind", "action", "created")


class TicketSerializer(BriefModelSerializer):
    """A ticket in the queue: the list needs no per-row query (penalty, action and step count
    are annotated by the view)."""

    link_name = serializers.CharField(source="link.__str__", read_only=True)
    pod = serializers.IntegerField(source="link.a_switch.pod", read_only=True, allow_null=True)
    assignee = serializers.CharField(source="assignee.username", read_only=True, default=None)
    direction = serializers.ChoiceField(choices=Direction.choices, read_only=True)
    penalty = serializers.FloatField(
        read_only=True,
        allow_null=True,
        help_text="The opening decision's; a preventive ticket's first corruption decision's (null until it corrupts).",
    )
    recommended_action = serializers.ChoiceField(choices=tickets.ACTIONS, read_only=True, allow_null=True)
    step_count = serializers.IntegerField(read_only=True)
    # What was done on the current step and what the ticket waits for, so the queue says
    # "Reseated transceiver, validating until ..." instead of the advice already followed.
    action_taken = serializers.ChoiceField(
        choices=tickets.ACTIONS,
        read_only=True,
        allow_null=True,
        help_text="The current step's action as recorded; null until the technician records it.",
    )
    acted_at = serializers.DateTimeField(read_only=True, allow_null=True, help_text="When it was recorded.")
    validation_ends_at = serializers.SerializerMethodField(
        help_text="Awaiting validation: when the validation window ends (it resolves then if the link stayed clean; "
        "a preventive ticket also as soon as its forecast is no longer at risk). Null otherwise, and while the "
        "link is out of service (the window starts when it is back)."
    )

    class Meta:
        model = Ticket
        fields = [
            "id", "url", "fabric", "link", "link_name", "pod", "kind", "direction", "state", "assignee", "penalty",
            "recommended_action", "action_taken", "acted_at", "step_count", "decision", "validation_started_at",
            "validation_ends_at", "resolved_at", "created", "updated",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "link", "state")

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_validation_ends_at(self, ticket: Ticket) -> dt.datetime | None:
        return tickets.validation_ends_at(ticket)


# --- A ticket step's evidence (corruption/recommend.py), described for OpenAPI -----------------------

DIRECTIONS = Direction.choices
SIDES = Transceiver.Side.choices


class EvidenceThresholdSerializer(serializers.Serializer):
    value = serializers.FloatField(allow_null=True)
    provenance = serializers.CharField(allow_null=True)


class EvidenceOpticsSerializer(serializers.Serializer):
    """One end's optics as recommend() read them (optics_evidence)."""

    end = serializers.CharField()
    transceiver_model = serializers.CharField(allow_null=True)
    optical_time = serializers.DateTimeField(allow_null=True)
    rx_dbm = serializers.FloatField(allow_null=True, required=False)
    rx_min_lane_dbm = serializers.FloatField(allow_null=True, required=False)
    tx_dbm = serializers.FloatField(allow_null=True, required=False)
    tx_min_lane_dbm = serializers.FloatField(allow_null=True, required=False)
    rx_class = serializers.CharField(allow_null=True, required=False)
    tx_class = serializers.CharField(allow_null=True, required=False)
    rx_no_light = serializers.BooleanField(allow_null=True, required=False)
    tx_no_light = serializers.BooleanField(allow_null=True, required=False)
    rx_low = serializers.BooleanField()
    tx_low = serializers.BooleanField()
    thresholds = serializers.DictField(child=EvidenceThresholdSerializer())


class EvidenceLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    fabric = serializers.IntegerField()


class EvidenceRatesSerializer(serializers.Serializer):
    # "this" is a Python keyword only in spirit; fine as an attribute name.
    this = serializers.FloatField(allow_null=True)
    opposite = serializers.FloatField(allow_null=True)
    opposite_corrupting = serializers.BooleanField()
    onset = serializers.DateTimeField(allow_null=True)


class EvidenceBothOpticsSerializer(serializers.Serializer):
    local = EvidenceOpticsSerializer()
    far = EvidenceOpticsSerializer()


class EvidenceNeighbourSerializer(serializers.Serializer):
    link = serializers.IntegerField()
    name = serializers.CharField()
    switch = serializers.CharField()
    port = serializers.CharField()
    direction = serializers.ChoiceField(choices=DIRECTIONS)
    rate = serializers.FloatField()
    first_seen = serializers.DateTimeField()
    same_breakout_group = serializers.BooleanField()
    same_line_card = serializers.BooleanField()
    onset_within_window = serializers.BooleanField(allow_null=True)
    rate_within_ratio = serializers.BooleanField(allow_null=True)


class EvidenceNeighboursSerializer(serializers.Serializer):
    end = serializers.ChoiceField(choices=SIDES)
    switch = serializers.CharField()
    port = serializers.CharField()
    links = EvidenceNeighbourSerializer(many=True)


class EvidenceReseatSerializer(serializers.Serializer):
    last_reseated_at = serializers.DateTimeField(allow_null=True)
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]  # a key, not Field.source
    recent = serializers.BooleanField()
    episode_start = serializers.DateTimeField(allow_null=True)
    window_days = serializers.FloatField()


class EvidenceHistoryStepSerializer(serializers.Serializer):
    action_recommended = serializers.CharField()
    action_taken = serializers.CharField(allow_null=True)
    time = serializers.DateTimeField()
    outcome = serializers.ChoiceField(choices=TicketStep.Outcome.choices)


class EvidenceCorruptionRuleSerializer(serializers.Serializer):
    rule = serializers.CharField()
    action = serializers.ChoiceField(choices=tickets.ACTIONS)


class EvidenceSerializer(serializers.Serializer):
    """What a recommendation rule read; each part is there when the rule read it (a preventive
    step: link, local_end (the end to act on), far_end and forecast; a forecast_cause step: a repair
    step's parts with the forecast and the corruption rule it outranked)."""

    link = EvidenceLinkSerializer(required=False)
    direction = serializers.ChoiceField(choices=DIRECTIONS, required=False)
    local_end = serializers.ChoiceField(choices=SIDES, required=False)
    far_end = serializers.ChoiceField(choices=SIDES, required=False)
    rates = EvidenceRatesSerializer(required=False)
    optics = EvidenceBothOpticsSerializer(required=False)
    has_optical_data = serializers.BooleanField(required=False)
    neighbours = EvidenceNeighboursSerializer(many=True, required=False)
    reseat = EvidenceReseatSerializer(required=False)
    history = EvidenceHistoryStepSerializer(many=True, required=False)
    failed_actions = serializers.ListField(child=serializers.CharField(), required=False)
    settings = serializers.DictField(child=serializers.FloatField(), required=False)
    forecast = LinkForecastDetailSerializer(
        required=False,
        help_text="A preventive step's: the forecast as GET /api/links/{id}/forecast/ showed it (a forecast_cause "
        "step's: the preventive step's forecast it keeps first).",
    )
    corruption_rule = EvidenceCorruptionRuleSerializer(
        required=False,
        help_text="A forecast_cause step's: the corruption rule the forecast's repair was kept before, and its action.",
    )


@extend_schema_field(EvidenceSerializer)
class EvidenceField(serializers.JSONField):
    """A step's stored evidence, answered as stored."""


class TicketLinkEndSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES)
    switch = serializers.CharField()
    port = serializers.CharField()
    rack = serializers.CharField()
    pod = serializers.IntegerField(allow_null=True)
    transceiver_model = serializers.CharField(allow_null=True)
    transceiver_serial = serializers.CharField(allow_null=True)
    connector = serializers.CharField(allow_null=True, help_text="The cable connector its transceiver takes.")
    last_reseated_at = serializers.DateTimeField(allow_null=True)


class RecommendationSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    action = serializers.ChoiceField(choices=tickets.ACTIONS)
    rule = serializers.CharField()
    explanation = serializers.CharField()
    evidence = EvidenceSerializer()


class TicketStepSerializer(serializers.ModelSerializer):
    technician = serializers.CharField(source="technician.username", read_only=True, default=None)
    evidence = EvidenceField(read_only=True)
    # Choices declared for OpenAPI (the model's columns are plain text); the answers are the same.
    direction = serializers.ChoiceField(choices=Direction.choices, read_only=True)
    recommended_action = serializers.ChoiceField(choices=tickets.ACTIONS, read_only=True)
    action_taken = serializers.ChoiceField(
        choices=tickets.ACTIONS, read_only=True, allow_blank=True, help_text="Empty until the technician records it."
    )

    class Meta:
        model = TicketStep
        fields = [
            "number", "decision", "direction", "recommended_action", "rule", "explanation", "evidence",
            "action_taken", "followed", "technician", "notes", "created", "acted_at", "outcome",
        ]  # fmt: skip
        read_only_fields = fields


class TicketCommentSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", read_only=True, default=None)

    class Meta:
        model = TicketComment
        fields = ["id", "author", "text", "created"]
        read_only_fields = fields


def link_end(link: Link, side: str) -> dict:
    switch = link.a_switch if side == "a" else link.z_switch
    transceiver = next((t for t in link.transceivers.all() if t.side == side), None)
    return {
        "side": side,
        "switch": switch.name,
        "port": link.a_port if side == "a" else link.z_port,
        "rack": switch.rack,
        "pod": switch.pod,
        "transceiver_model": transceiver.model.name if transceiver else None,
        "transceiver_serial": transceiver.serial if transceiver else None,
        "connector": tickets.connector(transceiver.model.name) if transceiver else None,
        "last_reseated_at": transceiver.last_reseated_at if transceiver else None,
    }


class TicketDetailSerializer(TicketSerializer):
    ends = serializers.SerializerMethodField()
    cable_length_m = serializers.FloatField(source="link.length_m", read_only=True, allow_null=True)
    fiber = serializers.CharField(source="link.fiber", read_only=True, help_text="SMF or MMF; blank: not recorded.")
    steps = TicketStepSerializer(many=True, read_only=True)
    comments = TicketCommentSerializer(many=True, read_only=True)
    recommendation = serializers.SerializerMethodField()
    validation_window_hours = serializers.SerializerMethodField(
        help_text="How long a repaired link must stay clean before its ticket resolves."
    )

    class Meta(TicketSerializer.Meta):
        fields = [
            *TicketSerializer.Meta.fields, "ends", "cable_length_m", "fiber", "recommendation",
            "validation_window_hours", "steps", "comments",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(serializers.FloatField())
    def get_validation_window_hours(self, ticket: Ticket) -> float:
        return float(tickets.config()["validation_window_hours"])

    @extend_schema_field(TicketLinkEndSerializer(many=True))
    def get_ends(self, ticket: Ticket) -> list[dict]:
        return [link_end(ticket.link, "a"), link_end(ticket.link, "z")]

    @extend_schema_field(RecommendationSerializer(allow_null=True))
    def get_recommendation(self, ticket: Ticket) -> dict | None:
        """The current step's advice, with its evidence."""
        steps = list(ticket.steps.all())
        if not steps:
            return None
        step = steps[-1]
        return {
            "step": step.number,
            "action": step.recommended_action,
            "rule": step.rule,
            "explanation": step.explanation,
            "evidence": step.evidence,
        }


class TicketActedSerializer(TicketDetailSerializer):
    """POST /api/tickets/{id}/act/'s answer: the ticket, and what recording the action did to its link."""

    link_enabled = serializers.BooleanField(read_only=True, help_text="The link is back in service.")
    message = serializers.CharField(read_only=True)

    class Meta(TicketDetailSerializer.Meta):
        fields = [*TicketDetailSerializer.Meta.fields, "link_enabled", "message"]
        read_only_fields = fields


class TicketCountsSerializer(serializers.Serializer):
    unresolved = serializers.IntegerField(
        help_text="Tickets not resolved yet (open, in progress, awaiting validation, reopened)."
    )
    assigned_to_me = serializers.IntegerField(help_text="Of those, the ones assigned to the logged-in user.")


class ActionSerializer(serializers.Serializer):
    action_taken = serializers.ChoiceField(choices=tickets.ACTIONS)
    notes = serializers.CharField(required=False, allow_blank=True, default="", max_length=10_000)
    new_serial = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=64,
        help_text="A replacement's: the new transceiver's serial (blank: not known; the record's serial is cleared).",
    )


class OpenPreventiveSerializer(serializers.Serializer):
    link = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The at-risk link's id.")


class CommentSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=10_000)


class AssignSerializer(serializers.Serializer):
    username = serializers.CharField(allow_null=True)

    def validate_username(self, value):
        if value is None:
            return None
        user = get_user_model().objects.filter(username=value).first()
        if user is None:
            raise serializers.ValidationError(f"no user named {value!r}")
        return user


class MetricsHistoryQuerySerializer(serializers.Serializer):
    """Query of GET /api/tickets/metrics/history/: [from, to) in UTC, dates or ISO datetimes;
    defaults: the 30 days up to the end of today."""

    fabric = serializers.PrimaryKeyRelatedField(
        queryset=Fabric.objects.all(), required=False, help_text="A fabric's id; all fabrics without it"
    )
    from_ = serializers.DateTimeField(
        required=False, input_formats=["iso-8601", "%Y-%m-%d"], help_text="Start (inclusive), a date or datetime"
    )
    to = serializers.DateTimeField(
        required=False, input_formats=["iso-8601", "%Y-%m-%d"], help_text="End (exclusive); default: tomorrow 00:00 UTC"
    )
    bucket = serializers.ChoiceField(choices=metrics.BUCKETS, default="day")

    def get_fields(self):
        # "from" is a Python keyword: the field is from_ in the class body, from on the wire.
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields

    def validate(self, attrs):
        end = attrs.get("to") or timezone.now().replace(hour=0, minute=0, second=0, microsecond=0) + dt.timedelta(
            days=1
        )
        start = attrs.get("from") or end - dt.timedelta(days=30)
        if start >= end:
            raise serializers.ValidationError({"to": ["must be after from"]})
        if end - start > metrics.MAX_RANGE:
            raise serializers.ValidationError({"to": ["the range may span at most two years"]})
        return {**attrs, "from": start, "to": end}


class SuccessRateSerializer(serializers.Serializer):
    attempts = serializers.IntegerField()
    fixed = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True, help_text="fixed / attempts; null without attempts")


class FirstAttemptSerializer(serializers.Serializer):
    all = SuccessRateSerializer()
    followed = SuccessRateSerializer(help_text="The technician did what the step recommended.")
    not_followed = SuccessRateSerializer()


REPAIRS_ONLY = "Of repair tickets only (links taken out for corruption); preventive work is preventive_first_attempt."
PREVENTIVE_FIRST_ATTEMPT = (
    "Preventive tickets' first steps (the forecast's repair, on a link still in service) whose outcome is known: "
    "fixed, or its link corrupted anyway."
)


class MetricsHistoryBucketSerializer(serializers.Serializer):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField(help_text="Exclusive")
    tickets_opened = serializers.IntegerField()
    tickets_resolved = serializers.IntegerField()
    open_tickets = serializers.IntegerField(help_text="Unresolved at the bucket's end")
    first_attempt = FirstAttemptSerializer(
        help_text=f"First steps acted in the bucket whose outcome is known. {REPAIRS_ONLY}"
    )
    mean_time_to_repair_hours = serializers.FloatField(
        allow_null=True,
        help_text=f"Ticket opened -> the action that fixed it, for the fixes acted in the bucket. {REPAIRS_ONLY}",
    )
    repaired_tickets = serializers.IntegerField(
        help_text=f"Actions in the bucket that fixed their ticket. {REPAIRS_ONLY}"
    )
    links_disabled = serializers.IntegerField(help_text="Decisions that disabled a link for corruption")
    repair_actions = serializers.IntegerField(help_text="Actions recorded (both kinds); each re-enables its link")
    preventive_first_attempt = SuccessRateSerializer(help_text=PREVENTIVE_FIRST_ATTEMPT)


class MetricsHistorySerializer(serializers.Serializer):
    """Repair metrics per day or ISO week (documents the answer of corruption.metrics.metrics_history)."""

    fabric = serializers.IntegerField(allow_null=True)
    bucket = serializers.ChoiceField(choices=metrics.BUCKETS)
    from_ = serializers.DateTimeField()
    to = serializers.DateTimeField()
    buckets = MetricsHistoryBucketSerializer(many=True)

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class OpenTicketsByStateSerializer(serializers.Serializer):
    open = serializers.IntegerField()
    in_progress = serializers.IntegerField()
    awaiting_validation = serializers.IntegerField()
    reopened = serializers.IntegerField()


class TicketMetricsSerializer(serializers.Serializer):
    """Repair metrics now (GET /api/tickets/metrics/): the fabric's part is null for all fabrics."""

    fabric = serializers.IntegerField(allow_null=True)
    first_attempt = FirstAttemptSerializer(help_text=REPAIRS_ONLY)
    mean_time_to_repair_hours = serializers.FloatField(allow_null=True, help_text=REPAIRS_ONLY)
    repaired_tickets = serializers.IntegerField(help_text=REPAIRS_ONLY)
    preventive_first_attempt = SuccessRateSerializer(help_text=PREVENTIVE_FIRST_ATTEMPT)
    open_tickets = serializers.IntegerField(help_text="Unresolved tickets of both kinds.")
    open_tickets_by_state = OpenTicketsByStateSerializer()
    disabled_links = serializers.IntegerField()
    disabled_links_for_corruption = serializers.IntegerField()
    corrupting_links_in_service = serializers.IntegerField(allow_null=True)
    current_penalty = serializers.FloatField(allow_null=True)
    worst_tor_fraction = serializers.FloatField(allow_null=True)


# --- The corruption.optimize job's result (corruption/optimizer.py) ----------------------------------


class BlockingPathsSerializer(serializers.Serializer):
    paths_before = serializers.IntegerField()
    paths_after = serializers.IntegerField()
    required_paths = serializers.IntegerField()
    threshold = serializers.FloatField()


class OptimizerRowSerializer(serializers.Serializer):
    """A link the optimizer disabled or kept."""

    decision = serializers.IntegerField()
    link = serializers.IntegerField()
    link_name = serializers.CharField()
    penalty = serializers.FloatField()
    blocking_tor = serializers.IntegerField(allow_null=True, help_text="Kept links: the ToR that would fall under.")
    blocking_tor_name = serializers.CharField(allow_null=True)
    blocking = BlockingPathsSerializer(allow_null=True, help_text="The blocking ToR's paths at the decision.")


class WorstTorSerializer(serializers.Serializer):
    switch = serializers.IntegerField()
    name = serializers.CharField()
    fraction = serializers.FloatField()


class OptimizerRunResultSerializer(serializers.Serializer):
    """A run that went through."""

    fabric = serializers.IntegerField()
    reasons = serializers.ListField(child=serializers.CharField(), help_text="Why it ran.")
    candidates = serializers.IntegerField(help_text="Enabled corrupting links it considered.")
    penalty_before = serializers.FloatField()
    disabled = OptimizerRowSerializer(many=True)
    kept = OptimizerRowSerializer(many=True)
    still_kept = serializers.IntegerField(help_text="Kept links whose newest decision already kept them.")
    remaining_penalty = serializers.FloatField()
    remaining_penalty_lower_bound = serializers.FloatField()
    proven_optimal = serializers.BooleanField()
    time_budget_s = serializers.FloatField(allow_null=True)
    worst_tor = WorstTorSerializer(allow_null=True)
    tors_below_threshold = serializers.ListField(child=serializers.CharField())
    engine_ms = serializers.FloatField()


class OptimizerResumedResultSerializer(serializers.Serializer):
    """A run whose worker was lost after its commit: answered from its decisions alone."""

    fabric = serializers.IntegerField()
    disabled = OptimizerRowSerializer(many=True)
    kept = OptimizerRowSerializer(many=True)
    resumed = serializers.BooleanField()


result_of("corruption.optimize")(
    PolymorphicProxySerializer(
        component_name="OptimizerResult",
        serializers=[OptimizerRunResultSerializer, OptimizerResumedResultSerializer],
        resource_type_field_name=None,
    )
)


# --- GET /api/links/{id}/corropt-check/ (corruption.services.dry_run) --------------------------------


class LastDecisionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Decision.Kind.choices)
    action = serializers.ChoiceField(choices=Decision.Action.choices)
    created = serializers.DateTimeField()


class CheckBlockingTorSerializer(serializers.Serializer):
    switch = serializers.IntegerField()
    name = serializers.CharField()
    fraction = serializers.FloatField(help_text="Its capacity fraction now.")
    required_paths = serializers.IntegerField()
    paths = serializers.IntegerField(help_text="Its up-paths now.")


class CorrOptCheckSerializer(serializers.Serializer):
    """The fast checker's dry run on one link: what it would decide now, and why."""

    link = serializers.IntegerField()
    link_name = serializers.CharField()
    fabric = serializers.IntegerField()
    admin_state = serializers.ChoiceField(choices=Link.AdminState.choices)
    admin_reason = serializers.CharField()
    oper_state = serializers.ChoiceField(choices=Link.OperState.choices)
    health = serializers.ChoiceField(choices=Link.Health.choices)
    event = serializers.IntegerField(allow_null=True)
    loss_rate_a_to_z = serializers.FloatField()
    loss_rate_z_to_a = serializers.FloatField()
    last_decision = LastDecisionSerializer(allow_null=True)
    verdict = serializers.ChoiceField(choices=["disable", "keep", "not_applicable"])
    reason = serializers.CharField()
    penalty = serializers.FloatField()
    affected = AffectedTorSerializer(many=True)
    blocking_tor = CheckBlockingTorSerializer(allow_null=True)


# --- The corruption.simulate job's result (corruption/simulation/run.py) -----------------------------

POLICIES = ["corropt", "fast-checker", "switch-local"]
PENALTY_FUNCTIONS = ["linear", "log", "step"]


class SimulationSeriesSerializer(serializers.Serializer):
    """A step series: entry i holds from time_s[i] until time_s[i + 1] (the last until the horizon)."""

    binned = serializers.BooleanField(help_text="Binned steps: penalty is a bin's mean, worst_fraction its minimum.")
    time_s = serializers.ListField(child=serializers.FloatField())
    penalty = serializers.ListField(child=serializers.FloatField())
    worst_fraction = serializers.ListField(child=serializers.FloatField())
    disabled = serializers.ListField(child=serializers.FloatField())
    active_corrupting = serializers.ListField(child=serializers.FloatField())


class PolicyOutcomeSerializer(serializers.Serializer):
    policy = serializers.ChoiceField(choices=POLICIES)
    share = serializers.FloatField(allow_null=True)
    penalty_seconds = serializers.FloatField()
    penalty_ratio_vs_corropt = serializers.FloatField(
        allow_null=True, help_text="Its penalty integral over CorrOpt's; null when infinite (CorrOpt's is 0)."
    )
    active_corrupting_seconds = serializers.FloatField()
    disabled_seconds = serializers.FloatField()
    lowest_worst_fraction = serializers.FloatField()
    counts = serializers.DictField(child=serializers.FloatField())
    series = SimulationSeriesSerializer()


class SimulationRunSerializer(serializers.Serializer):
    constraint = serializers.FloatField()
    accuracy = serializers.FloatField()
    corropt_penalty_seconds = serializers.FloatField()
    policies = PolicyOutcomeSerializer(many=True)


class SimulationFabricSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SimulationTraceSerializer(serializers.Serializer):
    source = serializers.ChoiceField(choices=["generated", "uploaded"])  # type: ignore[assignment]
    onsets = serializers.IntegerField()
    links = serializers.IntegerField()
    horizon_s = serializers.FloatField()
    name = serializers.CharField(required=False)
    hours = serializers.FloatField(required=False)
    mttf_hours = serializers.FloatField(required=False)
    seed = serializers.IntegerField(required=False)


class SimulationSettingsSerializer(serializers.Serializer):
    policies = serializers.ListField(child=serializers.ChoiceField(choices=POLICIES))
    constraints = serializers.ListField(child=serializers.FloatField())
    accuracies = serializers.ListField(child=serializers.FloatField())
    penalty_function = serializers.ChoiceField(choices=PENALTY_FUNCTIONS)
    repair_delay_s = serializers.FloatField()
    seed = serializers.IntegerField()
    optimizer_time_budget_s = serializers.FloatField()
    initially_disabled = serializers.IntegerField()
    initially_down = serializers.IntegerField()
    links = serializers.IntegerField()
    max_points = serializers.IntegerField()


@result_of("corruption.simulate")
class SimulationResultSerializer(serializers.Serializer):
    fabric = SimulationFabricSerializer()
    trace = SimulationTraceSerializer()
    settings = SimulationSettingsSerializer()
    runs = SimulationRunSerializer(many=True)
