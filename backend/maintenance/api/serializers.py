from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from corruption.models import Ticket
from fabric.api.serializers import GuardPreviewSerializer, GuardTorSerializer
from fabric.models import Fabric
from jobs.api.results import result_of
from lightpath.api.serializers import BriefModelSerializer

from ..models import WorkOrder
from ..services import work_orders


class WorkOrderLocationEndSerializer(serializers.Serializer):
    switch = serializers.CharField()
    rack = serializers.CharField(help_text="The switch's rack ('' when none is recorded).")
    row = serializers.CharField(
        help_text="The rack's row: 'pod N' for a pod's switch, else the rack (or switch) name before its last '-'."
    )
    port = serializers.CharField()


class WorkOrderLocationSerializer(WorkOrderLocationEndSerializer):
    """Where the work is: the end of the repaired component (a far-end transceiver's switch, a line
    card's switch, a breakout cable's breakout side, else the near end)."""

    far = WorkOrderLocationEndSerializer(
        allow_null=True, help_text="A cable or fiber's other end, worked on too (null for one end's component)."
    )


class WorkOrderSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="workorder-detail")
    tickets = serializers.SerializerMethodField(help_text="Ids of its tickets.")
    footprint_size = serializers.SerializerMethodField(help_text="Links out of service while it is done.")
    outcome = serializers.SerializerMethodField(help_text="How its last visit ended (null: none has).")
    started_by = serializers.CharField(source="started_by.username", read_only=True, allow_null=True, default=None)
    location = serializers.SerializerMethodField(help_text="Where the work is (null when its link was deleted).")
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Ticket.Kind.choices),
        read_only=True,
        default=list,
        help_text="Kinds of its current tickets, each once, sorted (repair, preventive); empty once it has none.",
    )
    deadline = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="The soonest forecast crossing of its unresolved preventive tickets' links (when the optics are "
        "expected to reach their limit and the link to corrupt); null without a preventive ticket.",
    )

    class Meta:
        model = WorkOrder
        fields = [
            "id", "url", "fabric", "state", "action", "component", "component_name", "location", "footprint",
            "footprint_size", "kinds", "deadline",
            "duration_s", "success_chance", "tickets", "created", "updated",
            "started_at", "started_by", "finished_at", "outcome",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "state", "action", "component_name")

    def get_tickets(self, order: WorkOrder) -> list[int]:
        return sorted(entry.ticket_id for entry in order.entries.all())

    def get_footprint_size(self, order: WorkOrder) -> int:
        return len(order.footprint)

    @extend_schema_field(WorkOrderLocationSerializer(allow_null=True))
    def get_location(self, order: WorkOrder) -> dict | None:
        return work_orders.location(order)

    @extend_schema_field(serializers.ChoiceField(choices=WorkOrder.Outcome.choices, allow_null=True))
    def get_outcome(self, order: WorkOrder) -> str | None:
        return order.outcome or None


class WorkOrderTicketSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    state = serializers.CharField()
    link = serializers.IntegerField()
    link_name = serializers.CharField()
    direction = serializers.CharField()
    recommended_action = serializers.CharField(help_text="The ticket's newest recommendation.")
    rule = serializers.CharField()


class FootprintLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="a_switch:a_port - z_switch:z_port")
    admin_state = serializers.CharField()
    admin_reason = serializers.CharField()
    oper_state = serializers.CharField()
    health = serializers.CharField()
    tor = serializers.CharField(allow_null=True, help_text="The ToR at one end, if any.")


class WorkOrderLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="a_switch:a_port - z_switch:z_port")


class WorkOrderDetailSerializer(WorkOrderSerializer):
    """A work order with what a technician and an operator decide on: its tickets, the links it
    takes down, the ToRs on them and the capacity guard's verdict on starting it now (a dry run
    with reason `maintenance`)."""

    ticket_details = WorkOrderTicketSerializer(many=True, read_only=True)
    footprint_links = FootprintLinkSerializer(many=True, read_only=True)
    tors = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="ToRs on the footprint: at its links' ends, and those whose up-paths it takes now.",
    )
    guard = GuardPreviewSerializer(read_only=True)
    restored_links = WorkOrderLinkSerializer(
        many=True, read_only=True, help_text="Links the start enabled for the repair's duration (its restoration)."
    )

    class Meta(WorkOrderSerializer.Meta):
        fields = [
            *WorkOrderSerializer.Meta.fields,
            "ticket_details",
            "footprint_links",
            "tors",
            "guard",
            "restored_links",
        ]
        read_only_fields = fields


class WorkOrderFinishedSerializer(WorkOrderDetailSerializer):
    """The work order after its visit ended, and what became of its links."""

    detail = serializers.CharField(
        read_only=True, help_text="One sentence; names restored links the guard kept enabled."
    )

    class Meta(WorkOrderDetailSerializer.Meta):
        fields = [*WorkOrderDetailSerializer.Meta.fields, "detail"]
        read_only_fields = fields


class RestorationLinkSerializer(WorkOrderLinkSerializer):
    loss_rate = serializers.FloatField(help_text="Its worse direction's loss rate now (a fraction).")
    penalty = serializers.FloatField(help_text="CorrOpt's penalty of carrying it (both directions).")


class RestorationSerializer(serializers.Serializer):
    links = RestorationLinkSerializer(many=True, help_text="Links disabled for corruption to enable for the repair.")
    added_penalty = serializers.FloatField()
    proven_optimal = serializers.BooleanField()
    needs_approval = serializers.BooleanField(
        help_text="An operator must approve it (false for operators, admins, or a fabric with auto_restore)."
    )


class UnreachableTorSerializer(serializers.Serializer):
    name = serializers.CharField()
    paths_before = serializers.IntegerField()
    paths_best = serializers.IntegerField(help_text="The most up-paths any restoration leaves it.")
    floor = serializers.IntegerField(help_text="The up-paths it must keep.")
    required_paths = serializers.IntegerField()
    design_paths = serializers.IntegerField()


class WaitsForSerializer(serializers.Serializer):
    work_order = serializers.IntegerField()
    action = serializers.CharField()
    component_name = serializers.CharField()
    state = serializers.CharField()


class WorkOrderStartPreviewSerializer(serializers.Serializer):
    """What starting a work order now does (POST start/?dry_run=1), and the 409 of a refused start."""

    work_order = serializers.IntegerField()
    verdict = serializers.ChoiceField(choices=["safe", "needs_restoration", "blocked"])
    detail = serializers.CharField(help_text="One sentence naming the ToR and its numbers.")
    footprint = WorkOrderLinkSerializer(many=True)
    affected_tors = GuardTorSerializer(many=True)
    blocking_tors = GuardTorSerializer(
        many=True, help_text="ToRs under their constraint with the footprint alone, worst first."
    )
    restoration = RestorationSerializer(allow_null=True)
    unreachable_tors = UnreachableTorSerializer(many=True, help_text="blocked: the ToRs no restoration saves.")
    waits_for = WaitsForSerializer(many=True, help_text="blocked: visits in progress holding their paths.")


class WorkOrderStartSerializer(serializers.Serializer):
    restoration = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=10_000,
        help_text="The ids of the restoration offered by the preview (needs_restoration), exactly.",
    )
    override_capacity = serializers.BooleanField(required=False, default=False)
    admin_reason = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", help_text="Why an override (admins)."
    )

    def validate_admin_reason(self, value: str) -> str:
        override = serializers.BooleanField()
        try:
            wanted = override.to_internal_value(self.initial_data.get("override_capacity", False))
        except serializers.ValidationError:
            wanted = False  # the override field reports its own problem
        if wanted and not value.strip():
            raise serializers.ValidationError("required with override_capacity: say why the constraint may be broken")
        return value


class WorkOrderFinishSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=WorkOrder.Outcome.choices)
    notes = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


# --- tickets.plan (maintenance.jobs): the job's result, declared for OpenAPI ---------------------


class PlanVisitSerializer(serializers.Serializer):
    technician = serializers.IntegerField(help_text="The technician, 0 to technicians - 1.")
    technician_name = serializers.CharField(help_text="assignees[technician], else 'Technician N' (1-based).")
    work_order = serializers.IntegerField(help_text="The work order's id.")
    start_s = serializers.IntegerField(help_text="Seconds from the shift's start when work starts on site.")
    end_s = serializers.IntegerField(help_text="When it ends and the footprint is back.")
    start_at = serializers.DateTimeField(help_text="shift_start + start_s.")
    end_at = serializers.DateTimeField(help_text="shift_start + end_s.")
    links_down = WorkOrderLinkSerializer(many=True, help_text="The footprint, out of service from start to end.")
    restored = WorkOrderLinkSerializer(
        many=True, help_text="Links disabled for corruption enabled from start to end (its restoration, if used)."
    )


class PlanRestorationSerializer(serializers.Serializer):
    links = WorkOrderLinkSerializer(many=True)
    penalty_rate = serializers.FloatField(help_text="CorrOpt penalty per hour the links add while enabled.")


class PlanWorkOrderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    component_name = serializers.CharField()
    rack = serializers.CharField(allow_null=True, help_text="The rack of the switch worked at; null: it has none.")
    row = serializers.CharField()
    penalty_rate = serializers.FloatField(
        help_text="CorrOpt penalty per hour of its corrupting links in service, plus forecast_penalty_rate."
    )
    forecast_penalty_rate = serializers.FloatField(
        help_text="The part of penalty_rate its preventive tickets' links are expected to cost: the penalty at the "
        "fabric's action threshold, times the forecast's confidence, times horizon / (horizon + time to crossing)."
    )
    safe_alone = serializers.BooleanField(help_text="Whether its footprint alone keeps every ToR at its floor now.")
    restoration = PlanRestorationSerializer(allow_null=True, help_text="Offered when its footprint alone is unsafe.")


class PlanTravelSerializer(serializers.Serializer):
    same_rack_s = serializers.IntegerField()
    same_row_s = serializers.IntegerField()
    elsewhere_s = serializers.IntegerField()


class PlanFabricSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlanTorSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The switch's id.")
    name = serializers.CharField()


class PlanHeadroomSerializer(serializers.Serializer):
    """A stretch of the shift with the same visits in progress, and the ToR left with the least
    spare up-paths while their footprints are down and their restorations up."""

    start_s = serializers.IntegerField()
    end_s = serializers.IntegerField()
    worst_tor = PlanTorSerializer(
        allow_null=True, help_text="Least spare (null: no visit in progress, or the fabric has no ToR)."
    )
    spare_paths = serializers.IntegerField(
        allow_null=True,
        help_text="paths - the worst ToR's floor, min(required_paths, its paths before any work); "
        "null with no visit in progress.",
    )
    paths = serializers.IntegerField(allow_null=True, help_text="Its up-paths during the interval.")
    required_paths = serializers.IntegerField(allow_null=True, help_text="ceil(constraint x design_paths).")
    visits = serializers.ListField(child=serializers.IntegerField(), help_text="Work orders in progress.")


class PlanShortTorSerializer(PlanTorSerializer):
    paths = serializers.IntegerField(help_text="Its up-paths before any work.")
    required_paths = serializers.IntegerField(help_text="ceil(constraint x design_paths), above paths.")


# The engine's reasons (lightpath_core::maintenance::later), pinned in ENUM_NAME_OVERRIDES.
LEFT_FOR_LATER_REASONS = ("longer_than_shift", "never_safe", "restoration_dearer", "no_penalty", "no_room")


class PlanLeftForLaterSerializer(serializers.Serializer):
    """Why an order is not in this shift's plan (the engine's first reason that holds)."""

    work_order = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=LEFT_FOR_LATER_REASONS)
    detail = serializers.CharField(help_text="One sentence with the numbers behind the reason.")


@result_of("tickets.plan")
class MaintenancePlanResultSerializer(serializers.Serializer):
    fabric = PlanFabricSerializer()
    technicians = serializers.IntegerField()
    assignees = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Usernames: technician i is assignees[i]."
    )
    shift_start = serializers.DateTimeField()
    shift_s = serializers.IntegerField()
    travel = PlanTravelSerializer()
    visits = PlanVisitSerializer(many=True, help_text="By technician, each technician's in time order.")
    unscheduled = serializers.ListField(child=serializers.IntegerField(), help_text="Work orders left for later.")
    left_for_later = PlanLeftForLaterSerializer(
        many=True,
        required=False,
        help_text="Why each unscheduled order waits (absent from plans made before it was given).",
    )
    expected_penalty_hours = serializers.FloatField()
    fifo_penalty_hours = serializers.FloatField(help_text="First in first out (ascending id) on the same input.")
    lower_bound = serializers.FloatField(help_text="No plan has lower expected penalty-hours.")
    gap = serializers.FloatField(help_text="(plan - lower bound) / plan; 0 when proven optimal.")
    proven_optimal = serializers.BooleanField()
    headroom = PlanHeadroomSerializer(many=True, help_text="The fabric's capacity over the shift, in time order.")
    short_before = PlanShortTorSerializer(
        many=True,
        required=False,
        help_text="ToRs under their requirement before any work (absent from plans made before it was given).",
    )
    work_orders = PlanWorkOrderSerializer(many=True, help_text="What the planner was given per open work order.")


# A technician's day (maintenance.services.today): GET /api/work-orders/today/ ----------------------


class TodayQuerySerializer(serializers.Serializer):
    fabric = serializers.PrimaryKeyRelatedField(
        queryset=Fabric.objects.all(),
        required=False,
        help_text="Only plans of this fabric (id).",
        error_messages={
            "does_not_exist": "no fabric has id {pk_value}",
            "incorrect_type": "must be a fabric id (a whole number)",
        },
    )
    user = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.filter(is_active=True),
        required=False,
        help_text="Whose day (default: yours). Operators, planners and admins may read anyone's.",
        error_messages={"does_not_exist": "no active user is named {value}"},
    )


class TodayPlanSerializer(serializers.Serializer):
    job = serializers.IntegerField(help_text="The tickets.plan job.")
    fabric = PlanFabricSerializer()
    planned_at = serializers.DateTimeField(help_text="When the plan job finished.")
    shift_start = serializers.DateTimeField()
    shift_end = serializers.DateTimeField()
    stale = serializers.BooleanField(help_text="The open work orders changed since: plan the day again.")
    stale_reasons = serializers.ListField(child=serializers.CharField(), help_text="One sentence per change.")


class TodayVisitSerializer(serializers.Serializer):
    work_order = WorkOrderSerializer(help_text="The work order as it is now.")
    planned = serializers.BooleanField(
        help_text="From the plan; false: an order in progress that is theirs (they started it, or one of its "
        "tickets is assigned to them) though the plan did not give it to them, listed after the plan's visits."
    )
    start_at = serializers.DateTimeField(help_text="When the visit starts; not planned: when the order started.")
    end_at = serializers.DateTimeField(allow_null=True, help_text="Null when not planned (no plan says).")
    start_s = serializers.IntegerField(allow_null=True, help_text="Seconds from the shift's start; null: not planned.")
    end_s = serializers.IntegerField(allow_null=True)
    links_down = WorkOrderLinkSerializer(many=True, help_text="Out of service during the visit (its footprint).")
    restored = WorkOrderLinkSerializer(many=True, help_text="Enabled for the visit's duration (its restoration).")
    done = serializers.BooleanField(help_text="Its work order is done now.")


class TodaySerializer(serializers.Serializer):
    """A user's visits in the newest maintenance plan naming them (null plan: none does)."""

    user = serializers.CharField()
    plan = TodayPlanSerializer(allow_null=True)
    visits = TodayVisitSerializer(
        many=True, help_text="Their visits in order, then their orders in progress not planned."
    )
    detail = serializers.CharField(help_text="One sentence: how many visits, the next's time and rack.")


# Capacity recovery (maintenance.services.recovery): GET/POST /api/fabrics/{id}/recovery/


class RecoveryTorSerializer(serializers.Serializer):
    switch = serializers.IntegerField()
    name = serializers.CharField()
    paths = serializers.IntegerField(help_text="Its up-paths over usable links now.")
    required_paths = serializers.IntegerField(help_text="ceil(constraint x design_paths).")
    design_paths = serializers.IntegerField()


class RecoveryLinkOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    state = serializers.ChoiceField(choices=["down", "disabled"])


class RecoveryUnreachableTorSerializer(UnreachableTorSerializer):
    switch = serializers.IntegerField()
    links_out = RecoveryLinkOutSerializer(
        many=True, help_text="Its own uplinks out of service (down, else disabled): what to repair first."
    )


class RecoveryProposalSerializer(serializers.Serializer):
    """The ToRs under their requirement now, the lossy links whose re-enabling brings them back at
    the least added penalty, and the ToRs that need a repair instead."""

    fabric = serializers.IntegerField()
    auto_restore = serializers.BooleanField(help_text="The system applies the recovery when links go down.")
    detail = serializers.CharField(help_text="One sentence naming the worst ToR and its numbers.")
    under_tors = RecoveryTorSerializer(many=True, help_text="ToRs under their requirement now, worst first.")
    links = RestorationLinkSerializer(many=True, help_text="Links disabled for corruption to enable (ids ascending).")
    added_penalty = serializers.FloatField(help_text="CorrOpt's penalty the links add (0 when none).")
    proven_optimal = serializers.BooleanField()
    unreachable_tors = RecoveryUnreachableTorSerializer(
        many=True, help_text="ToRs no lossy link brings back: they need a repair."
    )


class RecoveryApplySerializer(serializers.Serializer):
    links = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        allow_empty=False,
        max_length=10_000,
        help_text="The ids of the links the proposal enables, exactly.",
    )


class RecoveryAppliedSerializer(serializers.Serializer):
    enabled = RestorationLinkSerializer(
        many=True, help_text="The links enabled (reason 'restoration: capacity recovery')."
    )
    added_penalty = serializers.FloatField()
    detail = serializers.CharField(help_text="What the recovery did, one sentence.")
    after = RecoveryProposalSerializer(help_text="The fabric's proposal now (its unreachable ToRs still under).")
