import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework import serializers

from fabric.models import Fabric, Link
from lightpath.api.serializers import BriefModelSerializer

from .. import metrics, tickets
from ..models import Decision, Ticket, TicketComment, TicketStep


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
    penalty = serializers.FloatField(read_only=True)
    recommended_action = serializers.CharField(read_only=True, allow_null=True)
    step_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Ticket
        fields = [
            "id", "url", "fabric", "link", "link_name", "pod", "direction", "state", "assignee", "penalty",
            "recommended_action", "step_count", "decision", "validation_started_at", "resolved_at", "created",
            "updated",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "link", "state")


class TicketStepSerializer(serializers.ModelSerializer):
    technician = serializers.CharField(source="technician.username", read_only=True, default=None)

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
        "last_reseated_at": transceiver.last_reseated_at if transceiver else None,
    }


class TicketDetailSerializer(TicketSerializer):
    ends = serializers.SerializerMethodField()
    steps = TicketStepSerializer(many=True, read_only=True)
    comments = TicketCommentSerializer(many=True, read_only=True)
    recommendation = serializers.SerializerMethodField()

    class Meta(TicketSerializer.Meta):
        fields = [*TicketSerializer.Meta.fields, "ends", "recommendation", "steps", "comments"]
        read_only_fields = fields

    def get_ends(self, ticket: Ticket) -> list[dict]:
        return [link_end(ticket.link, "a"), link_end(ticket.link, "z")]

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


class ActionSerializer(serializers.Serializer):
    action_taken = serializers.ChoiceField(choices=tickets.ACTIONS)
    notes = serializers.CharField(required=False, allow_blank=True, default="", max_length=10_000)


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


class MetricsHistoryBucketSerializer(serializers.Serializer):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField(help_text="Exclusive")
    tickets_opened = serializers.IntegerField()
    tickets_resolved = serializers.IntegerField()
    open_tickets = serializers.IntegerField(help_text="Unresolved at the bucket's end")
    first_attempt = FirstAttemptSerializer(help_text="First steps acted in the bucket whose outcome is known")
    mean_time_to_repair_hours = serializers.FloatField(
        allow_null=True, help_text="Ticket opened -> the action that fixed it, for the fixes acted in the bucket"
    )
    repaired_tickets = serializers.IntegerField(help_text="Actions in the bucket that fixed their ticket")
    links_disabled = serializers.IntegerField(help_text="Decisions that disabled a link for corruption")
    repair_actions = serializers.IntegerField(help_text="Actions recorded; each re-enables its link")


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
