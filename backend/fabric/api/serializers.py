from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied

from accounts.roles import ADMIN, OPERATOR, user_roles
from jobs.api.results import result_of
from jobs.api.serializers import JobSerializer
from lightpath.api.serializers import BriefModelSerializer
from telemetry.api.serializers import LinkForecastBriefSerializer

from ..models import Fabric, Link, Switch, Transceiver, TransceiverModel
from ..services import check_link_ends
from ..services import components as link_components
from ..services.catalog import clean_stretch


class FabricSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="fabric-detail")
    tiers = serializers.ListField(child=serializers.CharField(max_length=32), min_length=2)
    switch_count = serializers.IntegerField(read_only=True)
    link_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Fabric
        fields = [
            "id",
            "url",
            "name",
            "description",
            "tiers",
            "capacity_constraint",
            "telemetry_window_s",
            "corruption_action_threshold",
            "corruption_report_threshold",
            "telemetry_min_packets",
            "auto_restore",
            "forecast_horizon_days",
            "forecast_min_confidence",
            "auto_preventive_tickets",
            "switch_count",
            "link_count",
            "created",
            "updated",
        ]
        brief_fields = ("id", "url", "name")

    def _operators_only(self, name: str, value: bool) -> bool:
        request = self.context.get("request")
        before = getattr(self.instance, name, False)
        if value != before and request is not None and not (user_roles(request.user) & {OPERATOR, ADMIN}):
            raise PermissionDenied(f"Only operators and admins may change {name}.")
        return value

    def validate_auto_restore(self, value: bool) -> bool:
        """Letting technicians re-enable lossy links without approval is an operator's call."""
        return self._operators_only("auto_restore", value)

    def validate_auto_preventive_tickets(self, value: bool) -> bool:
        """Tickets opened by themselves send technicians out: an operator's call too."""
        return self._operators_only("auto_preventive_tickets", value)

    def validate(self, attrs):
        action = attrs.get("corruption_action_threshold", getattr(self.instance, "corruption_action_threshold", 1e-6))
        report = attrs.get("corruption_report_threshold", getattr(self.instance, "corruption_report_threshold", 1e-8))
        if report > action:
            raise serializers.ValidationError(
                {"corruption_report_threshold": ["must not exceed corruption_action_threshold"]}
            )
        return attrs

    def validate_tiers(self, tiers):
        if len(set(tiers)) != len(tiers):
            raise serializers.ValidationError("tier names must be unique")
        if self.instance is not None:
            highest = self.instance.switches.order_by("-tier").values_list("tier", flat=True).first()
            if highest is not None and highest >= len(tiers):
                raise serializers.ValidationError(
                    f"switches exist on tier {highest}; the fabric needs at least {highest + 1} tiers"
                )
        return tiers


class SwitchSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="switch-detail")
    effective_capacity_constraint = serializers.FloatField(read_only=True)
    drained = serializers.BooleanField(read_only=True, help_text="Some link of the switch is disabled for maintenance.")

    class Meta:
        model = Switch
        fields = [
            "id", "url", "fabric", "name", "tier", "pod", "plane", "rack", "vendor", "model",
            "capacity_constraint", "effective_capacity_constraint", "drained",
        ]  # fmt: skip
        brief_fields = ("id", "url", "name", "tier")

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:  # a switch's place in the fabric is fixed once it exists
            for name in ("fabric", "tier"):
                if name in fields:
                    fields[name].read_only = True
        return fields

    def validate(self, attrs):
        fabric = attrs.get("fabric") or getattr(self.instance, "fabric", None)
        tier = attrs.get("tier", getattr(self.instance, "tier", None))
        if fabric is not None and tier is not None and tier >= len(fabric.tiers):
            raise serializers.ValidationError(
                {"tier": [f"must be below {len(fabric.tiers)} (the fabric's tier count)"]}
            )
        return attrs


# An id no row has, reversed once per request to find where a row's id goes in its URL.
_URL_ID_PLACEHOLDER = 987654321987654321


class IdentityUrlField(serializers.HyperlinkedIdentityField):
    """DRF's identity URL, reversed once per request and then completed with each row's id: DRF
    resolves the route again for every row, a quarter of the CPU of a 1,000-link page. The string
    is the same (an integer id is not quoted)."""

    def get_url(self, obj, view_name, request, format):
        pk = getattr(obj, "pk", None)
        if format or self.lookup_field != "pk" or not isinstance(pk, int):
            return super().get_url(obj, view_name, request, format)
        cached = getattr(self, "_url_parts", None)
        if cached is None or cached[0] is not request or cached[1] != view_name:
            url = self.reverse(view_name, kwargs={self.lookup_url_kwarg: _URL_ID_PLACEHOLDER}, request=request)
            head, _, tail = url.rpartition(str(_URL_ID_PLACEHOLDER))
            cached = self._url_parts = (request, view_name, head, tail)
        return f"{cached[2]}{pk}{cached[3]}"


class SiblingLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="a_switch:a_port - z_switch:z_port")


class BreakoutComponentSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The link's own breakout label, or the rule's switch and port range.")
    explicit = serializers.BooleanField(help_text="Named by the link (breakout), not by the port rule.")
    side = serializers.ChoiceField(
        choices=["a", "z"], allow_null=True, help_text="The side holding the shared breakout transceiver."
    )
    siblings = SiblingLinkSerializer(many=True)


class CableComponentSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["cable_id", "breakout", "own"],
        help_text="cable_id: named by the links; breakout: the breakout cable; own: the link's own cable.",
    )
    name = serializers.CharField()
    siblings = SiblingLinkSerializer(many=True)


class LineCardsSerializer(serializers.Serializer):
    a = serializers.CharField(allow_null=True)
    z = serializers.CharField(allow_null=True)


class LinkComponentsSerializer(serializers.Serializer):
    """What the link shares with others (fabric.services.components)."""

    breakout = BreakoutComponentSerializer(allow_null=True)
    cable = CableComponentSerializer()
    line_cards = LineCardsSerializer()


def components_answer(found: link_components.Components, link_id: int) -> dict:
    item = found.of(link_id)

    def refs(key: str | None) -> list[dict]:
        return [{"id": other, "name": found.name(other)} for other in found.siblings(link_id, key)]

    breakout = None
    if item.breakout is not None:
        breakout = {
            "name": item.breakout_label,
            "explicit": item.breakout_explicit,
            "side": item.breakout_side,
            "siblings": refs(item.breakout),
        }
    kind = "cable_id" if item.cable_id else "breakout" if item.breakout else "own"
    names = {"cable_id": item.cable_id, "breakout": f"breakout cable {item.breakout_label}", "own": "its own cable"}
    return {
        "breakout": breakout,
        "cable": {"kind": kind, "name": names[kind], "siblings": refs(item.cable)},
        "line_cards": dict(item.line_cards),
    }


class LinkListSerializer(serializers.ListSerializer):
    """Resolves the components of a whole page at once (two queries, not two per link)."""

    def to_representation(self, data):
        rows = list(data.all() if hasattr(data, "all") else data)
        child = self.child
        if isinstance(child, LinkSerializer) and "components" in child.fields:
            child.resolved = link_components.resolve([row.pk for row in rows])
        return super().to_representation(rows)


class LinkSerializer(BriefModelSerializer):
    url = IdentityUrlField(view_name="link-detail")
    components = serializers.SerializerMethodField()
    resolved: link_components.Components | None = None  # a page's, set by LinkListSerializer
    a_switch_name = serializers.CharField(source="a_switch.name", read_only=True)
    z_switch_name = serializers.CharField(source="z_switch.name", read_only=True)
    a_rack = serializers.CharField(source="a_switch.rack", read_only=True, help_text="Blank: no rack recorded.")
    z_rack = serializers.CharField(source="z_switch.rack", read_only=True, help_text="Blank: no rack recorded.")
    admin_changed_by: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="username", read_only=True)
    forecast = LinkForecastBriefSerializer(
        read_only=True, allow_null=True, help_text="Its optics forecast; null when none is forecast to cross a limit."
    )
    override_capacity = serializers.BooleanField(
        write_only=True,
        default=False,
        help_text="Admins only, with an admin_reason: take the link out of service although a ToR falls under "
        "its capacity constraint.",
    )

    class Meta:
        model = Link
        fields = [
            "id", "url", "fabric", "a_switch", "a_switch_name", "a_port", "a_rack", "z_switch", "z_switch_name",
            "z_port", "z_rack", "length_m", "fiber", "speed_gbps", "admin_state", "admin_reason", "admin_changed_by",
            "admin_changed_at", "oper_state", "oper_changed_at", "flapping", "health", "rx_low", "override_capacity",
            "breakout", "cable_id", "a_line_card", "z_line_card", "components", "forecast",
        ]  # fmt: skip
        list_serializer_class = LinkListSerializer
        # Measured by telemetry (oper_status), never typed.
        read_only_fields = ["admin_changed_at", "oper_state"]
        brief_fields = (
            "id", "url", "a_switch_name", "a_port", "z_switch_name", "z_port", "admin_state", "oper_state", "health",
        )  # fmt: skip
        # Port uniqueness is checked across both ends in validate(); the per-side DB
        # constraints remain as a last line of defence.
        validators: list = []

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:  # ends are fixed; recable by deleting and creating a link
            for name in ("fabric", "a_switch", "a_port", "z_switch", "z_port"):
                if name in fields:
                    fields[name].read_only = True
        return fields

    @extend_schema_field(LinkComponentsSerializer)
    def get_components(self, link: Link) -> dict:
        found = self.resolved
        if found is None or link.pk not in found.asked:
            found = link_components.resolve([link.pk])
        return components_answer(found, link.pk)

    def create(self, validated_data):
        validated_data.pop("override_capacity", None)  # a new link takes nothing out of service
        return super().create(validated_data)

    def validate(self, attrs):
        if self.instance is not None:
            return attrs
        fabric, a, z = attrs["fabric"], attrs["a_switch"], attrs["z_switch"]
        errors = {}
        for key, switch in (("a_switch", a), ("z_switch", z)):
            if switch.fabric_id != fabric.pk:
                errors[key] = [f"switch '{switch.name}' belongs to another fabric"]
        if not errors:
            problem = check_link_ends(a.tier, z.tier)
            if problem:
                errors["z_switch"] = [problem]
        if not errors:
            if a.tier > z.tier:  # side A is always the lower tier
                attrs["a_switch"], attrs["z_switch"] = z, a
                attrs["a_port"], attrs["z_port"] = attrs["z_port"], attrs["a_port"]
            for side in ("a", "z"):
                switch, port = attrs[f"{side}_switch"], attrs[f"{side}_port"]
                if (
                    Link.objects.filter(a_switch=switch, a_port=port).exists()
                    or Link.objects.filter(z_switch=switch, z_port=port).exists()
                ):
                    errors[f"{side}_port"] = [f"port {switch.name}:{port} is already used by another link"]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class LinkStateChangeSerializer(serializers.Serializer):
    """One entry of a bulk change (PATCH /api/links/ with a list)."""

    id = serializers.IntegerField()
    admin_state = serializers.ChoiceField(choices=Link.AdminState.choices)
    admin_reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    override_capacity = serializers.BooleanField(required=False, default=False)


class DrainSerializer(serializers.Serializer):
    admin_reason = serializers.CharField(
        max_length=180, required=False, allow_blank=True, default="", help_text="Why, after 'maintenance: '."
    )
    override_capacity = serializers.BooleanField(required=False, default=False)


class GuardTorSerializer(serializers.Serializer):
    switch = serializers.IntegerField()
    name = serializers.CharField()
    paths_before = serializers.IntegerField()
    paths_after = serializers.IntegerField()
    required_paths = serializers.IntegerField()
    design_paths = serializers.IntegerField()
    constraint = serializers.FloatField()


class GuardPreviewSerializer(serializers.Serializer):
    """The answer of a dry run (?dry_run=1)."""

    verdict = serializers.ChoiceField(choices=["safe", "unsafe"])
    detail = serializers.CharField()
    links = serializers.ListField(child=serializers.IntegerField())
    affected_tors = GuardTorSerializer(many=True)
    blocking_tors = GuardTorSerializer(many=True)


class GuardRefusalSerializer(serializers.Serializer):
    """409: taking these links out would leave a ToR under its capacity constraint."""

    detail = serializers.CharField()
    blocking_tors = GuardTorSerializer(many=True)
    links = serializers.ListField(child=serializers.IntegerField())


class DrainResultSerializer(serializers.Serializer):
    switch = serializers.IntegerField()
    links = serializers.ListField(child=serializers.IntegerField(), help_text="The links whose state changed.")
    affected_tors = GuardTorSerializer(many=True)
    detail = serializers.CharField()


class StretchEntrySerializer(serializers.Serializer):
    """One stretched reach (OpenAPI shape only: TransceiverModelSerializer.validate checks them)."""

    nrb = serializers.FloatField(help_text="Network reliability bound, a fraction in (0, 1).")
    reach_m = serializers.FloatField(help_text="Reach in metres at that bound, beyond the rated reach.")


@extend_schema_field(StretchEntrySerializer(many=True))
class StretchField(serializers.JSONField):
    """The stretch list as plain JSON, so that validate() can report every entry's problems at once."""


class TransceiverModelSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="transceivermodel-detail")
    stretch = StretchField(
        required=False,
        help_text="Stretched reach per network reliability bound (NRB); empty = not stretched.",
    )
    price_source = serializers.ChoiceField(
        choices=TransceiverModel.PriceSource.choices,
        required=False,
        allow_blank=True,
        help_text="Where price_usd comes from; set to planner when a price is entered without it, "
        "blank when there is no price.",
    )

    class Meta:
        model = TransceiverModel
        fields = [
            "id", "url", "name", "speed_gbps", "fiber", "reach_m", "price_usd", "price_source",
            "stretch", "link_fec", "power_w",
            "rx_power_min_dbm", "rx_power_max_dbm", "tx_power_min_dbm", "tx_power_max_dbm",
        ]  # fmt: skip
        brief_fields = ("id", "url", "name")

    # Field validators, not validate(): DRF reports every field's problems together only from these.
    def _rated_reach(self) -> float | None:
        raw = self.initial_data.get("reach_m") if isinstance(self.initial_data, dict) else None
        if raw is None:
            return self.instance.reach_m if self.instance else None
        try:
            return float(raw)
        except (TypeError, ValueError):
            return None  # reach_m reports its own problem

    def validate_stretch(self, value):
        stretch, problems = clean_stretch(value, self._rated_reach())
        if problems:
            raise serializers.ValidationError(problems)
        return stretch

    def validate_reach_m(self, value):
        if self.instance is not None and "stretch" not in self.initial_data:
            _, problems = clean_stretch(self.instance.stretch, value)
            if problems:
                raise serializers.ValidationError([f"the stored stretch no longer fits: {p}" for p in problems])
        return value

    def validate_price_usd(self, value):
        if value is not None and value < 0:
            raise serializers.ValidationError(f"must not be negative, got {value}")
        return value

    def validate(self, attrs):
        instance = self.instance
        price = attrs.get("price_usd", instance.price_usd if instance else None)
        price_changed = instance is None or ("price_usd" in attrs and attrs["price_usd"] != instance.price_usd)
        if price is None:
            attrs["price_source"] = ""
        elif not attrs.get("price_source") and (price_changed or "price_source" in attrs):
            # A price typed in without saying where it comes from is the planner's own.
            attrs["price_source"] = TransceiverModel.PriceSource.PLANNER
        return attrs


class TransceiverSerializer(BriefModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="transceiver-detail")
    model_name = serializers.CharField(source="model.name", read_only=True)

    class Meta:
        model = Transceiver
        fields = ["id", "url", "link", "side", "model", "model_name", "serial", "installed_at", "last_reseated_at"]
        brief_fields = ("id", "url", "link", "side", "model_name")


class InterchangeErrorSerializer(serializers.Serializer):
    section = serializers.CharField()
    index = serializers.IntegerField(allow_null=True)
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()


# --- Answers built by the fabric services, described for OpenAPI ------------------------------------


class TopologySwitchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    tier = serializers.IntegerField()
    pod = serializers.IntegerField(allow_null=True)
    plane = serializers.IntegerField(allow_null=True)


class TopologyLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    a = serializers.IntegerField(help_text="Switch id of the lower tier's end.")
    z = serializers.IntegerField()
    admin_state = serializers.ChoiceField(choices=Link.AdminState.choices)
    oper_state = serializers.ChoiceField(choices=Link.OperState.choices)
    health = serializers.ChoiceField(choices=Link.Health.choices, help_text="From telemetry.")


class FabricTopologySerializer(serializers.Serializer):
    """Switches and links in a compact form for drawing."""

    fabric = serializers.IntegerField()
    tiers = serializers.ListField(child=serializers.CharField(), help_text="Bottom-up: index 0 is the ToR tier.")
    switches = TopologySwitchSerializer(many=True)
    links = TopologyLinkSerializer(many=True)
    corrupting_in_service = serializers.IntegerField(
        help_text="Links enabled and up with an open corruption event: the count Health and Links show too."
    )


class TorCapacitySerializer(serializers.Serializer):
    switch = serializers.IntegerField()
    name = serializers.CharField()
    pod = serializers.IntegerField(allow_null=True)
    available_paths = serializers.IntegerField()
    total_paths = serializers.IntegerField()
    fraction = serializers.FloatField(help_text="Fraction of ToR-to-top paths available, 0..1.")
    constraint = serializers.FloatField()
    required_paths = serializers.IntegerField(help_text="ceil(constraint x design paths).")
    below_constraint = serializers.BooleanField()
    headroom_paths = serializers.IntegerField(help_text="Paths it can lose before it falls under its constraint.")


class CapacitySummarySerializer(serializers.Serializer):
    tors = serializers.IntegerField()
    below_constraint = serializers.IntegerField()
    min_fraction = serializers.FloatField(allow_null=True, help_text="null for a fabric without ToRs.")


class FabricCapacitySerializer(serializers.Serializer):
    fabric = serializers.IntegerField()
    capacity_constraint = serializers.FloatField()
    summary = CapacitySummarySerializer()
    tors = TorCapacitySerializer(many=True)


class PodCapacitySerializer(serializers.Serializer):
    pod = serializers.IntegerField(allow_null=True)
    tors = serializers.IntegerField()
    below_constraint = serializers.IntegerField()
    min_fraction = serializers.FloatField()


@result_of("fabric.capacity_report")
class CapacityReportResultSerializer(serializers.Serializer):
    summary = CapacitySummarySerializer()
    pods = PodCapacitySerializer(many=True)
    below_constraint = TorCapacitySerializer(many=True)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number"},
            {"type": "string"},
            {"type": "boolean"},
            {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "number"}}},
        ],
        "nullable": True,
    }
)
class CatalogValueField(serializers.JSONField):
    """A transceiver model field's value: a number, a string, a boolean, the stretch list or null."""


class CatalogDifferenceSerializer(serializers.Serializer):
    document = CatalogValueField(help_text="The document's value.")
    catalog = CatalogValueField(help_text="The catalog's value, which the import keeps.")


class KeptTransceiverModelSerializer(serializers.Serializer):
    name = serializers.CharField()
    differences = serializers.DictField(
        child=CatalogDifferenceSerializer(), help_text="Field name -> the document's and the catalog's value."
    )


@result_of("fabric.import")
class ImportResultSerializer(serializers.Serializer):
    fabric = serializers.IntegerField()
    name = serializers.CharField()


class CapacityConstraintsSerializer(serializers.Serializer):
    fabric = serializers.IntegerField()
    default = serializers.FloatField(help_text="Fraction of its up-paths every ToR must keep, 0..1.")
    overrides = serializers.DictField(child=serializers.FloatField(), help_text="ToR name -> its own fraction.")
    tors = serializers.IntegerField()


class ConstraintChangeSerializer(serializers.Serializer):
    switch = serializers.CharField(allow_null=True, help_text="null for the fabric's default.")
    before = serializers.FloatField(allow_null=True)
    after = serializers.FloatField(allow_null=True)


class ConstraintsChangedSerializer(CapacityConstraintsSerializer):
    changes = ConstraintChangeSerializer(many=True)
    optimizer_job = JobSerializer(allow_null=True, help_text="The optimizer run the change queued (or pending).")


class DocumentSwitchSerializer(serializers.Serializer):
    name = serializers.CharField()
    tier = serializers.IntegerField()
    pod = serializers.IntegerField(allow_null=True)
    plane = serializers.IntegerField(allow_null=True)
    rack = serializers.CharField()
    vendor = serializers.CharField()
    model = serializers.CharField()
    capacity_constraint = serializers.FloatField(allow_null=True)


class DocumentLinkSerializer(serializers.Serializer):
    a = serializers.CharField()
    a_port = serializers.CharField()
    b = serializers.CharField()
    b_port = serializers.CharField()
    length_m = serializers.FloatField(allow_null=True)
    speed_gbps = serializers.IntegerField(allow_null=True)
    fiber = serializers.CharField(allow_null=True)
    transceiver_model = serializers.CharField(allow_null=True)
    admin_state = serializers.ChoiceField(choices=Link.AdminState.choices)
    oper_state = serializers.ChoiceField(choices=Link.OperState.choices)
    breakout = serializers.CharField(required=False, help_text="Breakout group label (blank: by the port rule).")
    cable_id = serializers.CharField(required=False, help_text="Cable or trunk the link rides.")
    a_line_card = serializers.CharField(required=False, help_text="Line card at end a (blank: the port prefix).")
    b_line_card = serializers.CharField(required=False, help_text="Line card at end b (blank: the port prefix).")


class DocumentTransceiverModelSerializer(serializers.Serializer):
    name = serializers.CharField()
    speed_gbps = serializers.IntegerField()
    fiber = serializers.CharField()
    reach_m = serializers.FloatField()
    price_usd = serializers.FloatField(allow_null=True)
    price_source = serializers.CharField()
    stretch = StretchEntrySerializer(many=True)
    link_fec = serializers.BooleanField()
    power_w = serializers.FloatField(allow_null=True)
    rx_power_min_dbm = serializers.FloatField(allow_null=True)
    rx_power_max_dbm = serializers.FloatField(allow_null=True)
    tx_power_min_dbm = serializers.FloatField(allow_null=True)
    tx_power_max_dbm = serializers.FloatField(allow_null=True)


class FabricDocumentSerializer(serializers.Serializer):
    """The interchange document (format lightpath-fabric/1), as POST /api/fabrics/import/ takes it."""

    format = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    tiers = serializers.ListField(child=serializers.CharField())
    capacity_constraint = serializers.FloatField()
    switches = DocumentSwitchSerializer(many=True)
    links = DocumentLinkSerializer(many=True)
    transceiver_models = DocumentTransceiverModelSerializer(many=True)
