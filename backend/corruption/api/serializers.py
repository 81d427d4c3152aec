from rest_framework import serializers

from lightpath.api.serializers import BriefModelSerializer

from ..models import Decision


class DecisionSerializer(BriefModelSerializer):
    link_name = serializers.CharField(source="link.__str__", read_only=True)
    blocking_tor_name = serializers.CharField(source="blocking_tor.name", read_only=True, default=None)

    class Meta:
        model = Decision
        fields = [
            "id", "url", "fabric", "link", "link_name", "event", "kind", "action", "loss_rate_a_to_z",
            "loss_rate_z_to_a", "penalty", "affected", "blocking_tor", "blocking_tor_name",
            "blocking_tor_fraction", "engine_ms", "created",
        ]  # fmt: skip
        read_only_fields = fields
        brief_fields = ("id", "url", "link", "event", "kind", "action", "created")
