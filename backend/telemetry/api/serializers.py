from rest_framework import serializers

from lightpath.api.serializers import BriefModelSerializer

from ..models import CorruptionEvent, PowerThreshold
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
