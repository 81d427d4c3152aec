"""The links at risk as `lightpath links at-risk` prints them: the rows of GET /api/link-forecasts/
as table cells, when the forecasts were made and whether they are stale (docs/telemetry.md,
"Forecasts: optics at risk")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

import typer

from .output import Column
from .server.shapes import FORECAST_KEYS


def dbm(value: Any) -> str:
    return "-" if value is None else f"{float(value):.2f}"


class Cause(StrEnum):
    decaying_transmitter = "decaying_transmitter"
    contamination = "contamination"
    bent_fiber = "bent_fiber"
    loose_transceiver = "loose_transceiver"
    unknown = "unknown"


# What --cause is typed as: the words the table prints (the server's cause_label for `unknown` is
# "unclear"), so a cause reads and is asked for by one name; the API's code stays a hidden alias.
CAUSE_NAMES = {"unclear" if cause is Cause.unknown else cause.value: cause for cause in Cause}
CAUSE_ALIASES = {Cause.unknown.value: Cause.unknown}
CAUSE_METAVAR = "|".join(CAUSE_NAMES)


def parse_causes(values: list[str] | None) -> list[Cause]:
    """--cause's values as causes; a value neither a name nor an alias is a usage error listing the names."""
    causes = []
    for value in values or []:
        key = value.strip().lower().replace(" ", "_")  # "loose transceiver" typed with a space
        cause = CAUSE_NAMES.get(key) or CAUSE_ALIASES.get(key)
        if cause is None:
            names = ", ".join(f"'{name}'" for name in CAUSE_NAMES)
            raise typer.BadParameter(f"'{value}' is not one of {names}", param_hint="'--cause'")
        causes.append(cause)
    return causes


def percent(value: Any) -> str:
    return "-" if value is None else f"{float(value) * 100:.0f}%"


def utc_minute(value: Any) -> str:
    """'11-30 12:11' (UTC, the table's header says so)."""
    return "-" if value is None else f"{datetime.fromisoformat(str(value)).astimezone(UTC):%m-%d %H:%M}"


AT_RISK_KEYS = ("link", "name", *FORECAST_KEYS)
# CSV cells are flat: the end to act on as three columns (JSON keeps the API's `end` object), and
# both ends' racks, where a technician goes.
AT_RISK_CSV_KEYS = tuple(
    key
    for name in ("link", "name", "a_rack", "z_rack", *FORECAST_KEYS)
    for key in (("end_switch", "end_port", "end_rack") if name == "end" else (name,))
)
AT_RISK_COLUMNS = (
    Column("link", "ID", justify="right"),
    Column("name", "Link"),
    Column("racks", "Racks (A / Z)"),
    Column("crosses", "Crosses (UTC), in (interval)"),
    Column("confidence", "Confidence", render=percent, justify="right"),
    Column("cause_label", "Cause"),
    Column("reading", "Reading (end/lane)", no_wrap=True),
    Column("recommended_action_label", "Action"),
)
# A forecast changes when a 6-hour trend bucket closes; older than this, the optics stopped coming.
STALE_FORECAST = timedelta(hours=12)


def days_until(value: Any, now: datetime) -> str:
    """Days from now to an API time, never below 0."""
    days = max((datetime.fromisoformat(str(value)) - now).total_seconds(), 0.0) / 86_400
    return f"{days:.1f}"


def duration(delta: timedelta) -> str:
    """'40 min', '2.5 h', '1.2 d'."""
    seconds = max(delta.total_seconds(), 0.0)
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 86_400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86_400:.1f} d"


def crosses_in(forecast: dict[str, Any], now: datetime) -> str:
    """'2.0 d (1.0 .. 3.5)'; a reading already at its limit when the forecast was made 'now'; a
    crossing forecast for a time already past 'overdue by 1.2 d'."""
    crossing = datetime.fromisoformat(str(forecast["crossing_at"]))
    if crossing <= datetime.fromisoformat(str(forecast["computed_at"])):
        return "now"
    if crossing <= now:
        return f"overdue by {duration(now - crossing)}"
    latest = days_until(forecast["latest_at"], now) if forecast.get("latest_at") else "never"
    return f"{days_until(crossing, now)} d ({days_until(forecast['earliest_at'], now)} .. {latest})"


def made_line(rows: list[dict[str, Any]], now: datetime) -> str:
    """When the listed forecasts were made ('Forecasts made 2026-11-27 07:00 UTC (2.0 h ago).', or
    between two times: each link's forecast is made when its 6-hour bucket closes)."""
    made = sorted(datetime.fromisoformat(str(row["computed_at"])).astimezone(UTC) for row in rows)
    oldest, newest = made[0], made[-1]
    if newest - oldest < timedelta(minutes=1):
        return f"Forecasts made {oldest:%Y-%m-%d %H:%M} UTC ({duration(now - oldest)} ago)."
    return (
        f"Forecasts made between {oldest:%Y-%m-%d %H:%M} and {newest:%Y-%m-%d %H:%M} UTC "
        f"({duration(now - oldest)} to {duration(now - newest)} ago)."
    )


def stale_note(rows: list[dict[str, Any]], now: datetime) -> str | None:
    """One line for stderr when some forecasts are older than STALE_FORECAST (the optics stopped
    coming), naming the oldest forecast's time."""
    made = [datetime.fromisoformat(str(row["computed_at"])) for row in rows]
    stale = [time for time in made if now - time > STALE_FORECAST]
    if not stale:
        return None
    many = len(stale) != 1
    return (
        f"{len(stale)} forecast{'s' if many else ''} {'were' if many else 'was'} made more than "
        f"{STALE_FORECAST.total_seconds() / 3600:.0f} h ago (the oldest {min(stale).astimezone(UTC):%Y-%m-%d %H:%M} "
        f"UTC): no optics since, so {'they' if many else 'it'} may be out of date"
    )


def at_risk_row(listed: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A row of GET /api/link-forecasts/ as the forecast endpoint's fields (AT_RISK_KEYS), with the
    link's id and name first, and what the table prints of them."""
    forecast = {key: value for key, value in listed.items() if key != "link"}
    link = listed["link"]
    name = f"{link['a']['switch']}:{link['a']['port']}-{link['z']['switch']}:{link['z']['port']}"
    racks = [(link.get(side) or {}).get("rack") for side in ("a", "z")]
    end = forecast.get("end") or {}
    row: dict[str, Any] = {"link": link["id"], "name": name, "a_rack": racks[0], "z_rack": racks[1], **forecast}
    row |= {"end_switch": end.get("switch"), "end_port": end.get("port"), "end_rack": end.get("rack")}
    row["racks"] = " / ".join(rack or "-" for rack in racks)
    row["crosses_in"] = crosses_in(forecast, now)
    row["crosses"] = f"{utc_minute(forecast['crossing_at'])}, {row['crosses_in']}"
    # Lanes count from 1 for people (CMIS); the API's `lane` counts from 0.
    lane = int(forecast["lane"]) + 1
    reading = f"{str(forecast.get('quantity')).capitalize()} {str(forecast.get('side')).upper()}/{lane}"
    if forecast.get("level_dbm") is not None:
        reading += f" {dbm(forecast['level_dbm'])} dBm"
    if forecast.get("slope_db_per_day") is not None:
        reading += f", {float(forecast['slope_db_per_day']):+.2f} dB/d"
    if forecast.get("limit_dbm") is not None:
        reading += f", limit {dbm(forecast['limit_dbm'])} dBm ({forecast.get('limit_provenance')})"
    row["reading"] = reading
    return row
