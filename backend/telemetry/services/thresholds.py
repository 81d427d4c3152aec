"""Which Rx/Tx power limits apply to a link end, and where each one comes from.

Each limit is resolved on its own: a manual override wins, then the value the device reports,
then the catalog's value for the installed transceiver model.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

LIMIT_FIELDS = ("input_power_lower_dbm", "input_power_upper_dbm", "output_power_lower_dbm", "output_power_upper_dbm")


@dataclass(frozen=True)
class Resolved:
    value: float | None
    provenance: str | None  # "manual", "device", "catalog", or None when no source has it

    def as_dict(self) -> dict:
        return {"value": self.value, "provenance": self.provenance}


def effective_limits(link_ids: Iterable[int]) -> dict[tuple[int, str], dict[str, Resolved]]:
    """Limits of every end of `link_ids` that has a transceiver or a threshold row, from the
    telemetry_effective_limits view (the SQL that ingest classifies with)."""
    columns = ", ".join(f"{name}, {name.removesuffix('_dbm')}_source" for name in LIMIT_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT link_id, side, {columns} FROM telemetry_effective_limits WHERE link_id = ANY(%s)",
            [list(link_ids)],
        )
        rows = cursor.fetchall()
    return {
        (row[0], row[1]): {name: Resolved(row[2 + 2 * i], row[3 + 2 * i]) for i, name in enumerate(LIMIT_FIELDS)}
        for row in rows
    }
