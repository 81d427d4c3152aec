from rest_framework import serializers

from fabric.api.serializers import GuardPreviewSerializer
from lightpath.api.serializers import BriefModelSerializer

from ..models import WorkOrder


class WorkOrderSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="workorder-detail")
    tickets = serializers.SerializerMethodField(help_text="Ids of its tickets.")
    footprint_size = serializers.SerializerMethodField(help_text="Links out of service while it is done.")

    class Meta:
        model = WorkOrder
        fields = [
            "id", "url", "fabric", "state", "action", "component", "component_name", "footprint", "footprint_size",
            "duration_s", "success_chance", "tickets", "created", "updated",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "state", "action", "component_name")

    def get_tickets(self, order: WorkOrder) -> list[int]:
        return sorted(entry.ticket_id for entry in order.entries.all())

    def get_footprint_size(self, order: WorkOrder) -> int:
        return len(order.footprint)


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


class WorkOrderDetailSerializer(WorkOrderSerializer):
    """A work order with what a technician and an operator decide on: its tickets, the links it
    takes down, the ToRs on them and the capacity guard's verdict on starting it now (a dry run
    with reason `maintenance`)."""

    ticket_details = WorkOrderTicketSerializer(many=True, read_only=True)
    footprint_links = FootprintLinkSerializer(many=True, read_only=True)
    tors = serializers.ListField(child=serializers.CharField(), read_only=True, help_text="ToRs on the footprint.")
    guard = GuardPreviewSerializer(read_only=True)

    class Meta(WorkOrderSerializer.Meta):
        fields = [*WorkOrderSerializer.Meta.fields, "ticket_details", "footprint_links", "tors", "guard"]
        read_only_fields = fields
