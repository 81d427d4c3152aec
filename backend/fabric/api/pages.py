"""The header's search and the switch and rack pages (issue #20, "Find" and "Object pages"):
read-only answers for every role (accounts.permissions.RolePermission: signed in with a role;
anonymous 401, no role 403, as every endpoint)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import RolePermission
from corruption.models import Ticket

from ..models import Fabric, Link, Switch
from ..services import overview, search
from .serializers import TorCapacitySerializer


class SearchHitSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # a field named as the Field attribute it hides
    subtitle = serializers.CharField(help_text="Fabric, rack, state: what tells two hits apart.")
    path = serializers.CharField(help_text="The UI page the hit opens, e.g. /switches/12.")


class SearchGroupSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["switch", "port", "link", "transceiver", "rack", "ticket", "job"])
    title = serializers.CharField()
    hits = SearchHitSerializer(many=True)
    more = serializers.BooleanField(help_text="More match than the hits listed: type more.")


class SearchAnswerSerializer(serializers.Serializer):
    query = serializers.CharField()
    groups = SearchGroupSerializer(many=True, help_text="Only kinds with hits, in a fixed order.")


class SwitchLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    a_switch = serializers.IntegerField()
    a_switch_name = serializers.CharField()
    a_port = serializers.CharField()
    a_rack = serializers.CharField(help_text="Blank when the switch has no rack recorded.")
    z_switch = serializers.IntegerField()
    z_switch_name = serializers.CharField()
    z_port = serializers.CharField()
    z_rack = serializers.CharField()
    health = serializers.ChoiceField(choices=Link.Health.choices)
    admin_state = serializers.ChoiceField(choices=Link.AdminState.choices)
    admin_reason = serializers.CharField()
    oper_state = serializers.ChoiceField(choices=Link.OperState.choices)
    flapping = serializers.BooleanField()
    down_for_maintenance = serializers.BooleanField(help_text="Disabled with a 'maintenance' reason (a drain).")


class OpenTicketSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Ticket.Kind.choices)
    state = serializers.ChoiceField(choices=Ticket.State.choices)
    link = serializers.IntegerField()
    link_name = serializers.CharField()
    assignee = serializers.CharField(allow_null=True)
    created = serializers.DateTimeField()


class SwitchOverviewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    fabric = serializers.IntegerField()
    fabric_name = serializers.CharField()
    tier = serializers.IntegerField()
    tier_name = serializers.CharField()
    pod = serializers.IntegerField(allow_null=True)
    plane = serializers.IntegerField(allow_null=True)
    rack = serializers.CharField()
    vendor = serializers.CharField()
    model = serializers.CharField()
    drained = serializers.BooleanField(help_text="Some link of the switch is disabled for maintenance.")
    maintenance_links = serializers.IntegerField(help_text="Links disabled for maintenance.")
    usable_links = serializers.IntegerField(help_text="Links enabled and operationally up.")
    capacity = TorCapacitySerializer(allow_null=True, help_text="A ToR's up-paths against its constraint; else null.")
    links = SwitchLinkSerializer(many=True)
    open_tickets = OpenTicketSerializer(many=True)


class RackSummarySerializer(serializers.Serializer):
    rack = serializers.CharField()
    switches = serializers.IntegerField()
    tors = serializers.IntegerField()


class RackSwitchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    tier = serializers.IntegerField()
    tier_name = serializers.CharField()
    pod = serializers.IntegerField(allow_null=True)
    links = serializers.IntegerField()
    maintenance_links = serializers.IntegerField()


class RackOverviewSerializer(serializers.Serializer):
    fabric = serializers.IntegerField()
    fabric_name = serializers.CharField()
    rack = serializers.CharField()
    switches = RackSwitchSerializer(many=True)
    links = SwitchLinkSerializer(many=True, help_text="Links with at least one end in the rack.")
    links_leaving = serializers.IntegerField(help_text="Links whose other end is in another rack.")
    open_tickets = OpenTicketSerializer(many=True)


class SearchView(APIView):
    permission_classes = [RolePermission]

    @extend_schema(
        parameters=[
            OpenApiParameter("q", str, required=True, description="What to find (1 to 100 characters)."),
            OpenApiParameter("fabric", int, description="Only this fabric's objects."),
            OpenApiParameter("limit", int, description=f"Hits per kind, 1 to {search.MAX_PER_KIND} (default 5)."),
        ],
        responses={200: SearchAnswerSerializer},
        description="Switches by name, ports ('tor1:eth2/1' or 'eth2/1'), links ('a - b' or an id), transceiver "
        "serials, racks, tickets ('#12', 'ticket 12') and jobs (id or kind), grouped by kind. A blank or too long q "
        "is a 400 naming the problem.",
    )
    def get(self, request):
        params = request.query_params
        problems: dict[str, list[str]] = {}
        try:
            q, per_kind = search.clean_query(params.get("q"), params.get("limit"))
        except search.SearchError as exc:
            problems.update(exc.problems)
        fabric = None
        if params.get("fabric"):
            fabric = Fabric.objects.filter(pk=int(params["fabric"])).first() if params["fabric"].isdigit() else None
            if fabric is None:
                problems["fabric"] = [f"no fabric with id {params['fabric']!r}"]
        if problems:
            raise serializers.ValidationError(problems)
        groups = search.search(q, fabric=fabric, per_kind=per_kind)
        return Response(SearchAnswerSerializer({"query": q, "groups": groups}).data)


class SwitchOverviewView(APIView):
    permission_classes = [RolePermission]

    @extend_schema(responses={200: SwitchOverviewSerializer})
    def get(self, request, pk: int):
        """The switch page: its links with both ends' racks, capacity if a ToR, open tickets, drain."""
        switch = get_object_or_404(Switch.objects.select_related("fabric"), pk=pk)
        return Response(SwitchOverviewSerializer(overview.switch_overview(switch)).data)


class FabricRacksView(APIView):
    permission_classes = [RolePermission]

    @extend_schema(responses={200: RackSummarySerializer(many=True)})
    def get(self, request, pk: int):
        """Every rack of the fabric (from its switches' `rack`), with how many switches it holds."""
        fabric = get_object_or_404(Fabric, pk=pk)
        return Response(RackSummarySerializer(overview.fabric_racks(fabric), many=True).data)


class RackOverviewView(APIView):
    permission_classes = [RolePermission]

    @extend_schema(responses={200: RackOverviewSerializer})
    def get(self, request, pk: int, rack: str):
        """The rack page: its switches, their links (both ends' racks) and open tickets."""
        fabric = get_object_or_404(Fabric, pk=pk)
        answer = overview.rack_overview(fabric, rack)
        if answer is None:
            raise NotFound(f"no switch of fabric {fabric.name} is in rack {rack!r}")
        return Response(RackOverviewSerializer(answer).data)
