"""Which Rx/Tx power limits apply to a link end, and where each one comes from.

Each limit is resolved on its own: a manual override wins, then the value the device reports,
then the catalog's value for the installed transceiver model. LIMITS_FROM and
limit_columns() are that rule in SQL, shared by ingest (which classifies with it) and the API.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

LIMIT_FIELDS = ("input_power_lower_dbm", "input_power_upper_dbm", "output_power_lower_dbm", "output_power_upper_dbm")
# The catalog names the same limits after the transceiver's receive and transmit sides.
CATALOG_FIELDS = {
    "input_power_lower_dbm": "rx_power_min_dbm",
    "input_power_upper_dbm": "rx_power_max_dbm",
    "output_power_lower_dbm": "tx_power_min_dbm",
    "output_power_upper_dbm": "tx_power_max_dbm",
}


def limits_from(end: str) -> str:
    """LEFT JOINs of the three sources onto a relation `end` with columns link_id and side."""
    return f"""
        LEFT JOIN telemetry_powerthreshold lim_m
               ON lim_m.link_id = {end}.link_id AND lim_m.side = {end}.side AND lim_m.source = 'manual'
        LEFT JOIN telemetry_powerthreshold lim_d
               ON lim_d.link_id = {end}.link_id AND lim_d.side = {end}.side AND lim_d.source = 'device'
        LEFT JOIN fabric_transceiver lim_t ON lim_t.link_id = {end}.link_id AND lim_t.side = {end}.side
        LEFT JOIN fabric_transceivermodel lim_c ON lim_c.id = lim_t.model_id"""


def limit_value(name: str) -> str:
    return f"coalesce(lim_m.{name}, lim_d.{name}, lim_c.{CATALOG_FIELDS[name]})"


def limit_source(name: str) -> str:
    return (
        f"CASE WHEN lim_m.{name} IS NOT NULL THEN 'manual' WHEN lim_d.{name} IS NOT NULL THEN 'device' "
        f"WHEN lim_c.{CATALOG_FIELDS[name]} IS NOT NULL THEN 'catalog' END"
    )


@dataclass(frozen=True)
class Resolved:
    value: float | None
    provenance: str | None  # "manual", "device", "catalog", or None when no source has it

    def as_dict(self) -> dict:
        return {"value": self.value, "provenance": self.provenance}


def effective_limits(link_ids: Iterable[int]) -> dict[tuple[int, str], dict[str, Resolved]]:
    """The limits of both ends of every link of `link_ids`."""
    columns = ", ".join(f"{limit_value(name)}, {limit_source(name)}" for name in LIMIT_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT e.link_id, e.side, {columns}
              FROM (SELECT l.id AS link_id, s.side FROM fabric_link l CROSS JOIN (VALUES ('a'), ('z')) AS s(side)
                     WHERE l.id = ANY(%s)) e
              {limits_from("e")}
            """,
            [list(link_ids)],
        )
        rows = cursor.fetchall()
    return {
        (row[0], row[1]): {name: Resolved(row[2 + 2 * i], row[3 + 2 * i]) for i, name in enumerate(LIMIT_FIELDS)}
        for row in rows
    }
