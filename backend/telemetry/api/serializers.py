from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from corruption.models import Ticket
from fabric.models import Link
from lightpath.api.serializers import BriefModelSerializer

from ..models import CorruptionEvent, LinkForecast, PowerClass, PowerThreshold
from ..services import forecasts
from ..services.forecasts import RECOMMENDED_ACTIONS
from ..services.rules import POWER_MAX_DBM, POWER_MIN_DBM


class CorruptionEventSerializer(BriefModelSerializer):
    link_name = serializers.CharField(source="link.__str__", read_only=True)
    fabric = serializers.IntegerField(source="link.fabric_id", read_only=True)

    class Meta:
        model = CorruptionEvent
        fields = [
            "id", "link", "link_name", "fabric", "direction", "rate", "first_seen", "last_rate", "peak_rate",
            "last_seen", "ended_at",
        ]  # fmt: skip
        brief_fields = ("id", "link", "direction", "rate", "first_seen", "ended_at")


def _limit():
    return serializers.FloatField(required=False, allow_null=True, min_value=POWER_MIN_DBM, max_value=POWER_MAX_DBM)


class PowerThresholdSerializer(BriefModelSerializer):
    """Manual overrides are written here; device rows come from ingest and are read-only."""

    input_power_lower_dbm = _limit()
    input_power_upper_dbm = _limit()
    output_power_lower_dbm = _limit()
    output_power_upper_dbm = _limit()

    class Meta:
        model = PowerThreshold
        fields = [
            "id", "link", "side", "source", "input_power_lower_dbm", "input_power_upper_dbm",
            "output_power_lower_dbm", "output_power_upper_dbm", "updated",
        ]  # fmt: skip
        read_only_fields = ["source", "updated"]
        brief_fields = ("id", "link", "side", "source")
        validators: list = []  # (link, side, source) uniqueness is checked in validate()

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:  # an override belongs to its link end for good
            for name in ("link", "side"):
                if name in fields:
                    fields[name].read_only = True
        return fields

    def validate(self, attrs):
        errors = {}
        link = attrs.get("link", getattr(self.instance, "link", None))
        side = attrs.get("side", getattr(self.instance, "side", None))
        if self.instance is None and PowerThreshold.objects.filter(link=link, side=side, source="manual").exists():
            errors["side"] = ["this link end already has a manual override; edit it instead"]
        for kind in ("input", "output"):
            lower = attrs.get(f"{kind}_power_lower_dbm", getattr(self.instance, f"{kind}_power_lower_dbm", None))
            upper = attrs.get(f"{kind}_power_upper_dbm", getattr(self.instance, f"{kind}_power_upper_dbm", None))
            if lower is not None and upper is not None and lower >= upper:
                errors[f"{kind}_power_upper_dbm"] = ["must be above the lower limit"]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


# --- Answers, described for OpenAPI only (the services build the JSON; the contract test checks it) ---


class IngestResultSerializer(serializers.Serializer):
    """POST /api/telemetry/'s 200 answer: what the batch stored (services/ingest.IngestResult)."""

    fabric = serializers.CharField(help_text="The fabric's name.")
    samples = serializers.IntegerField(help_text="Samples in the batch.")
    inserted = serializers.IntegerField(help_text="New samples stored.")
    merged = serializers.IntegerField(
        help_text="Samples merged into a stored one of the same end and time (sent again)."
    )
    skipped_updates = serializers.IntegerField(help_text="gNMI/Prometheus paths Lightpath does not know, skipped.")
    skipped_samples = serializers.IntegerField(
        help_text="gNMI/Prometheus samples of a port that is no link end, skipped."
    )
    batch = serializers.IntegerField(allow_null=True, help_text="The stored batch's id (IngestBatch).")
    derivation = serializers.ChoiceField(
        choices=["done", "queued"], help_text="Windows, health and events: derived with the batch, or queued."
    )


class ResolvedThresholdSerializer(serializers.Serializer):
    value = serializers.FloatField(allow_null=True)
    provenance = serializers.ChoiceField(
        choices=["manual", "device", "catalog"], allow_null=True, help_text="null when no source has the limit."
    )


class SideThresholdsSerializer(serializers.Serializer):
    input_power_lower_dbm = ResolvedThresholdSerializer()
    input_power_upper_dbm = ResolvedThresholdSerializer()
    output_power_lower_dbm = ResolvedThresholdSerializer()
    output_power_upper_dbm = ResolvedThresholdSerializer()


class ThresholdsBySideSerializer(serializers.Serializer):
    a = SideThresholdsSerializer()
    z = SideThresholdsSerializer()


def _column(child: serializers.Field) -> serializers.ListField:
    return serializers.ListField(child=child)


class RawSideSeriesSerializer(serializers.Serializer):
    """Raw samples of one side; a value is null where not measured."""

    time = _column(serializers.DateTimeField())
    input_power_dbm = _column(serializers.FloatField(allow_null=True))
    output_power_dbm = _column(serializers.FloatField(allow_null=True))
    rx_no_light = _column(serializers.BooleanField())
    tx_no_light = _column(serializers.BooleanField())


class RawSidesSerializer(serializers.Serializer):
    a = RawSideSeriesSerializer()
    z = RawSideSeriesSerializer()


class HourlySideSeriesSerializer(serializers.Serializer):
    """Hourly aggregates of one side."""

    time = _column(serializers.DateTimeField())
    input_power_dbm_avg = _column(serializers.FloatField(allow_null=True))
    input_power_dbm_min = _column(serializers.FloatField(allow_null=True))
    input_power_dbm_max = _column(serializers.FloatField(allow_null=True))
    output_power_dbm_avg = _column(serializers.FloatField(allow_null=True))
    output_power_dbm_min = _column(serializers.FloatField(allow_null=True))
    output_power_dbm_max = _column(serializers.FloatField(allow_null=True))
    rx_no_light_samples = _column(serializers.IntegerField())


class HourlySidesSerializer(serializers.Serializer):
    a = HourlySideSeriesSerializer()
    z = HourlySideSeriesSerializer()


class RateSeriesSerializer(serializers.Serializer):
    """Loss rates as fractions; a null rate is a gap (counter reset, missing polls), not a zero."""

    time = _column(serializers.DateTimeField())
    rate = _column(serializers.FloatField(allow_null=True))


class DirectionLossSerializer(serializers.Serializer):
    corruption = RateSeriesSerializer()
    congestion = RateSeriesSerializer()


class LossByDirectionSerializer(serializers.Serializer):
    a_to_z = DirectionLossSerializer()
    z_to_a = DirectionLossSerializer()


class LossSeriesSignatureSerializer(serializers.Serializer):
    """Statistics of one loss series over the range (docs/telemetry.md, "Loss signatures")."""

    intervals = serializers.IntegerField()
    lossy_intervals = serializers.IntegerField()
    mean_rate = serializers.FloatField(allow_null=True)
    cv = serializers.FloatField(allow_null=True)
    load_correlation = serializers.FloatField(allow_null=True)
    mean_packets_per_s = serializers.FloatField(allow_null=True)
    signature = serializers.CharField(
        help_text="'corruption-like', 'congestion-like', 'clean', 'unclear' or 'insufficient data'."
    )


class DirectionSignatureSerializer(serializers.Serializer):
    verdict = serializers.CharField(help_text="The signature of the direction's larger lossy series, or 'clean'.")
    corruption = LossSeriesSignatureSerializer()
    congestion = LossSeriesSignatureSerializer()


class SignaturesByDirectionSerializer(serializers.Serializer):
    a_to_z = DirectionSignatureSerializer()
    z_to_a = DirectionSignatureSerializer()


class SideStatusSerializer(serializers.Serializer):
    """The newest readings of one end (all null before its first sample)."""

    optical_time = serializers.DateTimeField(allow_null=True)
    input_power_dbm = serializers.FloatField(allow_null=True)
    input_power_min_channel_dbm = serializers.FloatField(allow_null=True)
    output_power_dbm = serializers.FloatField(allow_null=True)
    output_power_min_channel_dbm = serializers.FloatField(allow_null=True)
    laser_bias_current_ma = serializers.FloatField(allow_null=True)
    temperature_c = serializers.FloatField(allow_null=True)
    supply_voltage_v = serializers.FloatField(allow_null=True)
    rx_no_light = serializers.BooleanField(allow_null=True)
    tx_no_light = serializers.BooleanField(allow_null=True)
    rx_class = serializers.ChoiceField(choices=PowerClass.choices, allow_null=True)
    tx_class = serializers.ChoiceField(choices=PowerClass.choices, allow_null=True)
    counter_time = serializers.DateTimeField(allow_null=True)
    thresholds = SideThresholdsSerializer()


class SideStatusBySideSerializer(serializers.Serializer):
    a = SideStatusSerializer()
    z = SideStatusSerializer()


class DirectionStatusSerializer(serializers.Serializer):
    """A direction's newest window (all null before its first)."""

    health = serializers.ChoiceField(choices=Link.Health.choices, allow_null=True)
    corruption_rate = serializers.FloatField(allow_null=True)
    corruption_time = serializers.DateTimeField(allow_null=True)
    congestion_rate = serializers.FloatField(allow_null=True)
    congestion_time = serializers.DateTimeField(allow_null=True)
    health_since = serializers.DateTimeField(allow_null=True)


class DirectionStatusByDirectionSerializer(serializers.Serializer):
    a_to_z = DirectionStatusSerializer()
    z_to_a = DirectionStatusSerializer()


class LinkStatusSerializer(serializers.Serializer):
    """The newest readings, classes and health of a link (services/series.link_status)."""

    link = serializers.IntegerField()
    health = serializers.ChoiceField(choices=Link.Health.choices)
    rx_low = serializers.BooleanField()
    sides = SideStatusBySideSerializer()
    directions = DirectionStatusByDirectionSerializer()


class _LinkTelemetryBase(serializers.Serializer):
    """GET /api/links/{id}/telemetry/ (services/series.link_telemetry); `resolution` says which
    columns `sides` has."""

    link = serializers.IntegerField()
    loss = LossByDirectionSerializer()
    thresholds = ThresholdsBySideSerializer()
    corruption_action_threshold = serializers.FloatField()
    corruption_report_threshold = serializers.FloatField()
    status = LinkStatusSerializer()
    signatures = SignaturesByDirectionSerializer()

    def get_fields(self):
        fields = super().get_fields()
        # 'from' is a Python keyword, so not a class attribute.
        fields["from"] = serializers.DateTimeField()
        fields["to"] = serializers.DateTimeField()
        return fields


class LinkTelemetryRawSerializer(_LinkTelemetryBase):
    resolution = serializers.ChoiceField(choices=["raw"])
    sides = RawSidesSerializer()


class LinkTelemetryHourSerializer(_LinkTelemetryBase):
    resolution = serializers.ChoiceField(choices=["hour"])
    sides = HourlySidesSerializer()


LinkTelemetrySerializer = PolymorphicProxySerializer(
    component_name="LinkTelemetry",
    serializers={"raw": LinkTelemetryRawSerializer, "hour": LinkTelemetryHourSerializer},
    resource_type_field_name="resolution",
)


# --- Forecasts: optics at risk (services/forecasts.py) -----------------------------------------


class LinkForecastBriefSerializer(serializers.ModelSerializer):
    """A link's forecast in the link list and detail (null when it has none)."""

    at_risk = serializers.SerializerMethodField(
        help_text="The forecast says at risk and the link has not failed yet (a corrupting link, or one out of "
        "service for corruption, belongs to its repair ticket): the Links list's 'At risk only' and the At risk page."
    )

    class Meta:
        model = LinkForecast
        fields = ["at_risk", "computed_at", "crossing_at", "earliest_at", "latest_at", "cause", "confidence"]
        read_only_fields = fields

    def get_at_risk(self, forecast: LinkForecast) -> bool:
        # Read from the link's list: the forecast comes joined to its link (select_related("forecast")).
        return forecasts.at_risk_now(forecast, forecast.link)


class ForecastEndSerializer(serializers.Serializer):
    switch = serializers.CharField()
    port = serializers.CharField()
    rack = serializers.CharField(allow_null=True, help_text="The switch's rack; null when it has none.")


class LinkForecastDetailSerializer(serializers.ModelSerializer):
    at_risk = serializers.BooleanField(
        read_only=True,
        help_text="At risk: the crossing is within the fabric's horizon with enough confidence AND the link has not "
        "failed yet. Always false for a failed link (corrupting, or out of service for corruption): it is past "
        "forecasting and belongs to its repair ticket (the forecast answer's `failed`).",
    )
    crossing_at = serializers.DateTimeField(
        read_only=True,
        help_text="When the reading is forecast to reach its limit; equal to `computed_at` when the reading was "
        "already at or past its limit when the forecast was made.",
    )
    cause_label = serializers.CharField(help_text="The cause in words, e.g. 'bent or damaged fiber'.")
    end = ForecastEndSerializer(help_text="The end at `side`, whose reading crosses.")
    recommended_action = serializers.ChoiceField(
        choices=RECOMMENDED_ACTIONS,
        help_text="The ticket rules' action for the cause ('inspect': unclear). Advice for a link not yet failed: "
        "a failed link's ticket says what to do.",
    )
    recommended_action_label = serializers.CharField(help_text="What to do and where, in words.")

    class Meta:
        model = LinkForecast
        fields = [
            "computed_at", "crossing_at", "earliest_at", "latest_at", "confidence", "at_risk", "cause",
            "cause_label", "side", "end", "quantity", "lane", "level_dbm", "slope_db_per_day", "limit_dbm",
            "limit_provenance", "cause_side", "recommended_action", "recommended_action_label",
        ]  # fmt: skip
        read_only_fields = fields


class ForecastTicketSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Ticket.Kind.choices)
    state = serializers.ChoiceField(choices=[c for c in Ticket.State.choices if c[0] != Ticket.State.RESOLVED])


class LinkFailureSerializer(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=[("disabled", "out of service for corruption"), ("corrupting", "corrupting in service")],
        help_text="disabled: out of service for corruption; corrupting: corrupting in service (CorrOpt keeps it for "
        "capacity).",
    )
    since = serializers.DateTimeField(
        allow_null=True,
        help_text="When it failed: when it was taken out of service, or when its first direction started corrupting.",
    )
    ticket = ForecastTicketSerializer(
        allow_null=True, help_text="The link's unresolved ticket, which owns it now; null when it has none."
    )


class LinkForecastSerializer(serializers.Serializer):
    """GET /api/links/{id}/forecast/ (services/forecasts.answer)."""

    link = serializers.IntegerField()
    horizon_days = serializers.IntegerField(help_text="The fabric's forecast horizon: at risk within this many days.")
    min_confidence = serializers.FloatField(help_text="The fabric's least confidence for at risk.")
    forecast = LinkForecastDetailSerializer(
        allow_null=True, help_text="null: the link's optics are not forecast to cross a limit."
    )
    failed = LinkFailureSerializer(
        allow_null=True,
        help_text="Set when the link has already failed (corrupting, or out of service for corruption): it is not "
        "a forecast matter any more, `forecast.at_risk` is false and its ticket says what to do. null: not failed.",
    )


class ForecastLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="A_SWITCH:A_PORT - Z_SWITCH:Z_PORT")
    a = ForecastEndSerializer()
    z = ForecastEndSerializer()


class LinkForecastRowSerializer(LinkForecastDetailSerializer):
    """A row of GET /api/link-forecasts/ (services/forecasts.listed): the forecast endpoint's
    `forecast`, with its link's name and both ends, and the link's unresolved ticket."""

    link = ForecastLinkSerializer(help_text="The link, with both its ends and their racks.")
    ticket = ForecastTicketSerializer(
        allow_null=True,
        help_text="The link's unresolved ticket (repair or preventive; at most one a link), null when it has none.",
    )

    class Meta(LinkForecastDetailSerializer.Meta):
        fields = [*LinkForecastDetailSerializer.Meta.fields, "link", "ticket"]
        read_only_fields = fields

    def to_representation(self, instance):
        return super().to_representation(forecasts.listed(instance))
