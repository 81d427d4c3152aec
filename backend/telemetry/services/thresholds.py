"""Which Rx/Tx power limits apply to a link end, and where each one comes from.

Each limit is resolved on its own: a manual override wins, then the value the device reports,
then the catalog's value for the installed transceiver model.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from fabric.models import Transceiver

from ..models import PowerThreshold

LIMIT_FIELDS = ("input_power_lower_dbm", "input_power_upper_dbm", "output_power_lower_dbm", "output_power_upper_dbm")
# The catalog names the same limits after the transceiver's receive and transmit sides.
CATALOG_FIELDS = {
    "input_power_lower_dbm": "rx_power_min_dbm",
    "input_power_upper_dbm": "rx_power_max_dbm",
    "output_power_lower_dbm": "tx_power_min_dbm",
    "output_power_upper_dbm": "tx_power_max_dbm",
}
CATALOG = "catalog"


@dataclass(frozen=True)
class Resolved:
    value: float | None
    provenance: str | None  # "manual", "device", "catalog", or None when no source has it

    def as_dict(self) -> dict:
        return {"value": self.value, "provenance": self.provenance}


def effective_limits(link_ids: Iterable[int]) -> dict[tuple[int, str], dict[str, Resolved]]:
    """Limits of every end of `link_ids` that has a transceiver or a threshold row."""
    ids = list(link_ids)
    sources: dict[tuple[int, str], dict[str, dict[str, float | None]]] = {}
    for transceiver in Transceiver.objects.filter(link_id__in=ids).select_related("model"):
        sources.setdefault((transceiver.link_id, transceiver.side), {})[CATALOG] = {
            field: getattr(transceiver.model, catalog) for field, catalog in CATALOG_FIELDS.items()
        }
    for threshold in PowerThreshold.objects.filter(link_id__in=ids):
        sources.setdefault((threshold.link_id, threshold.side), {})[threshold.source] = {
            field: getattr(threshold, field) for field in LIMIT_FIELDS
        }
    order = (PowerThreshold.Source.MANUAL.value, PowerThreshold.Source.DEVICE.value, CATALOG)
    resolved = {}
    for key, by_source in sources.items():
        limits = {}
        for field in LIMIT_FIELDS:
            limits[field] = Resolved(None, None)
            for source in order:
                value = by_source.get(source, {}).get(field)
                if value is not None:
                    limits[field] = Resolved(value, source)
                    break
        resolved[key] = limits
    return resolved
